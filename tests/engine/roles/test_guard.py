"""The Guard — Salvateur (RULES-VARIANTS A3.3): one test per rule and decision."""
import json

from rolekit import RoleTable

from werewolf import engine

# seat 1 wolf, 2-3 villagers, 4 Seer, 5 Guard, 6 Witch
CARDS = "W V V seer guard witch"


def to_guard(t):
    t.until("guard")
    assert t.game.actor is None and engine.actors(t.game) == [5]


def test_the_guard_wakes_after_the_seer_and_before_the_wolves():
    t = RoleTable(CARDS)
    order = []
    while t.step not in order and t.step != "dawn":
        order.append(t.step)
        t.timeout()
    assert order == ["seer", "guard", "werewolves", "witch"]
    assert t.last("step")["step"] == "dawn"


def test_his_step_lasts_30_seconds_by_default():
    t = RoleTable(CARDS)
    to_guard(t)
    assert t.game.deadline - t.now == 30


def test_a_protected_player_survives_the_wolves():
    t = RoleTable(CARDS)
    to_guard(t)
    t.do(5, "guard.protect", 2)
    t.do(5, "guard.done")
    t.wolves_kill(2)
    t.do(6, "witch.done")
    assert t.step == "dawn" and t.alive(2)
    assert t.last("deaths")["deaths"] == []


def test_he_may_change_his_mind_and_the_last_choice_stands_at_the_time_out():
    t = RoleTable(CARDS)
    to_guard(t)
    t.do(5, "guard.protect", 2)
    t.do(5, "guard.protect", 3)
    assert t.step == "guard", "protecting does not end the step"
    t.timeout()
    t.wolves_kill(3)
    t.do(6, "witch.done")
    assert t.alive(3)


def test_he_may_withdraw_his_protection():
    t = RoleTable(CARDS)
    to_guard(t)
    t.do(5, "guard.protect", 2)
    t.do(5, "guard.protect", None)
    t.do(5, "guard.done")
    t.wolves_kill(2)
    t.do(6, "witch.done")
    assert not t.alive(2)


def test_no_choice_protects_nobody():
    t = RoleTable(CARDS)
    to_guard(t)
    t.timeout()
    t.wolves_kill(2)
    t.do(6, "witch.done")
    assert not t.alive(2)


def test_he_may_protect_himself():
    t = RoleTable(CARDS)
    to_guard(t)
    assert 5 in t.actions(5)["guard.protect"]["choices"]
    t.do(5, "guard.protect", 5)
    t.do(5, "guard.done")
    t.wolves_kill(5)
    t.do(6, "witch.done")
    assert t.alive(5)


def night_two(t, protected_first):
    to_guard(t)
    if protected_first is not None:
        t.do(5, "guard.protect", protected_first)
    t.do(5, "guard.done")
    t.wolves_kill(3 if protected_first != 3 else 2)
    t.do(6, "witch.done")
    t.until("guard")
    assert t.game.night == 2


def test_never_the_same_player_two_nights_in_a_row():
    t = RoleTable(CARDS)
    night_two(t, 4)
    assert 4 not in t.actions(5)["guard.protect"]["choices"]
    t.refuse(5, {"action": "guard.protect", "target": 4}, "invalid_target")
    t.do(5, "guard.protect", 5)


def test_after_a_night_without_protection_nobody_is_excluded():
    t = RoleTable(CARDS)
    night_two(t, None)
    assert set(t.actions(5)["guard.protect"]["choices"]) == set(t.game.living())


def test_the_night_after_next_he_may_protect_the_same_player_again():
    t = RoleTable(CARDS)
    night_two(t, 4)
    t.do(5, "guard.protect", 5)
    t.do(5, "guard.done")
    t.timeout()   # the wolves choose nobody
    t.do(6, "witch.done")
    t.until("guard")
    assert t.game.night == 3 and 4 in t.actions(5)["guard.protect"]["choices"]


def test_guard_and_witch_she_learns_the_protected_choice_and_may_spend_her_potion():
    t = RoleTable(CARDS)
    to_guard(t)
    t.do(5, "guard.protect", 2)
    t.do(5, "guard.done")
    t.wolves_kill(2)
    assert t.last("witch_victim")["target"] == 2
    assert "witch.save" in t.actions(6)
    t.do(6, "witch.save")
    t.do(6, "witch.done")
    assert t.alive(2)
    assert t.view(6)["me"]["potions"]["life"] is False


def test_the_poison_kills_a_protected_player():
    t = RoleTable(CARDS)
    to_guard(t)
    t.do(5, "guard.protect", 3)
    t.do(5, "guard.done")
    t.wolves_kill(2)
    t.do(6, "witch.poison", 3)
    t.do(6, "witch.done")
    assert not t.alive(3)


def test_a_protected_lover_still_dies_of_grief():
    t = RoleTable("W V V cupid guard witch")
    t.until("cupid")
    t.do(4, "cupid.pair", targets=[2, 3])
    t.until("guard")
    t.do(5, "guard.protect", 3)
    t.do(5, "guard.done")
    t.wolves_kill(2)
    t.do(6, "witch.done")
    assert not t.alive(2) and not t.alive(3)


def test_the_hunters_shot_kills_a_protected_player():
    t = RoleTable("W V V hunter guard witch")
    t.until("guard")
    t.do(5, "guard.protect", 2)
    t.do(5, "guard.done")
    t.wolves_kill(4)
    t.do(6, "witch.done")
    t.until("hunter")
    t.do(4, "hunter.shoot", 2)
    assert not t.alive(2)


def test_only_he_sees_his_protection():
    t = RoleTable(CARDS)
    to_guard(t)
    t.do(5, "guard.protect", 2)
    me = t.view(5)["me"]
    assert me["protecting"] == 2 and me["protected_last"] is None
    assert any(e["kind"] == "guard_protect" for e in t.view(5)["events"])
    for seat in [None, 1, 2, 3, 4, 6]:
        view = t.view(seat)
        assert "guard_protect" not in json.dumps(view) and "protecting" not in json.dumps(view)


def test_his_view_keeps_last_nights_choice():
    t = RoleTable(CARDS)
    night_two(t, 4)
    assert t.view(5)["me"]["protected_last"] == 4 and t.view(5)["me"]["protecting"] is None


def test_a_dead_guards_step_is_skipped():
    t = RoleTable(CARDS)
    to_guard(t)
    t.do(5, "guard.done")
    t.wolves_kill(5)
    t.do(6, "witch.done")
    t.until("seer")
    t.timeout()
    assert t.step == "werewolves"


def test_guard_actions_outside_his_step_are_refused():
    t = RoleTable(CARDS)
    t.refuse(5, {"action": "guard.protect", "target": 2}, "wrong_step")
    to_guard(t)
    t.refuse(4, {"action": "guard.done"}, "not_your_turn")


# --- A9.2: "the Guard protects the wolves' choice V vs the Guard protects someone else
# and the Witch saves V -> every seat but the Guard and the Witch, until the end"
def play_differential(guard_saves: bool):
    t = RoleTable(CARDS, captain=True)
    seen = []

    def record():
        seen.append({seat: (json.dumps(t.view(seat), sort_keys=True), t.game.version_for(seat))
                     for seat in [None, 1, 2, 3, 4]})

    record()
    t.until("guard")
    t.do(5, "guard.protect", 2 if guard_saves else 3)
    record()
    t.do(5, "guard.done")
    t.wolves_kill(2)
    record()
    if not guard_saves:
        t.do(6, "witch.save")
    else:
        t.tick()
    t.do(6, "witch.done")
    record()
    while t.game.status == "running" and t.game.day < 2:
        t.timeout()
        record()
    return seen


def test_differential_the_protection_is_known_to_the_guard_only():
    assert play_differential(True) == play_differential(False)
