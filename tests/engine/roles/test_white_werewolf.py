"""The White Werewolf — Loup-Garou Blanc (RULES-BOX B3.5): one test per rule and decision, and
B9.2's differential."""
from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1 wolf, 2 White Werewolf, 3 Villager, 4 Seer, 5 Guard, 6 Witch, 7 Villager, 8 wolf
CARDS = "W white V seer guard witch V W"


def night(t, victim):
    t.until("werewolves")
    t.wolves_kill(victim)


def test_he_hunts_with_the_pack_and_the_pack_sees_a_werewolf():
    t = RoleTable(CARDS)
    t.until("werewolves")
    assert engine.actors(t.game) == [1, 2, 8]
    assert t.view(1)["players"][1]["role"] == "werewolf" and t.view(2)["players"][0]["role"] == "werewolf"
    assert t.view(2)["me"]["role"] == "white_werewolf"
    t.say(2, "werewolves", "miam")


def test_his_step_runs_on_even_nights_only_after_the_wolves_before_the_witch():
    t = RoleTable(CARDS)
    steps = []
    while t.game.night < 3:
        if t.step == "werewolves":
            t.wolves_kill(next(s for s in (7, 3, 5) if t.alive(s)))
            continue
        steps.append((t.game.night, t.step))
        t.timeout()
    assert (1, "white_werewolf") not in steps
    night2 = [s for n, s in steps if n == 2]
    assert night2.index("white_werewolf") == night2.index("witch") - 1


def test_his_prey_is_a_living_pack_member_other_than_himself_and_dies_in_the_batch():
    t = RoleTable(CARDS)
    night(t, 7)
    t.until("werewolves")
    t.wolves_kill(3)
    assert t.step == "white_werewolf"
    assert t.actions(2)["white_werewolf.devour"]["choices"] == [1, 8]
    t.refuse(2, {"action": "white_werewolf.devour", "target": 4}, "invalid_target")
    t.refuse(2, {"action": "white_werewolf.devour", "target": 2}, "invalid_target")
    t.do(2, "white_werewolf.devour", 8)
    assert t.last("white_werewolf_devour") == {**t.last("white_werewolf_devour"), "night": 2, "target": 8,
                                                "audience": 2}
    t.until("dawn")
    assert not t.alive(8) and not t.alive(3)
    assert [d["cause"] for d in t.last("deaths")["deaths"]] == ["night", "night"]


def test_done_and_time_out_kill_nobody():
    t = RoleTable(CARDS)
    night(t, 7)
    t.until("white_werewolf")
    t.do(2, "white_werewolf.done")
    assert t.step == "witch"
    t.until("dawn")
    assert t.alive(1) and t.alive(8)


def test_the_guard_does_not_protect_from_him():
    t = RoleTable(CARDS)
    night(t, 7)
    t.until("guard")
    t.do(5, "guard.protect", 8)
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(2, "white_werewolf.devour", 8)
    t.until("dawn")
    assert not t.alive(8)


def test_he_blocks_both_camps_and_wins_alone_as_the_last_one_alive():
    t = RoleTable(CARDS)
    engine.flow.kill(t.game, [1, 8], "vote", t.now)
    assert engine.flow.outcome(t.game) is None   # no village win while he lives
    engine.flow.kill(t.game, [3, 4, 5, 6], "vote", t.now)
    assert engine.flow.outcome(t.game) is None   # nor the wolves' (he is of his own side)
    engine.flow.kill(t.game, [7], "vote", t.now)
    assert engine.flow.outcome(t.game) == {"camp": "white_werewolf", "seats": [2]}


def test_the_seer_sees_his_card():
    t = RoleTable(CARDS)
    t.until("seer")
    t.do(4, "seer.look", 2)
    assert t.view(4)["players"][1]["role"] == "white_werewolf"


def test_fixed_night_plans_him_on_even_nights_only():
    t = RoleTable(CARDS, options={"fixed_night": True})
    steps = []
    while t.game.night < 3:
        steps.append((t.game.night, t.step))
        t.timeout()
    assert (2, "white_werewolf") in steps and (1, "white_werewolf") not in steps


def test_differential_white_werewolf_at_a_werewolf_at_b_vs_the_reverse():
    """B9.2: every seat but a and b (the other pack members included), until night 2's step begins."""
    seen = []
    for a, b in ((2, 8), (8, 2)):
        cards = CARDS.split()
        cards[a - 1], cards[b - 1] = "white", "W"
        t = RoleTable(" ".join(cards))
        log, record = recorder(t, [1, 3, 4, 5, 6, 7, None])
        while not (t.step == "white_werewolf" or t.game.status != "running"):
            record()
            if t.step == "werewolves":
                for wolf in t.game.living_wolves():
                    t.do(wolf, "werewolves.designate", 7 if t.alive(7) else 3)
            else:
                t.timeout()
        seen.append(log)
    assert seen[0] == seen[1]
