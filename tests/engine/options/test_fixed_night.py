"""Fixed-length night — `fixed_night` (RULES-VARIANTS A7.1, A8, A9.2): one test per rule."""
import json

import pytest
from rolekit import RoleTable

from werewolf import engine

FIXED = {"fixed_night": True}
# seats: 1-2 wolves, 3 Villager, 4 Seer, 5 Guard, 6 Witch, 7 Cupid, 8 Villager
CARDS = "W W V seer guard witch cupid V"


def table(cards=CARDS, middle="", **kw) -> RoleTable:
    return RoleTable(cards, middle=middle, options=FIXED, **kw)


def durations(t: RoleTable, nights: int = 2) -> list[tuple]:
    """(step, seconds) of every step until the day `nights` ends, everything timing out."""
    out = []
    while t.game.status == "running" and t.game.night <= nights:
        out.append((t.step, t.game.deadline - t.now))
        t.timeout()
    return out


def test_night_1_runs_thief_cupid_night_witch_then_dawn_each_at_its_limit():
    t = table("W W V seer guard witch cupid thief", middle="V V")
    seen = durations(t, nights=2)
    night_1 = seen[:seen.index(("dawn", 8.0)) + 1]
    assert night_1 == [("thief", 45), ("cupid", 45), ("night", 90), ("witch", 45), ("dawn", 8)]
    assert ("night", 90) in seen[len(night_1):] and "cupid" not in [s for s, _ in seen[len(night_1):]]


def test_every_night_role_acts_at_once_during_night():
    t = table()
    t.timeout()   # cupid
    assert t.step == "night"
    assert engine.actors(t.game) == [1, 2, 4, 5]
    assert [a["action"] for a in t.view(4)["prompt"]["actions"]] == ["seer.look"]
    assert [a["action"] for a in t.view(5)["prompt"]["actions"]] == ["guard.protect", "guard.done"]
    assert [a["action"] for a in t.view(1)["prompt"]["actions"]] == ["werewolves.designate"]
    assert t.view(3)["prompt"] is None and t.view(6)["prompt"] is None


def test_no_action_ends_a_step_early_it_only_closes_that_prompt():
    t = table()
    deadline = t.game.deadline
    t.do(7, "cupid.pair", targets=[3, 8])
    assert t.step == "cupid" and t.game.deadline == deadline and t.view(7)["prompt"] is None
    t.refuse(7, {"action": "cupid.pair", "targets": [3, 8]}, "already_done")
    t.timeout()
    deadline, seq = t.game.deadline, t.game.step_seq
    t.do(4, "seer.look", 1)
    assert t.last("seer_look")["role"] == "werewolf", "the Seer's answer comes at once"
    assert t.view(4)["players"][0]["role"] == "werewolf" and t.view(4)["prompt"] is None
    t.do(5, "guard.done")
    t.do(1, "werewolves.designate", 3)
    t.do(2, "werewolves.designate", 3)   # unanimous: no early end
    assert (t.step, t.game.step_seq, t.game.deadline) == ("night", seq, deadline)
    assert not t.events("wolves_victim"), "the victim is settled at the end of night"
    t.do(2, "werewolves.designate", 8)   # still changeable
    assert t.view(1)["designations"] == {"1": 3, "2": 8}
    t.timeout()
    assert t.step == "witch" and t.last("wolves_victim")["target"] in (3, 8)
    t.do(6, "witch.done")
    assert t.step == "witch" and t.view(6)["prompt"] is None
    t.timeout()
    assert t.step == "dawn"


def test_the_guard_and_the_witch_act_on_the_victim_settled_at_the_end_of_night():
    t = table()
    t.timeout()
    t.do(5, "guard.protect", 3)
    t.do(1, "werewolves.designate", 3)
    t.do(2, "werewolves.designate", 3)
    t.timeout()
    assert t.last("witch_victim")["target"] == 3
    t.timeout()
    assert t.last("deaths")["deaths"] == []


def test_time_out_each_role_keeps_its_last_choice():
    t = table()
    t.timeout()
    t.do(5, "guard.protect", 8)
    t.do(1, "werewolves.designate", 8)
    t.timeout()   # the Seer never looked, the Guard never said done
    assert t.last("wolves_victim")["target"] == 8 and t.game.extra["guard"]["protecting"] == 8
    t.timeout()
    assert t.step == "dawn" and t.last("deaths")["deaths"] == []


def test_no_skip_a_dead_witch_s_step_still_runs_its_whole_limit():
    t = table()
    t.game.player(6).alive = False
    t.timeout()
    t.timeout()
    assert t.step == "witch" and t.game.deadline - t.now == 45 and engine.actors(t.game) == []


def test_everyone_sees_the_step_night_never_a_role_s_step():
    t = table()
    t.timeout()
    for seat in [None, *range(1, 9)]:
        assert t.view(seat)["step"]["id"] == "night"


def test_the_wolves_channel_is_open_during_night_and_witch():
    t = table()
    t.timeout()
    t.say(1, "werewolves", "on mange qui ?")
    t.timeout()
    assert t.step == "witch"
    t.say(2, "werewolves", "trop tard")
    assert [m["text"] for m in t.view(1)["chat"]["werewolves"]] == ["on mange qui ?", "trop tard"]
    t.refuse(3, ("werewolves", "x"), "channel_closed", chat=True)


def test_the_lovers_learn_each_other_only_when_cupid_s_step_ends():
    t = table()
    t.do(7, "cupid.pair", targets=[3, 8])
    assert "lover" not in t.view(3)["me"] and not t.events("lover")
    t.timeout()
    assert t.view(3)["me"]["lover"] == 8 and t.view(8)["me"]["lover"] == 3


def test_the_thief_s_card_in_the_middle_is_a_step_of_the_same_length():
    t = table("W W V seer guard witch cupid V", middle="thief V")
    assert t.step == "thief" and t.game.deadline - t.now == 45 and engine.actors(t.game) == []
    t.timeout()
    assert t.step == "cupid"


def test_a_thief_who_takes_a_card_waits_for_the_step_s_end_and_acts_in_the_night():
    t = table("W W V V guard witch cupid thief", middle="seer V")
    deadline = t.game.deadline
    t.do(8, "thief.take", card=1)
    assert t.step == "thief" and t.game.deadline == deadline and t.view(8)["prompt"] is None
    t.timeout()
    t.timeout()
    assert t.step == "night" and 8 in engine.actors(t.game)
    assert [a["action"] for a in t.view(8)["prompt"]["actions"]] == ["seer.look"]


def test_a_thief_who_lets_his_step_time_out_keeps_his_card():
    t = table("W W V V guard witch cupid thief", middle="seer V")
    t.timeout()
    assert t.game.player(8).role == "thief" and t.last("thief_swap")["card"] is None


def test_a_new_role_step_joins_the_night_by_itself(monkeypatch):
    """A role added later (the Owl-Man, the Plague-Bearer...) needs no kernel edit: its
    night step is gathered into `night` by default."""
    from werewolf.engine import registry
    from werewolf.engine.registry import CONFIRM, Action, Step
    calls = []
    owl = Step("owl_test", "night", (20, 30, 60), time_out=lambda game, now: calls.append("timeout"),
               actors=lambda game, living: [3], prompt=lambda game, seat, living: [{"action": "owl_test.done"}],
               actions=(Action("owl_test.done", CONFIRM, lambda game, seat, _, now: calls.append("done")),),
               night_order=50)
    monkeypatch.setitem(registry.STEPS, "owl_test", owl)
    monkeypatch.setitem(registry.ACTIONS, "owl_test.done", owl.actions[0])
    monkeypatch.setitem(registry.ACTION_STEP, "owl_test.done", "owl_test")
    monkeypatch.setitem(registry.ACTION_STEPS, "owl_test.done", ("owl_test",))
    monkeypatch.setattr(registry, "_night", sorted([*registry._night, owl], key=lambda s: s.night_order))
    t = table()
    t.timeout()
    assert 3 in engine.actors(t.game) and [a["action"] for a in t.view(3)["prompt"]["actions"]] == ["owl_test.done"]
    t.do(3, "owl_test.done")
    assert t.step == "night" and calls == ["done"]
    t.timeout()
    assert t.step == "witch" and calls == ["done", "timeout"]


def test_off_by_default_the_night_is_sequential():
    t = RoleTable(CARDS)
    assert t.step == "cupid"
    t.do(7, "cupid.pair", targets=[3, 8])
    assert t.step == "seer"


# --- A9.2: "the night's length depends only on the public composition and the night's
# number"; "every night role acts in its first second vs nobody acts -> the step (id, seq,
# deadline) of every viewer, and every seat without a night role and spectators entirely,
# until the dawn announcement".
@pytest.mark.parametrize("cards,middle", [
    ("W W V seer guard witch cupid thief", "V V"),    # the Thief dealt
    ("W W V seer guard witch cupid V", "thief V"),    # his card in the middle
    ("W W V seer guard witch cupid V", "V thief"),
])
def test_the_night_s_length_depends_only_on_the_composition(cards, middle):
    reference = durations(table("W W V seer guard witch cupid thief", middle="V V"))
    assert durations(table(cards, middle=middle)) == reference
    dead_witch = table(cards, middle=middle)
    dead_witch.game.player(6).alive = False
    assert durations(dead_witch) == reference


def play_differential(act: bool) -> list[dict]:
    t = table("W W V seer guard witch cupid thief", middle="V hunter")
    seen = []

    def record():
        t.now = t.game.deadline - 10   # the same moment in both games (their deadlines must agree)
        seen.append({seat: (t.view(seat)["step"], json.dumps(t.view(seat), sort_keys=True),
                            t.game.version_for(seat)) for seat in [None, *range(1, 9)]})

    record()
    if act:
        t.do(8, "thief.keep")
    record()
    t.timeout()   # thief
    if act:
        t.do(7, "cupid.pair", targets=[1, 4])
    record()
    t.timeout()   # cupid
    record()
    if act:
        t.do(4, "seer.look", 3)
        t.do(5, "guard.protect", 6)
        t.do(5, "guard.done")
        t.do(1, "werewolves.designate", 3)
        t.do(2, "werewolves.designate", 3)
    else:
        t.tick(5)
    record()
    t.now = t.game.deadline - 1
    record()
    return seen


def test_differential_acting_at_once_vs_nobody_acting():
    acted, idle = play_differential(True), play_differential(False)
    for moment, (a, b) in enumerate(zip(acted, idle)):
        for seat in a:
            assert a[seat][0] == b[seat][0], f"moment {moment}: seat {seat} sees another step"
        for seat in (None, 3, 6):   # spectators and the seats without a night role (3: not a lover here)
            assert a[seat] == b[seat], f"moment {moment}: seat {seat}'s view differs"


def test_closing_a_prompt_moves_only_that_player_s_version():
    t = table()
    t.timeout()
    before = [t.game.version_for(s) for s in [None, *range(1, 9)]]
    t.do(5, "guard.done")
    after = [t.game.version_for(s) for s in [None, *range(1, 9)]]
    assert [b != a for b, a in zip(before, after)] == [s == 5 for s in [None, *range(1, 9)]]


def test_a_lone_wolf_father_hunts_in_the_fixed_night_without_a_werewolf_card():
    """RULES-BOX B0.3: the pack's step is any wolf card's; with no Werewolf card dealt, the
    Wolf-Father still designates during `night` (found by the mixed audit)."""
    t = table("father V V seer V V")
    assert "werewolf" not in t.game.cards and t.step == "night"
    assert [a["action"] for a in t.view(1)["prompt"]["actions"]] == ["werewolves.designate"]
    assert "designations" in t.view(1) and "designations" not in t.view(2)
    t.do(1, "werewolves.designate", 2)
    t.timeout()
    assert t.last("wolves_victim")["target"] == 2
