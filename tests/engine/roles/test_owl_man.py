"""The Owl-Man — Homme-Hibou (RULES-VARIANTS A3.5) and his stake: one test per rule and decision."""
from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1 wolf, 2-3 villagers, 4 Seer, 5 Owl-Man, 6 Witch, 7 Guard, 8 Cupid
CARDS = "W V V seer owl witch guard cupid"


def nominate(t, target, done=True):
    t.until("owl")
    t.do(5, "owl.designate", target)
    if done:
        t.do(5, "owl.done")


def night_without_deaths(t):
    t.until("werewolves")
    t.timeout()
    t.until("dawn")


def at_the_stake():
    """Day 1 without Captain: seat 3 nominated, seat 1 alone voted seat 2: the stake is held."""
    t = RoleTable(CARDS)
    nominate(t, 3)
    night_without_deaths(t)
    t.to_vote()
    t.vote_all({1: 2})
    assert t.step == "stake"
    return t


def test_he_wakes_after_the_guard_and_before_the_wolves_for_30_seconds():
    t = RoleTable(CARDS)
    order = []
    while t.step != "dawn":
        order.append(t.step)
        if t.step == "owl":
            assert t.game.deadline - t.now == 30 and engine.actors(t.game) == [5]
        t.timeout()
    assert order == ["cupid", "seer", "guard", "owl", "werewolves", "witch"]
    assert engine.registry.STEPS["owl"].night_order < engine.registry.STEPS["werewolves"].night_order


def test_he_may_name_anyone_alive_himself_included_and_change_his_mind():
    t = RoleTable(CARDS)
    t.until("owl")
    assert t.actions(5)["owl.designate"]["choices"] == [1, 2, 3, 4, 5, 6, 7, 8]
    t.do(5, "owl.designate", 5)
    t.do(5, "owl.designate", 2)
    assert t.step == "owl" and t.view(5)["me"]["nominee"] == 2
    t.do(5, "owl.done")
    assert t.step == "werewolves"


def test_the_last_name_stands_at_the_time_out_and_is_announced_at_dawn_to_everyone():
    t = RoleTable(CARDS)
    nominate(t, 3, done=False)
    t.timeout()
    night_without_deaths(t)
    nominee = t.last("owl_nominee")
    assert nominee["target"] == 3 and nominee["day"] == 1 and nominee["audience"] == "all"
    assert set(nominee) == {"kind", "audience", "at", "day", "target"}, "never the Owl-Man's seat"
    kinds = [e["kind"] for e in t.game.events]
    assert kinds.index("owl_nominee") > kinds.index("deaths"), "after the night's deaths"


def test_no_name_no_nomination_and_a_withdrawn_name_is_none():
    t = RoleTable(CARDS)
    nominate(t, 3, done=False)
    t.do(5, "owl.designate", None)
    t.do(5, "owl.done")
    night_without_deaths(t)
    assert t.events("owl_nominee") == []


def test_only_he_sees_his_designation():
    t = RoleTable(CARDS)
    nominate(t, 3, done=False)
    for seat in (None, 1, 2, 3, 4, 6, 7, 8):
        view = t.view(seat)
        assert not [e for e in view["events"] if e["kind"] == "owl_designate"] and "nominee" not in (view["me"] or {})
    assert [e for e in t.view(5)["events"] if e["kind"] == "owl_designate"][0]["target"] == 3


def test_he_cannot_name_his_lover():
    t = RoleTable(CARDS)
    t.do(8, "cupid.pair", targets=[5, 2])
    t.until("owl")
    assert 2 not in t.actions(5)["owl.designate"]["choices"]
    t.refuse(5, {"action": "owl.designate", "target": 2}, "invalid_target")


def test_a_nominee_who_died_in_the_night_is_not_announced():
    t = RoleTable(CARDS)
    nominate(t, 3)
    t.wolves_kill(3)
    t.do(6, "witch.done")
    assert t.events("owl_nominee") == []


def test_the_nomination_stands_if_the_owl_man_died_that_night():
    t = RoleTable(CARDS)
    nominate(t, 3)
    t.wolves_kill(5)
    t.do(6, "witch.done")
    assert not t.alive(5) and t.last("owl_nominee")["target"] == 3


def test_the_vote_elects_the_second_candidate_then_the_stake_eliminates():
    t = RoleTable(CARDS)
    nominate(t, 3)
    night_without_deaths(t)
    t.to_vote()
    assert 3 not in t.actions(1)["vote.cast"]["choices"]
    t.refuse(1, {"action": "vote.cast", "target": 3}, "invalid_target")
    t.vote_all({1: 2, 2: 4, 4: 2})
    result = t.last("vote_result")
    assert result["candidates"] == [2, 3] and result["eliminated"] is None and t.alive(2)
    assert t.step == "stake" and t.game.deadline - t.now == 60
    view = t.view(6)
    assert view["step"]["candidates"] == [2, 3]
    assert t.actions(6)["stake.cast"]["choices"] == [2, 3]
    t.do(2, "stake.cast", 3)
    assert t.view(7)["votes"] == {"2": 3}, "the stake's votes are public"
    for seat in (1, 3, 4, 5, 6, 7):
        t.do(seat, "stake.cast", 2 if seat in (1, 3, 4) else None)
    t.do(8, "stake.cast", 2)
    assert not t.alive(2) and t.last("vote_result")["step"] == "stake"
    assert t.last("deaths")["moment"] == "vote"


def test_several_tied_at_the_vote_are_all_candidates():
    t = RoleTable(CARDS)
    nominate(t, 3)
    night_without_deaths(t)
    t.to_vote()
    t.vote_all({1: 2, 2: 4})
    assert t.step == "stake" and t.view(1)["step"]["candidates"] == [2, 3, 4]


def test_nobody_votes_no_stake_and_nobody_is_eliminated():
    t = RoleTable(CARDS)
    nominate(t, 3)
    night_without_deaths(t)
    t.to_vote()
    t.timeout()
    assert t.step != "stake" and t.game.night == 2 and t.alive(3)


def test_nobody_votes_at_the_stake_nobody_is_eliminated():
    t = at_the_stake()
    t.timeout()
    assert t.alive(2) and t.alive(3) and t.game.night == 2


def test_a_tie_at_the_stake_without_captain_eliminates_nobody():
    t = at_the_stake()
    t.do(1, "stake.cast", 2)
    t.do(4, "stake.cast", 3)
    t.timeout()
    assert t.last("vote_result")["tied"] == [2, 3] and t.alive(2) and t.alive(3) and t.game.night == 2


def test_the_captain_votes_double_at_the_stake_and_breaks_its_tie():
    t = RoleTable(CARDS, captain=True)
    nominate(t, 3)
    night_without_deaths(t)
    t.timeout()
    assert t.step == "election"
    for seat in range(1, 9):
        t.do(seat, "election.vote", 6)
    assert t.game.captain == 6
    t.timeout()
    t.vote_all({1: 2})
    t.do(6, "stake.cast", 2)
    t.do(4, "stake.cast", 3)
    t.timeout()
    assert not t.alive(2), "the Captain's two votes against one"
    t2 = RoleTable(CARDS, captain=True)
    nominate(t2, 3)
    night_without_deaths(t2)
    t2.timeout()
    for seat in range(1, 9):
        t2.do(seat, "election.vote", 6)
    t2.timeout()
    t2.vote_all({1: 2})
    t2.do(6, "stake.cast", 2)
    t2.do(4, "stake.cast", 3)
    t2.do(7, "stake.cast", 3)
    t2.timeout()
    assert t2.step == "tiebreak" and t2.view(1)["step"]["tied"] == [2, 3]
    t2.do(6, "tiebreak.choose", 3)
    assert not t2.alive(3)


def test_a_nominee_killed_before_the_vote_gives_the_plain_vote():
    t = RoleTable("W V V seer owl witch hunter cupid")
    nominate(t, 3)
    t.wolves_kill(7)
    t.do(6, "witch.done")
    assert t.last("owl_nominee")["target"] == 3
    t.until("hunter")
    t.do(7, "hunter.shoot", 3)
    t.to_vote()
    assert 3 not in t.actions(1)["vote.cast"]["choices"]  # dead
    t.vote_all({1: 2, 2: 4, 4: 2})
    assert not t.alive(2) and t.step != "stake"


def test_the_nomination_lasts_one_day():
    t = RoleTable(CARDS)
    nominate(t, 3)
    night_without_deaths(t)
    t.to_vote()
    t.timeout()
    t.until("owl")
    t.timeout()
    night_without_deaths(t)
    t.to_vote()
    assert 3 in t.actions(1)["vote.cast"]["choices"]


def test_bad_input_is_refused():
    t = RoleTable(CARDS)
    t.refuse(5, {"action": "owl.designate", "target": 2}, "wrong_step")
    t.until("owl")
    t.refuse(4, {"action": "owl.designate", "target": 2}, "not_your_turn")
    t.refuse(5, {"action": "owl.designate", "target": 99}, "invalid_target")
    t.refuse(5, {"action": "stake.cast", "target": 2}, "wrong_step")


def test_a_dead_owl_mans_step_is_skipped():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.wolves_kill(5)
    t.do(6, "witch.done")
    t.until("werewolves")
    assert "owl" not in [e["step"] for e in t.events("step") if e.get("night") == 2]


# --- A9.2: "Owl-Man at a, Villager at b vs the reverse, same nominations -> every seat but a
# and b, until one of them dies or the end"
def play_differential(owl_at: int):
    cards = ["W", "V", "V", "seer", "V", "witch", "guard", "cupid"]
    cards[owl_at - 1] = "owl"
    t = RoleTable(" ".join(cards))
    seen, record = recorder(t, [None, 1, 2, 4, 6, 7, 8])

    record()
    t.until("owl")
    t.do(owl_at, "owl.designate", 2)
    record()
    t.do(owl_at, "owl.done")
    record()
    night_without_deaths(t)
    record()
    t.to_vote()
    t.vote_all({1: 4, 2: 4})
    record()
    return seen


def test_differential_nobody_learns_who_the_owl_man_is():
    assert play_differential(3) == play_differential(5)


def test_at_the_stake_only_a_candidate_may_be_chosen():
    t = at_the_stake()
    assert t.step == "stake"
    t.refuse(1, {"action": "stake.cast", "target": 4}, "invalid_target")
    t.refuse(1, {"action": "vote.cast", "target": 2}, "wrong_step")
    t.refuse(1, {"action": "stake.cast", "target": "2"}, "invalid_target")
    t.do(1, "stake.cast", None)
    assert t.view(4)["votes"] == {"1": None}
