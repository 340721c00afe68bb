"""The Fox — Renard (RULES-BOX B3.7): one test per rule and decision, and B9.2's differential."""
from rolekit import RoleTable, recorder

from werewolf import engine
from werewolf.engine import pack

# seat 1 wolf, 2 Villager, 3 Fox, 4 Seer, 5 Guard, 6 Villager, 7 Villager, 8 Villager
CARDS = "W V fox seer guard V V V"


def to_fox(t):
    t.until("fox")
    assert engine.actors(t.game) == [3]


def test_his_step_comes_after_the_seer_and_before_the_guard():
    t = RoleTable(CARDS)
    order = []
    while t.step != "dawn":
        order.append(t.step)
        if t.step == "fox":
            assert t.game.deadline - t.now == 30
        t.timeout()
    assert order == ["seer", "fox", "guard", "werewolves"]


def test_a_sniff_next_to_a_wolf_keeps_his_flair_and_ends_the_step():
    t = RoleTable(CARDS)
    to_fox(t)
    assert t.view(3)["me"]["flair"] is True
    t.do(3, "fox.sniff", 2)
    sniff = t.last("fox_sniff")
    assert sniff == {**sniff, "night": 1, "target": 2, "group": [1, 2, 3], "wolf": True, "audience": 3}
    assert t.step == "guard" and t.view(3)["me"]["flair"] is True


def test_the_group_wraps_around_the_ring_and_he_may_sniff_himself():
    t = RoleTable(CARDS)
    to_fox(t)
    t.do(3, "fox.sniff", 3)
    assert t.last("fox_sniff")["group"] == [2, 3, 4] and t.last("fox_sniff")["wolf"] is False
    t2 = RoleTable(CARDS)
    to_fox(t2)
    t2.do(3, "fox.sniff", 8)
    assert t2.last("fox_sniff")["group"] == [1, 7, 8] and t2.last("fox_sniff")["wolf"] is True


def test_no_wolf_loses_his_flair_for_good_his_later_steps_are_ghost_steps():
    t = RoleTable(CARDS)
    to_fox(t)
    t.do(3, "fox.sniff", 6)
    assert t.view(3)["me"]["flair"] is False
    t.until("werewolves")
    t.wolves_kill(7)
    t.until("fox")
    assert engine.actors(t.game) == [] and t.view(3)["prompt"] is None
    assert t.game.deadline - t.now == 30
    t.refuse(3, {"action": "fox.sniff", "target": 2}, "not_your_turn")


def test_the_dead_are_skipped_in_the_group():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.wolves_kill(7)
    t.until("fox")
    t.do(3, "fox.sniff", 8)
    assert t.last("fox_sniff")["group"] == [1, 6, 8]


def test_a_joined_pack_member_is_a_wolf_for_him_the_possessed_is_not():
    t = RoleTable("W V fox seer possessed V V V")
    pack.join(t.game, 7, t.now)
    to_fox(t)
    t.do(3, "fox.sniff", 6)   # 5 possessed, 6, 7 joined
    assert t.last("fox_sniff")["wolf"] is True
    t2 = RoleTable("W V fox seer possessed V V V")
    to_fox(t2)
    t2.do(3, "fox.sniff", 5)   # 4, 5 possessed, 6
    assert t2.last("fox_sniff")["wolf"] is False


def test_done_and_time_out_keep_his_flair():
    t = RoleTable(CARDS)
    to_fox(t)
    t.do(3, "fox.done")
    assert t.step == "guard" and t.game.extra["fox"]["flair"] is True and not t.events("fox_sniff")
    t.until("fox")
    t.timeout()
    assert t.game.extra["fox"]["flair"] is True


def test_powerless_his_steps_are_ghost_steps():
    t = RoleTable(CARDS)
    engine.powers.take_powers(t.game, [3])
    t.until("fox")
    assert engine.actors(t.game) == []


def test_flair_is_his_only():
    t = RoleTable(CARDS)
    assert "flair" not in t.view(2)["me"] and "flair" in t.view(3)["me"]


def test_fixed_night_he_sniffs_in_night_and_gets_the_answer_at_once():
    t = RoleTable(CARDS, options={"fixed_night": True})
    t.until("night")
    assert 3 in engine.actors(t.game)
    t.do(3, "fox.sniff", 2)
    assert t.last("fox_sniff")["wolf"] is True and t.step == "night"


def test_differential_two_sniffs_with_the_same_answer():
    """B9.2: the Fox sniffs a vs sniffs b with the same `wolf` -> every seat but his, until the end."""
    seen = []
    for target in (2, 8):
        t = RoleTable(CARDS)
        log, record = recorder(t, [1, 2, 4, 5, 6, 7, 8, None])
        while t.game.day < 3 and t.game.status == "running":
            record()
            if t.step == "fox" and t.game.night == 1:
                t.do(3, "fox.sniff", target)
            elif t.step == "werewolves":
                t.wolves_kill(next(s for s in (7, 6, 5) if t.alive(s)))
            else:
                t.timeout()
        seen.append(log)
    assert seen[0] == seen[1]


def test_differential_no_flair_vs_a_fox_who_lets_every_step_time_out():
    seen = []
    for sniff in (True, False):
        t = RoleTable(CARDS)
        log, record = recorder(t, [1, 2, 4, 5, 6, 7, 8, None])
        while t.game.day < 3 and t.game.status == "running":
            record()
            if t.step == "fox" and t.game.night == 1 and sniff:
                t.tick(t.game.deadline - t.now)   # at the very end of the step: the same clock
                engine.apply(t.game, 3, {"action": "fox.sniff", "target": 6}, t.now)
            elif t.step == "werewolves":
                t.wolves_kill(next(s for s in (7, 5, 8) if t.alive(s)))
            else:
                t.timeout()
        seen.append(log)
    assert seen[0] == seen[1]
