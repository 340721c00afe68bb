"""The Medium — Médium (RULES-VARIANTS A3.7): one test per rule and decision."""
import json

from rolekit import RoleTable, recorder

# seat 1 wolf, 2-3 villagers, 4 Seer, 5 Medium, 6 Witch, 7 Little Girl, 8 villager
CARDS = "W V V seer medium witch lg V"


def first_death(t, victim=2):
    t.until("werewolves")
    t.wolves_kill(victim)
    t.do(6, "witch.done")
    assert not t.alive(victim)


def texts(view, channel):
    return [m["text"] for m in view["chat"].get(channel, [])]


def test_alive_he_reads_the_dead_channel_from_the_start():
    t = RoleTable(CARDS)
    view = t.view(5)
    assert "dead" in view["channels"]["read"] and view["chat"]["dead"] == []
    first_death(t)
    t.say(2, "dead", "bouh")
    assert texts(t.view(5), "dead") == ["bouh"]


def test_he_writes_in_dead_by_night_and_by_day_with_his_seat_and_name():
    t = RoleTable(CARDS)
    t.until("seer")
    assert t.view(5)["channels"]["writable"] == ["dead"]
    t.say(5, "dead", "quelqu'un ?")
    first_death(t)
    assert t.step == "dawn"
    t.timeout()
    assert t.view(5)["channels"]["writable"] == ["village", "dead"]
    t.say(5, "dead", "de jour")
    t.say(5, "village", "bonjour")
    lines = t.view(2)["chat"]["dead"]
    assert [m["text"] for m in lines] == ["quelqu'un ?", "de jour"]
    assert lines[0]["seat"] == 5 and lines[0]["name"] == "P5"


def test_the_living_see_no_change_no_channel_no_version():
    t = RoleTable(CARDS)
    first_death(t)
    def seen():
        return {s: (t.game.version_for(s), t.view(s)["chat"], t.view(s)["channels"]) for s in (None, 1, 3, 4, 6, 7, 8)}

    before = seen()
    t.say(5, "dead", "psst")
    t.say(2, "dead", "réponse")
    assert seen() == before
    for seat in (1, 3):
        assert "dead" not in t.view(seat)["channels"]["read"]
        t.refuse(seat, ("dead", "moi aussi"), "channel_closed", chat=True)


def test_he_reads_neither_the_wolves_nor_learns_what_the_dead_know():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.say(1, "werewolves", "secret")
    view = t.view(5)
    assert "werewolves" not in view["channels"]["read"] and "secret" not in json.dumps(view)
    first_death(t)
    assert all("role" not in p for p in t.view(5)["players"] if p["alive"] and p["seat"] != 5)


def test_dead_he_is_an_ordinary_dead_player():
    t = RoleTable(CARDS)
    first_death(t, 5)
    assert t.view(5)["channels"]["writable"] == ["dead"] and "dead" in t.view(5)["channels"]["read"]


def test_he_may_not_write_in_the_wolves_channel():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.refuse(5, ("werewolves", "hou"), "channel_closed", chat=True)


# --- A9.2: "the Medium writes in dead vs never writes -> every living seat but his, and
# spectators, until the end"
def play_differential(writes: bool):
    t = RoleTable(CARDS)
    seen, record = recorder(t, (None, 1, 3, 4, 6, 7, 8))

    first_death(t)
    record()
    if writes:
        t.say(5, "dead", "allô les morts")
    else:
        t.tick()
    record()
    while t.game.status == "running" and t.game.day < 2:
        t.timeout()
        record()
    return seen


def test_differential_his_messages_are_his_alone_among_the_living():
    assert play_differential(True) == play_differential(False)
