"""RULES.md §7: who reads and writes which channel, by day and by night; message rules."""
import pytest
from enginekit import Table

from werewolf import engine

EIGHT = "W W V V seer witch hunter cupid"   # wolves 1-2, 3-4 villagers, 5 seer, 6 witch, 7 hunter, 8 cupid


def channels(t: Table, seat):
    view = t.view(seat)
    assert sorted(view["chat"]) == sorted(view["channels"]["read"])
    return view["channels"]["read"], view["channels"]["write"]


def texts(t: Table, seat, channel):
    return [m["text"] for m in t.view(seat)["chat"][channel]]


def night_with_a_dead_wolf() -> Table:
    """Night 2: wolf 2 and villager 3 are dead."""
    t = Table(EIGHT, captain=False)
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(6, "witch.done")
    t.to_vote()
    t.vote_all({s: 2 for s in range(1, 9)})
    t.until("werewolves")
    return t


def test_by_night_only_the_wolves_talk_among_themselves():
    t = Table(EIGHT)
    assert t.game.is_night()
    assert channels(t, 1) == (["village", "werewolves"], "werewolves")
    for seat in range(3, 9):
        assert channels(t, seat) == (["village"], None)
    t.say(1, "werewolves", "on mange qui ?")
    assert texts(t, 2, "werewolves") == ["on mange qui ?"]
    t.refuse(3, ("village", "hello?"), "channel_closed", chat=True)
    t.refuse(1, ("village", "hello?"), "channel_closed", chat=True)
    t.refuse(3, ("werewolves", "let me in"), "channel_closed", chat=True)
    t.refuse(3, ("dead", "boo"), "channel_closed", chat=True)


def test_by_day_the_living_talk_to_everyone():
    t = Table(EIGHT)
    t.until("election")
    assert channels(t, 3) == (["village"], "village")
    assert channels(t, 1) == (["village", "werewolves"], "village")
    t.say(3, "village", "bonjour")
    t.refuse(1, ("werewolves", "psst"), "channel_closed", chat=True)
    for seat in [None, *range(1, 9)]:
        assert texts(t, seat, "village") == ["bonjour"]


def test_the_dead_talk_among_themselves_day_and_night_and_read_the_village():
    t = night_with_a_dead_wolf()
    assert channels(t, 3) == (["village", "dead"], "dead")
    assert channels(t, 2) == (["village", "dead"], "dead"), "a dead wolf no longer reads the wolves"
    t.say(3, "dead", "il fait froid")
    t.say(2, "dead", "oui")
    assert texts(t, 2, "dead") == ["il fait froid", "oui"]
    t.refuse(2, ("werewolves", "I am still here"), "channel_closed", chat=True)
    t.refuse(3, ("village", "vote 1!"), "channel_closed", chat=True)
    t.until("debate")
    assert channels(t, 3) == (["village", "dead"], "dead")
    t.refuse(3, ("village", "vote 1!"), "channel_closed", chat=True)
    t.say(3, "dead", "still dead")


def test_the_living_never_read_the_dead():
    t = night_with_a_dead_wolf()
    t.say(3, "dead", "secret of the grave")
    for seat in (None, 1, 4, 5, 6, 7, 8):
        assert "dead" not in t.view(seat)["chat"]


def test_nobody_but_living_wolves_reads_the_wolves_channel():
    t = Table(EIGHT)
    t.say(1, "werewolves", "psst")
    for seat in (None, 3, 4, 5, 6, 7, 8):
        assert "werewolves" not in t.view(seat)["chat"]
    t.until("election")
    assert texts(t, 2, "werewolves") == ["psst"], "the wolves still read it by day"


def test_spectators_read_the_village_only_and_write_nothing():
    t = Table(EIGHT)
    assert channels(t, None) == (["village"], None)
    assert engine.writable_channel(t.game, None) is None


def test_a_message_records_who_wrote_it_and_is_numbered_per_channel():
    t = Table(EIGHT)
    t.say(2, "werewolves", "un")
    t.until("election")
    t.say(4, "village", "deux")
    t.say(5, "village", "trois")
    village = t.view(4)["chat"]["village"]
    assert [(m["seq"], m["seat"], m["name"], m["text"]) for m in village] == [
        (1, 4, "P4", "deux"), (2, 5, "P5", "trois")]
    assert t.view(1)["chat"]["werewolves"][0]["seq"] == 1
    assert village[0]["at"].endswith("Z")


def test_500_characters_at_most():
    t = Table(EIGHT)
    t.say(1, "werewolves", "é" * 500)
    t.refuse(1, ("werewolves", "é" * 501), "text_too_long", chat=True)


@pytest.mark.parametrize("text", ["", " ", "\n\t  \n"])
def test_empty_messages_are_refused(text):
    t = Table(EIGHT)
    t.refuse(1, ("werewolves", text), "text_empty", chat=True)


@pytest.mark.parametrize("text", ["a\x00b", "bell\x07", "esc\x1b[31m", "cr\rlf", "del\x7f", "\x0bvt"])
def test_control_characters_are_refused(text):
    t = Table(EIGHT)
    t.refuse(1, ("werewolves", text), "text_invalid", chat=True)


def test_tabs_newlines_and_markup_are_plain_text():
    t = Table(EIGHT)
    text = "ligne 1\n\tligne 2 <script>alert(1)</script> & ☾"
    t.say(1, "werewolves", text)
    assert texts(t, 2, "werewolves") == [text], "kept as written; escaping is the page's job"


@pytest.mark.parametrize("text", [None, 42, ["hi"], b"hi"])
def test_text_must_be_a_string(text):
    t = Table(EIGHT)
    t.refuse(1, ("werewolves", text), "bad_request", chat=True)


@pytest.mark.parametrize("channel", ["lovers", "", None, 1, "Village"])
def test_unknown_channels_are_refused(channel):
    t = Table(EIGHT)
    t.refuse(1, (channel, "hi"), "unknown_channel", chat=True)


@pytest.mark.parametrize("seat", [0, -1, 9, 99, None, True, "1"])
def test_only_seated_players_write(seat):
    t = Table(EIGHT)
    t.until("election")
    t.refuse(seat, ("village", "hi"), "not_your_turn", chat=True)


def test_chat_moves_only_the_versions_of_its_readers():
    t = Table(EIGHT)
    before = {s: t.game.version_for(s) for s in [None, *range(1, 9)]}
    t.say(1, "werewolves", "psst")
    after = {s: t.game.version_for(s) for s in [None, *range(1, 9)]}
    assert {s for s in before if before[s] != after[s]} == {1, 2}
