"""Issue 35: what the engine tells so that the evening's story is told right — the grief
of a lover, the end's couple and middle cards, no silence of a Cupid nobody held, no win
for a player who left."""
from enginekit import Table
from rolekit import RoleTable

from werewolf import engine

TEN = "W W V V V V seer witch hunter cupid"  # wolves 1-2, villagers 3-6, 7 seer, 8 witch, 9 hunter, 10 cupid


def _night_grief() -> Table:
    t = Table(TEN, captain=False)
    t.do(10, "cupid.pair", targets=[3, 4])
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(8, "witch.done")
    return t


def test_the_lover_who_dies_of_grief_at_night_is_told_and_nobody_else():
    t = _night_grief()
    assert t.step == "dawn" and t.dead() == [3, 4]
    assert t.view(4)["me"]["died_of"] == "grief"
    for seat in (None, 1, 2, 3, 5, 7, 8, 9, 10):
        view = t.view(seat)
        assert "died_of" not in (view["me"] or {})
        assert all(d["cause"] == "night" for e in view["events"] if e["kind"] == "deaths" for d in e["deaths"])


def test_the_poisoned_lover_is_not_told_grief():
    t = Table(TEN, captain=False)
    t.do(10, "cupid.pair", targets=[3, 4])
    t.until("werewolves")
    t.timeout()
    t.do(8, "witch.poison", 3)
    t.do(8, "witch.done")
    assert "died_of" not in t.view(3)["me"] and t.view(4)["me"]["died_of"] == "grief"


def test_the_end_shows_the_couple_every_cause_and_the_lovers_are_in_every_view():
    t = _night_grief()
    assert "lovers" not in t.view(4) and "lovers" not in t.view(None)
    engine.stop(t.game, t.now)
    for seat in (None, 1, 4):
        view = t.view(seat)
        assert view["lovers"] == [3, 4]
        causes = next(e for e in view["events"] if e["kind"] == "night_deaths")["deaths"]
        assert causes == [{"seat": 3, "cause": "night"}, {"seat": 4, "cause": "grief"}]


def test_a_cupid_card_in_the_middle_is_no_silence_and_the_end_shows_the_middle():
    t = RoleTable("W V V V thief witch", middle="cupid V")
    t.until("cupid")
    t.timeout()
    assert t.events("cupid_silent") == []
    assert "middle" not in t.view(None)
    engine.stop(t.game, t.now)
    assert t.view(None)["middle"] == ["cupid", "villager"] and t.view(1)["middle"] == ["cupid", "villager"]


def test_a_cupid_who_chose_nobody_is_still_told_at_the_end():
    t = Table(TEN, captain=False)
    t.timeout()
    assert t.events("cupid_silent")


def test_a_player_who_left_shares_no_win():
    t = Table(TEN, captain=False)
    engine.leave(t.game, 3, t.now)
    t.until("werewolves")
    t.wolves_kill(4)
    t.do(8, "witch.poison", 1)
    t.do(8, "witch.done")
    t.until("vote")
    for seat in t.game.living():
        if seat != 3:
            t.do(seat, "vote.cast", 2)   # the last of them closes the round: who left has no vote
    assert t.game.status == "ended" and t.game.winner["camp"] == "village"
    assert 3 not in t.game.winner["seats"] and 5 in t.game.winner["seats"]


def test_at_the_end_the_dawn_announcement_tells_who_died_of_grief():
    t = _night_grief()
    dawn = lambda view: next(e for e in view["events"] if e["kind"] == "deaths")["deaths"]  # noqa: E731
    assert [d["cause"] for d in dawn(t.view(1))] == ["night", "night"]
    engine.stop(t.game, t.now)
    for seat in (None, 1, 4):
        assert dawn(t.view(seat)) == [{"seat": 3, "role": "villager", "cause": "night"},
                                      {"seat": 4, "role": "villager", "cause": "grief"}]
    # The stored event is untouched (the record and the replay read it).
    assert [d["cause"] for d in t.events("deaths")[0]["deaths"]] == ["night", "night"]
