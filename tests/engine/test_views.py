"""RULES.md §8: what each player may know, seat by seat; versions."""
from enginekit import Table, versions

from werewolf import engine

EIGHT = "W W V V seer witch hunter cupid"   # wolves 1-2, 3-4 villagers, 5 seer, 6 witch, 7 hunter, 8 cupid


def roles_seen(t: Table, seat):
    return {p["seat"]: p["role"] for p in t.view(seat)["players"] if "role" in p}


def test_a_player_sees_their_own_card_and_the_public_table():
    t = Table(EIGHT)
    view = t.view(3)
    assert view["me"] == {"seat": 3, "name": "P3", "role": "villager", "alive": True, "captain": False}
    assert roles_seen(t, 3) == {3: "villager"}
    assert [(p["seat"], p["name"], p["alive"], p["captain"]) for p in view["players"]] == [
        (s, f"P{s}", True, False) for s in range(1, 9)]
    assert view["status"] == "running" and view["winner"] is None


def test_the_step_as_seen():
    t = Table(EIGHT)
    t.tick(10)
    step = t.view(3)["step"]
    assert step == {"id": "cupid", "seq": 1, "night": 1, "deadline": "2027-01-15T08:00:45.000Z",
                    "seconds_left": 35.0}
    assert t.view(8)["prompt"] == {"step": 1, "actions": [
        {"action": "cupid.pair", "choices": [1, 2, 3, 4, 5, 6, 7, 8], "count": 2}]}
    assert t.view(3)["prompt"] is None


def test_a_spectator_sees_public_information_only():
    t = Table(EIGHT)
    t.do(8, "cupid.pair", targets=[3, 4])
    t.do(5, "seer.look", 1)
    t.do(1, "werewolves.designate", 3)
    t.say(1, "werewolves", "psst")
    view = t.view(None)
    assert view["me"] is None and view["prompt"] is None
    assert roles_seen(t, None) == {}
    assert {e["kind"] for e in view["events"]} == {"game_start", "step"}
    assert view["chat"] == {"village": []}
    assert "designations" not in view


def test_wolves_see_their_designations_only_during_their_step():
    t = Table(EIGHT)
    t.until("werewolves")
    t.do(1, "werewolves.designate", 3)
    assert t.view(2)["designations"] == {"1": 3}
    assert "designations" not in t.view(3)
    t.do(2, "werewolves.designate", 3)
    assert "designations" not in t.view(2)
    assert [e["target"] for e in t.view(1)["events"] if e["kind"] == "wolves_victim"] == [3]


def test_a_villager_version_does_not_move_at_night_for_what_wolves_do():
    t = Table(EIGHT)
    t.until("werewolves")
    before = t.view(3)
    version = t.game.version_for(3)
    t.do(1, "werewolves.designate", 4)
    t.say(2, "werewolves", "ok for 4")
    t.do(2, "werewolves.designate", 5)
    t.do(1, "werewolves.designate", None)
    assert t.game.version_for(3) == version
    after = t.view(3)
    assert {k: v for k, v in after.items() if k != "step"} == {k: v for k, v in before.items() if k != "step"}
    assert t.game.version_for(1) > version


def test_versions_move_only_for_those_who_can_see():
    t = Table(EIGHT)
    t.until("seer")
    old = versions(t.game)        # [spectator, seat 1..8]
    t.do(5, "seer.look", 1)       # private look, then the wolves' step starts (public)
    new = versions(t.game)
    assert all(n > o for n, o in zip(new, old))
    assert new[5] - old[5] == new[3] - old[3] + 1, "the Seer's version moved once more"


def test_the_dead_see_only_the_cards_of_the_dead():
    t = Table(EIGHT, captain=False)
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(6, "witch.poison", 4)
    t.do(6, "witch.done")
    assert roles_seen(t, 3) == {3: "villager", 4: "villager"}
    assert roles_seen(t, None) == {3: "villager", 4: "villager"}


def test_a_dead_wolf_no_longer_sees_the_wolves_night():
    t = Table(EIGHT, captain=False)
    t.until("vote")
    t.vote_all({s: 2 for s in range(1, 9)})
    t.until("werewolves")
    t.do(1, "werewolves.designate", 3)
    view = t.view(2)
    assert "designations" not in view and "werewolves" not in view["chat"]
    assert not any(e["kind"] == "designation" for e in view["events"])
    assert view["prompt"] is None


def test_events_are_numbered_per_viewer_without_gaps():
    t = Table(EIGHT)
    t.do(8, "cupid.pair", targets=[3, 4])
    t.do(5, "seer.look", 1)
    for seat in [None, *range(1, 9)]:
        events = t.view(seat)["events"]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert all("audience" not in e for e in events)
    assert len(t.view(8)["events"]) > len(t.view(2)["events"])


def test_witch_sees_her_potions_nobody_else_does():
    t = Table(EIGHT)
    assert t.view(6)["me"]["potions"] == {"life": True, "death": True}
    for seat in (1, 2, 3, 4, 5, 7, 8):
        assert "potions" not in t.view(seat)["me"]


def test_votes_and_requests_are_public():
    t = Table(EIGHT, captain=False)
    t.until("debate")
    t.do(3, "debate.request_vote")
    assert t.view(None)["requests"] == [3]
    t.timeout()
    t.do(4, "vote.cast", 1)
    for seat in (None, 1, 5):
        assert t.view(seat)["votes"] == {"4": 1}
        assert t.view(seat)["requests"] == []


def test_hunter_and_tiebreak_steps_name_their_actor():
    t = Table(EIGHT)
    t.until("election")
    for seat in t.game.living():
        t.do(seat, "election.vote", 3)
    t.to_vote()
    t.vote_all({3: 7, 4: 7})
    assert t.step == "hunter"
    assert t.view(None)["step"]["actor"] == 7
    t.do(7, "hunter.shoot", 8)
    t.until("vote")
    t.vote_all({3: 4, 4: 5, 6: 5})      # the Captain's vote counts double: 2 against 2
    assert t.view(None)["step"]["actor"] == 3
    assert t.view(None)["step"]["tied"] == [4, 5]


def test_view_for_is_pure():
    t = Table(EIGHT)
    before = engine.Game.from_dict(t.game.to_dict())
    for seat in [None, *range(1, 9)]:
        engine.view_for(t.game, seat, t.now)
    assert t.game == before


def _night(cards: str, cupid=None, victim=None, poison=None, save=False) -> Table:
    """Night 1 with exactly these choices, the same number of inputs and the same timing."""
    t = Table(cards, captain=False)
    cupid_seat = next((p.seat for p in t.game.players if p.role == "cupid"), None)
    if cupid_seat is not None:
        t.do(cupid_seat, "cupid.pair", targets=cupid)
    t.until("werewolves")
    t.wolves_kill(victim)
    witch = next(p.seat for p in t.game.players if p.role == "witch")
    t.do(witch, "witch.save" if save else "witch.poison", victim if save else poison)
    t.do(witch, "witch.done")
    assert t.step == "dawn"
    return t


def _outsiders_see_the_same(a: Table, b: Table, insiders: set) -> None:
    for seat in [None, *range(1, a.game.n + 1)]:
        if seat not in insiders:
            assert a.view(seat) == b.view(seat), f"seat {seat} can tell the two nights apart"


def test_the_dawn_does_not_tell_the_wolves_victim_from_the_poisoned():
    cards = "W V V seer witch V"
    a = _night(cards, victim=6, poison=2)
    b = _night(cards, victim=2, poison=6)
    assert a.dead() == b.dead() == [2, 6]
    _outsiders_see_the_same(a, b, insiders={1, 5})


def test_the_dawn_does_not_tell_who_died_of_grief():
    cards = "W V V seer witch cupid"
    a = _night(cards, cupid=[3, 6], victim=6, poison=2)
    b = _night(cards, cupid=[3, 6], victim=3, poison=2)
    assert a.dead() == b.dead() == [2, 3, 6]
    # The lovers themselves, Cupid, the wolf and the Witch know; nobody else may.
    _outsiders_see_the_same(a, b, insiders={1, 3, 5, 6})


TEN = "W W V V V V seer witch hunter cupid"   # wolves 1-2, 3-6 villagers, 7 seer, 8 witch, 9 hunter, 10 cupid


def _first_night(cupid, look, designations) -> Table:
    """Night 1 with these private choices; the Witch poisons seat 6 and confirms."""
    t = Table(TEN, captain=False)
    t.do(10, "cupid.pair", targets=cupid)
    t.do(7, "seer.look", look)
    for wolf, target in designations:
        t.do(wolf, "werewolves.designate", target)
    assert t.step == "witch"
    t.do(8, "witch.poison", 6)
    t.do(8, "witch.done")
    return t


def test_private_night_choices_leave_no_trace_for_others():
    """Other lovers, another look, other designations: the same night for everyone else."""
    a = _first_night([9, 10], 1, [(1, 3), (2, 5), (1, 5)])
    b = _first_night([7, 10], 4, [(2, 5), (1, 4), (1, 5)])
    assert a.dead() == b.dead() == [5, 6]
    _outsiders_see_the_same(a, b, insiders={1, 2, 7, 8, 9, 10})


def test_a_seat_outside_the_table_gets_no_view():
    import pytest

    from werewolf import engine
    game = engine.new_game([f"P{i}" for i in range(6)], {}, 7, 0.0)
    for seat in (0, -1, 7, True):
        with pytest.raises(engine.IllegalAction) as refused:
            engine.view_for(game, seat, 0.0)
        assert refused.value.code == "not_your_turn"
