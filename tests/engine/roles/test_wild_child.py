"""The Wild Child — Enfant sauvage (RULES-BOX B3.6): one test per rule and decision, and B9.2's
differential."""
from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1 wolf, 2 Wild Child, 3 Villager, 4 Seer, 5 Cupid, 6 Witch, 7 Villager, 8 Villager
CARDS = "W child V seer cupid witch V V"


def test_his_step_is_night_one_after_cupid():
    t = RoleTable(CARDS)
    order = []
    while t.step != "dawn":
        order.append(t.step)
        t.timeout()
    assert order[:3] == ["cupid", "wild_child", "seer"]
    t.until("seer")
    assert "wild_child" not in [t.step]


def test_he_models_any_living_player_but_himself_told_to_him_only():
    t = RoleTable(CARDS)
    t.until("wild_child")
    assert 2 not in t.actions(2)["wild_child.model"]["choices"]
    t.refuse(2, {"action": "wild_child.model", "target": 2}, "invalid_target")
    t.do(2, "wild_child.model", 3)
    assert t.step == "seer" and t.view(2)["me"]["model"] == 3
    assert t.last("wild_child_model") == {**t.last("wild_child_model"), "target": 3, "audience": 2}
    assert "model" not in t.view(3)["me"]


def test_the_model_s_death_turns_him_in_that_batch_he_joins_the_pack():
    t = RoleTable(CARDS)
    t.until("wild_child")
    t.do(2, "wild_child.model", 3)
    t.until("werewolves")
    t.wolves_kill(3)
    t.until("dawn")
    assert t.last("wild_child_turned") == {**t.last("wild_child_turned"), "model": 3, "audience": 2}
    assert t.last("wolves_joined")["seats"] == [1, 2]
    assert t.view(2)["me"]["role"] == "wild_child" and t.view(2)["me"]["pack"] is True
    assert t.view(1)["players"][1]["role"] == "werewolf"
    t.until("werewolves")
    assert engine.actors(t.game) == [1, 2]


def test_voting_his_model_out_turns_him_too():
    t = RoleTable(CARDS)
    t.until("wild_child")
    t.do(2, "wild_child.model", 7)
    t.until("werewolves")
    t.wolves_kill(8)
    t.to_vote()
    t.vote_all({s: 7 for s in t.game.living()})
    assert t.game.in_pack(2)


def test_time_out_no_model_a_villager_for_good():
    t = RoleTable(CARDS)
    t.until("wild_child")
    t.timeout()
    t.until("werewolves")
    t.wolves_kill(3)
    t.until("dawn")
    assert not t.events("wild_child_turned") and "model" not in t.view(2)["me"]


def test_dead_before_his_model_he_stays_a_villager():
    t = RoleTable(CARDS)
    t.until("wild_child")
    t.do(2, "wild_child.model", 3)
    t.until("werewolves")
    t.wolves_kill(2)
    t.until("dawn")
    engine.flow.kill(t.game, [3], "vote", t.now)
    assert not t.game.in_pack(2) and engine.camps.side_of(t.game, 2) == "village"


def test_a_model_who_is_his_lover_kills_him_of_grief_and_he_does_not_turn():
    t = RoleTable(CARDS)
    t.until("cupid")
    t.do(5, "cupid.pair", targets=[2, 3])
    t.until("wild_child")
    t.do(2, "wild_child.model", 3)
    t.until("werewolves")
    t.wolves_kill(3)
    t.until("dawn")
    assert not t.alive(2) and not t.events("wild_child_turned")


def test_turned_he_wins_with_the_wolves():
    t = RoleTable(CARDS)
    t.until("wild_child")
    t.do(2, "wild_child.model", 3)
    t.until("werewolves")
    engine.flow.kill(t.game, [3, 4, 5, 6, 7, 8], "vote", t.now)
    assert engine.flow.outcome(t.game) == {"camp": "werewolves", "seats": [1, 2]}


def test_the_elder_s_revenge_does_not_stop_the_turn():
    t = RoleTable(CARDS)
    t.until("wild_child")
    t.do(2, "wild_child.model", 3)
    engine.powers.take_powers(t.game, [2])
    t.until("werewolves")
    t.wolves_kill(3)
    t.until("dawn")
    assert t.game.in_pack(2)


def test_differential_two_models():
    """B9.2: he models a vs models b -> every seat but his, until a or b dies."""
    seen = []
    for model in (3, 7):
        t = RoleTable(CARDS)
        log, record = recorder(t, [1, 3, 4, 5, 6, 7, 8, None])
        while t.game.day < 3 and t.game.status == "running":
            record()
            if t.step == "wild_child":
                t.do(2, "wild_child.model", model)
            elif t.step == "werewolves":
                t.wolves_kill(next(s for s in (8, 6, 5) if t.alive(s)))
            else:
                t.timeout()
        seen.append(log)
    assert seen[0] == seen[1]
