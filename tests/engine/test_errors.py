"""Every IllegalAction code, and a refused action changes nothing (state and versions)."""
import pytest
from enginekit import T0, Table, snapshot

from werewolf import engine

SIX = "W V seer witch hunter cupid"   # 1 wolf, 2 villager, 3 seer, 4 witch, 5 hunter, 6 cupid


@pytest.mark.parametrize("body", [None, "seer.look", [], {}, {"action": 3}, {"action": None},
                                  {"target": 2}])
def test_bad_request(body):
    Table(SIX).refuse(6, body, "bad_request")


@pytest.mark.parametrize("action", ["dance", "seer", "cupid.pair ", "CUPID.PAIR", "witch.kill"])
def test_unknown_action(action):
    Table(SIX).refuse(6, {"action": action}, "unknown_action")


@pytest.mark.parametrize("action, body", [
    ("seer.look", {"target": 1}), ("werewolves.designate", {"target": 2}), ("witch.save", {}),
    ("witch.done", {}), ("hunter.shoot", {"target": 1}), ("succession.name", {"target": 1}),
    ("election.vote", {"target": 1}), ("debate.request_vote", {}), ("vote.cast", {"target": 1}),
    ("tiebreak.choose", {"target": 1}),
])
def test_wrong_step(action, body):
    t = Table(SIX)
    assert t.step == "cupid"
    for seat in (1, 3, 4, 5, 6):
        t.refuse(seat, {"action": action, **body}, "wrong_step")


@pytest.mark.parametrize("seat", [0, -1, 7, 100, None, True, "6", 6.0])
def test_wrong_seat(seat):
    Table(SIX).refuse(seat, {"action": "cupid.pair", "targets": [1, 2]}, "not_your_turn")


def test_not_your_turn():
    t = Table(SIX)
    for seat in (1, 2, 3, 4, 5):
        t.refuse(seat, {"action": "cupid.pair", "targets": [1, 2]}, "not_your_turn")
    t.timeout()
    t.refuse(1, {"action": "seer.look", "target": 2}, "not_your_turn")
    t.timeout()
    t.refuse(3, {"action": "werewolves.designate", "target": 2}, "not_your_turn")
    t.timeout()
    t.refuse(1, {"action": "witch.done"}, "not_your_turn")


def test_stale_step():
    t = Table(SIX)
    seq = t.game.step_seq
    t.refuse(6, {"action": "cupid.pair", "targets": [1, 2], "step": seq - 1}, "stale_step")
    t.refuse(6, {"action": "cupid.pair", "targets": [1, 2], "step": seq + 1}, "stale_step")
    t.timeout()
    t.refuse(3, {"action": "seer.look", "target": 2, "step": seq}, "stale_step")
    t.do(3, "seer.look", 2, step=t.game.step_seq)
    assert t.step == "werewolves"


def test_check_request_past_only_refuses_only_what_no_later_state_can_lift():
    t = Table(SIX)
    seq = t.game.step_seq
    before = snapshot(t.game)
    pair = {"action": "cupid.pair", "targets": [1, 2]}
    with pytest.raises(engine.IllegalAction) as refused:
        engine.check_request(t.game, 6, {**pair, "step": seq - 1}, past_only=True)
    assert refused.value.code == "stale_step"
    # A step this copy has not reached yet may be the current one elsewhere: not refused.
    engine.check_request(t.game, 6, {**pair, "step": seq + 1}, past_only=True)
    engine.check_request(t.game, 6, {**pair, "step": seq}, past_only=True)
    with pytest.raises(engine.IllegalAction) as refused:
        engine.check_request(t.game, 6, {**pair, "step": seq + 1})
    assert refused.value.code == "stale_step"
    for body, code in [({"action": 3}, "bad_request"), ({"action": "dance"}, "unknown_action"),
                       ({**pair, "step": "x"}, "bad_request")]:
        with pytest.raises(engine.IllegalAction) as refused:
            engine.check_request(t.game, 6, body, past_only=True)
        assert refused.value.code == code
    assert snapshot(t.game) == before


@pytest.mark.parametrize("step", ["1", True, 1.0, [1]])
def test_step_must_be_a_number(step):
    Table(SIX).refuse(6, {"action": "cupid.pair", "targets": [1, 2], "step": step}, "bad_request")


def test_step_null_is_ignored():
    t = Table(SIX)
    t.do(6, "cupid.pair", targets=[1, 2], step=None)
    assert t.game.lovers == [1, 2]


def test_not_alive():
    t = Table(SIX, captain=False)
    t.until("werewolves")
    t.wolves_kill(3)
    t.until("debate")
    t.refuse(3, {"action": "debate.request_vote"}, "not_alive")
    t.timeout()
    t.refuse(3, {"action": "vote.cast", "target": 1}, "not_alive")


@pytest.mark.parametrize("target", [None, 0, 7, -1, "2", True, 2.0, [2], {"seat": 2}])
def test_invalid_target(target):
    t = Table(SIX)
    t.until("seer")
    body = {"action": "seer.look"}
    if target is not None:
        body["target"] = target
    t.refuse(3, body, "invalid_target")


def test_dead_target_is_invalid_everywhere():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(4, "witch.poison", 3)
    t.do(4, "witch.done")
    t.until("election")
    for dead in (2, 3):
        t.refuse(1, {"action": "election.vote", "target": dead}, "invalid_target")
    t.to_vote()
    t.refuse(1, {"action": "vote.cast", "target": 2}, "invalid_target")


def test_potion_used_and_no_victim():
    t = Table(SIX, captain=False)
    t.until("werewolves")
    t.timeout()
    t.refuse(4, {"action": "witch.save"}, "no_victim")
    t.do(4, "witch.poison", 2)
    t.refuse(4, {"action": "witch.poison", "target": 3}, "potion_used")


def test_already_done():
    t = Table(SIX, captain=False)
    t.until("debate")
    t.do(2, "debate.request_vote")
    t.refuse(2, {"action": "debate.request_vote"}, "already_done")


def test_game_over():
    t = Table(SIX, captain=False)
    t.until("vote")
    t.vote_all({2: 1})
    assert t.game.status == "ended"
    t.refuse(2, {"action": "vote.cast", "target": 3}, "game_over")
    t.refuse(2, {"action": "dance"}, "game_over")
    t.refuse(2, ("dead", "gg"), "game_over", chat=True)


def test_error_messages_say_nothing_secret():
    """The same refusal reads the same whoever asks and whatever the cards are."""
    messages = set()
    for cards in (SIX, "V W seer witch hunter cupid", "V V W seer witch hunter"):
        t = Table(cards)
        t.until("werewolves")
        for seat in range(1, 7):
            try:
                engine.apply(t.game, seat, {"action": "seer.look", "target": 1}, t.now)
            except engine.IllegalAction as refused:
                messages.add((refused.code, refused.message))
    assert messages == {("wrong_step", "this action is not possible in the current step")}


def test_refusal_between_legal_actions_leaves_versions_and_state_alone():
    t = Table(SIX)
    t.do(6, "cupid.pair", targets=[1, 2])
    before = snapshot(t.game)
    for seat in range(0, 8):
        for body in ({"action": "seer.look", "target": seat}, {"action": "witch.save"},
                     {"action": "werewolves.designate", "target": 3}, {"action": "nope"}):
            try:
                engine.apply(t.game, seat, body, T0 + 99)
            except engine.IllegalAction:
                pass
            else:
                raise AssertionError("accepted: only seat 3 looks, and not at herself")
            assert snapshot(t.game) == before
