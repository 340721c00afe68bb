"""Lovers' channel — `lovers_channel` (RULES-VARIANTS A7.2, A9.2): one test per rule."""
import json

from rolekit import RoleTable

from werewolf import engine

# seats: 1-2 wolves, 3 Villager, 4 Seer, 5 Villager, 6 Witch, 7 Cupid, 8 Villager
CARDS = "W W V seer V witch cupid V"
ON = {"lovers_channel": True}


def paired(options=ON, cards=CARDS) -> RoleTable:
    t = RoleTable(cards, options=options)
    t.do(7, "cupid.pair", targets=[3, 8])
    return t


def test_both_lovers_read_and_write_it_by_night_and_by_day():
    t = paired()
    assert t.step == "seer"
    for lover in (3, 8):
        view = t.view(lover)
        assert "lovers" in view["channels"]["read"] and "lovers" in view["channels"]["writable"]
        assert view["channels"]["write"] is None, "the main channel is still none at night"
    t.say(3, "lovers", "je t'aime")
    t.until("debate")
    t.say(8, "lovers", "moi aussi")
    assert t.view(8)["channels"]["writable"] == ["village", "lovers"]
    assert [m["text"] for m in t.view(3)["chat"]["lovers"]] == ["je t'aime", "moi aussi"]


def test_nobody_else_reads_or_writes_it_not_cupid_the_dead_nor_spectators():
    t = paired()
    t.say(3, "lovers", "secret")
    t.game.player(5).alive = False
    for seat in (None, 1, 2, 4, 5, 6, 7):
        view = t.view(seat)
        assert "lovers" not in view["chat"] and "secret" not in json.dumps(view), seat
    for seat in (1, 5, 7):
        t.refuse(seat, ("lovers", "x"), "channel_closed", chat=True)


def test_it_opens_only_at_the_end_of_cupid_s_step():
    t = RoleTable(CARDS, options=ON)
    assert "lovers" not in t.view(3)["chat"]
    t.refuse(3, ("lovers", "x"), "channel_closed", chat=True)


def test_a_dead_lover_reads_its_history_and_writes_in_dead():
    t = paired()
    t.say(3, "lovers", "avant")
    t.game.player(3).alive = False
    t.game.player(8).alive = False
    view = t.view(3)
    assert [m["text"] for m in view["chat"]["lovers"]] == ["avant"]
    assert view["channels"]["writable"] == ["dead"]
    t.refuse(3, ("lovers", "après"), "channel_closed", chat=True)


def test_shown_to_everyone_at_the_end():
    t = paired()
    t.say(3, "lovers", "adieu")
    engine.stop(t.game, t.now)
    for seat in (None, 5, 7):
        assert [m["text"] for m in t.view(seat)["chat"]["lovers"]] == ["adieu"]


def test_off_by_default_there_is_no_such_channel():
    t = paired(options={})
    assert "lovers" not in t.view(3)["chat"] and t.view(3)["channels"]["writable"] == []
    t.refuse(3, ("lovers", "x"), "unknown_channel", chat=True)


# A9.2: "the lovers write in `lovers` vs never write -> every other seat (Cupid, the dead,
# the Medium, the Little Girl, spectators), until the end"
def play(write: bool) -> list[dict]:
    t = paired()
    t.game.player(5).alive = False   # a dead player too
    seen = []

    def record():
        seen.append({seat: (json.dumps(t.view(seat), sort_keys=True), t.game.version_for(seat))
                     for seat in (None, 1, 2, 4, 5, 6, 7)})

    record()
    if write:
        t.say(3, "lovers", "nuit")
        t.say(8, "lovers", "oui")
    else:
        t.tick(2)
    record()
    t.until("debate")
    if write:
        t.say(8, "lovers", "jour")
    else:
        t.tick()
    record()
    return seen


def test_differential_lovers_writing_vs_silent():
    assert play(True) == play(False)
