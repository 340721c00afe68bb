"""RULES.md §6: who wins, checked after every batch of deaths; the reveal at the end."""
import pytest
from enginekit import Table

from werewolf.engine import flow

EIGHT = "W W V V seer witch hunter cupid"   # wolves 1-2, 3-4 villagers, 5 seer, 6 witch, 7 hunter, 8 cupid


def outcome(cards: str, alive: list[int], lovers=None):
    """The win condition alone, on a table where only `alive` are alive."""
    t = Table(cards)
    t.game.lovers = lovers
    for p in t.game.players:
        p.alive = p.seat in alive
    return flow.outcome(t.game)


@pytest.mark.parametrize("alive, lovers, expected", [
    # village: no wolf alive; every non-wolf wins, dead or alive
    ([3], None, {"camp": "village", "seats": [3, 4, 5, 6, 7, 8]}),
    ([3, 4, 5, 6, 7, 8], None, {"camp": "village", "seats": [3, 4, 5, 6, 7, 8]}),
    # wolves: only wolves alive; dead wolves win too
    ([2], None, {"camp": "werewolves", "seats": [1, 2]}),
    ([1, 2], None, {"camp": "werewolves", "seats": [1, 2]}),
    # nothing yet
    ([1, 3], None, None),
    ([1, 2, 3], None, None),
    # a mixed couple wins as the last two alive...
    ([1, 3], [1, 3], {"camp": "lovers", "seats": [1, 3]}),
    # ...and is not done while anyone else lives
    ([1, 3, 4], [1, 3], None),
    ([1, 2, 3], [1, 3], None),
    # a mixed couple's lovers no longer win with their camps
    ([4], [1, 3], {"camp": "village", "seats": [4, 5, 6, 7, 8]}),
    ([2], [1, 3], {"camp": "werewolves", "seats": [2]}),
    # lovers of the same camp win with it
    ([3, 4], [3, 4], {"camp": "village", "seats": [3, 4, 5, 6, 7, 8]}),
    ([1, 2], [1, 2], {"camp": "werewolves", "seats": [1, 2]}),
    ([1, 2, 3], [1, 2], None),
    # nobody alive: a draw
    ([], None, {"camp": "none", "seats": []}),
    ([], [1, 3], {"camp": "none", "seats": []}),
])
def test_win_conditions(alive, lovers, expected):
    assert outcome(EIGHT, alive, lovers) == expected


def test_village_wins_when_the_last_wolf_is_voted_out():
    t = Table("W V seer witch hunter cupid", captain=False)
    t.until("vote")
    t.vote_all({2: 1, 3: 1})
    assert t.game.status == "ended"
    assert t.game.winner == {"camp": "village", "seats": [2, 3, 4, 5, 6]}
    assert t.game.step is None and t.game.deadline is None
    assert t.last("game_end")["winner"] == t.game.winner


def test_wolves_win_when_only_wolves_are_alive():
    t = Table("W V V V V V", captain=False)
    for victim, voted in ((2, 3), (4, 5)):
        t.until("werewolves")
        t.wolves_kill(victim)
        t.until("vote")
        t.vote_all({1: voted, voted: voted})
    assert t.game.living() == [1, 6]
    t.until("werewolves")
    t.wolves_kill(6)
    assert t.game.status == "ended"
    assert t.game.winner == {"camp": "werewolves", "seats": [1]}


def test_mixed_lovers_win_as_the_last_two():
    t = Table("W V seer witch hunter cupid", captain=False)
    t.do(6, "cupid.pair", targets=[1, 2])
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(4, "witch.poison", 4)
    t.do(4, "witch.done")
    t.until("vote")
    t.vote_all({1: 5, 2: 5})
    t.do(5, "hunter.shoot", 6)
    assert t.game.status == "ended"
    assert t.game.winner == {"camp": "lovers", "seats": [1, 2]}


def test_mixed_lover_wolf_does_not_share_the_wolves_win():
    t = Table(EIGHT, captain=False)
    t.do(8, "cupid.pair", targets=[1, 3])
    t.until("werewolves")
    t.wolves_kill(3)                   # the wolf 1 dies of grief
    t.do(6, "witch.poison", 4)
    t.do(6, "witch.done")
    t.until("vote")
    t.vote_all({2: 5, 5: 5})
    t.until("werewolves")
    t.wolves_kill(7)
    t.until("hunter")
    t.do(7, "hunter.shoot", 8)
    assert t.game.living() == [2, 6]
    t.until("vote")
    t.vote_all({2: 6})
    assert t.game.winner == {"camp": "werewolves", "seats": [2]}


def test_nobody_alive_is_a_draw():
    t = Table("W V V witch V V", captain=False)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(4, "witch.done")
    t.until("vote")
    t.vote_all({1: 3, 3: 3})
    t.wolves_kill(5)
    t.do(4, "witch.done")
    t.until("vote")
    t.vote_all({1: 6, 6: 6})
    assert t.game.living() == [1, 4]
    t.wolves_kill(4)
    t.do(4, "witch.poison", 1)
    t.do(4, "witch.done")
    assert t.game.status == "ended"
    assert t.game.winner == {"camp": "none", "seats": []}


def test_the_end_reveals_everything_to_everyone():
    t = Table(EIGHT, captain=False)
    t.do(8, "cupid.pair", targets=[3, 4])
    t.do(5, "seer.look", 1)
    t.say(1, "werewolves", "psst")
    t.wolves_kill(3)
    t.do(6, "witch.done")
    t.timeout()
    t.say(5, "village", "hello")
    t.say(3, "dead", "boo")
    t.to_vote()
    t.vote_all({s: 1 for s in range(1, 9)})
    t.to_vote()
    t.vote_all({s: 2 for s in range(1, 9)})
    assert t.game.status == "ended"
    roles = [p.role for p in t.game.players]
    everything = len(t.game.events)
    for seat in [None, *range(1, 9)]:
        view = t.view(seat)
        assert view["status"] == "ended" and view["step"] is None and view["prompt"] is None
        assert [p["role"] for p in view["players"]] == roles
        assert len(view["events"]) == everything
        assert all("audience" in e for e in view["events"])
        kinds = {e["kind"] for e in view["events"]}
        assert {"cupid_pair", "lover", "seer_look", "designation", "witch_victim",
                "night_summary", "night_deaths", "game_end"} <= kinds
        assert {ch: [m["text"] for m in msgs] for ch, msgs in view["chat"].items()} == {
            "village": ["hello"], "werewolves": ["psst"], "dead": ["boo"]}
        assert view["winner"] == {"camp": "village", "seats": [3, 4, 5, 6, 7, 8]}
        assert view["channels"]["write"] is None


def test_nothing_happens_after_the_end():
    t = Table("W V seer witch hunter cupid", captain=False)
    t.until("vote")
    t.vote_all({2: 1, 3: 1})
    from werewolf import engine
    assert not engine.advance(t.game, t.now + 10_000)
    t.refuse(2, {"action": "vote.cast", "target": 3}, "game_over")
    t.refuse(2, ("village", "gg"), "game_over", chat=True)
    assert engine.legal_actions(t.game, 2) == []
