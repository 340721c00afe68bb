"""The Plague-Bearer — Pesteux (RULES-VARIANTS A3.10): one test per rule, decision, time-out
and interaction."""
import json

from rolekit import RoleTable, views_of

from werewolf import engine

# seat 1 wolf, 2 Plague-Bearer, 3-4 villagers, 5 Guard, 6 Witch
CARDS = "W plague V V guard witch"


def contaminated(t):
    return t.game.extra["plague_bearer"]["contaminated"]


def to_plague(t):
    t.until("plague")
    assert engine.actors(t.game) == [2]


def test_his_step_comes_after_the_guard_and_before_the_wolves_and_lasts_30_seconds():
    assert engine.registry.STEPS["plague"].limit == 30
    t = RoleTable(CARDS)
    order = []
    while t.step != "dawn":
        order.append(t.step)
        if t.step == "plague":
            assert t.game.deadline - t.now == 30
        t.timeout()
    assert order == ["guard", "plague", "werewolves", "witch"]
    night = engine.catalog()["night_order"]
    assert night.index("guard") < night.index("plague") < night.index("werewolves")


def test_he_may_not_choose_himself_nor_a_player_he_contaminated():
    t = RoleTable(CARDS)
    to_plague(t)
    assert 2 not in t.actions(2)["plague.infect"]["choices"]
    t.refuse(2, {"action": "plague.infect", "target": 2}, "invalid_target")
    t.do(2, "plague.infect", 3)
    t.until("plague")
    assert 3 not in t.actions(2)["plague.infect"]["choices"]
    t.refuse(2, {"action": "plague.infect", "target": 3}, "invalid_target")
    t.refuse(2, {"action": "plague.infect"}, "invalid_target")   # not nullable


def test_infecting_ends_his_step_and_contaminates_at_the_end_of_the_night():
    t = RoleTable(CARDS)
    to_plague(t)
    t.do(2, "plague.infect", 3)
    assert t.step == "werewolves" and contaminated(t) == []
    t.timeout()
    t.do(6, "witch.done")
    assert t.step == "dawn" and contaminated(t) == [3]
    assert t.last("contaminated")["seats"] == [3] and t.last("contaminated")["audience"] == 2
    assert t.last("plague_infect")["target"] == 3 and t.last("plague_infect")["audience"] == 2


def test_time_out_contaminates_nobody():
    t = RoleTable(CARDS)
    to_plague(t)
    t.timeout()
    t.until("dawn")
    assert contaminated(t) == [] and not t.events("contaminated")


def test_the_dead_are_counted_first_the_wolves_victim_is_not_contaminated():
    t = RoleTable(CARDS)
    to_plague(t)
    t.do(2, "plague.infect", 3)
    t.wolves_kill(3)
    t.do(6, "witch.done")
    assert not t.alive(3) and contaminated(t) == []


def test_a_plague_bearer_killed_in_the_night_contaminates_nobody():
    t = RoleTable(CARDS)
    to_plague(t)
    t.do(2, "plague.infect", 3)
    t.wolves_kill(2)
    t.do(6, "witch.done")
    assert not t.alive(2) and contaminated(t) == []


def test_a_saved_victim_is_contaminated():
    t = RoleTable(CARDS)
    to_plague(t)
    t.do(2, "plague.infect", 3)
    t.wolves_kill(3)
    t.do(6, "witch.save")
    t.do(6, "witch.done")
    assert t.alive(3) and contaminated(t) == [3]


def test_the_guard_does_not_protect_from_the_plague():
    t = RoleTable(CARDS)
    t.until("guard")
    t.do(5, "guard.protect", 3)
    t.do(5, "guard.done")
    t.do(2, "plague.infect", 3)
    t.wolves_kill(3)
    t.do(6, "witch.done")
    assert t.alive(3) and contaminated(t) == [3]


def test_nobody_is_told_not_the_target_not_the_seer():
    t = RoleTable("W plague V V seer witch")
    t.until("seer")
    t.do(5, "seer.look", 3)
    t.do(2, "plague.infect", 3)
    t.timeout()
    t.do(6, "witch.done")
    assert contaminated(t) == [3]
    for seat in [None, 1, 3, 4, 5, 6]:
        text = json.dumps(t.view(seat))
        assert "contaminated" not in text and "plague_infect" not in text
    assert t.view(2)["me"]["contaminated"] == [3]


def test_his_view_lists_the_players_he_contaminated_dead_or_alive():
    t = RoleTable(CARDS)
    to_plague(t)
    t.do(2, "plague.infect", 4)
    t.timeout()
    t.do(6, "witch.done")
    t.until("vote")
    t.vote_all({s: 4 for s in t.game.living()})
    assert not t.alive(4) and t.view(2)["me"]["contaminated"] == [4]


def test_he_wins_alone_when_every_other_living_player_is_contaminated():
    t = RoleTable("W plague V V V V")
    for target in (1, 3, 4, 5):
        to_plague(t)
        t.do(2, "plague.infect", target)
        t.until("vote")
        t.vote_all({})
    to_plague(t)
    t.do(2, "plague.infect", 6)
    t.timeout()
    assert t.step == "dawn" or t.game.status == "ended"
    assert t.game.winner == {"camp": "plague_bearer", "seats": [2]}
    assert t.last("contaminated")["seats"] == [1, 3, 4, 5, 6]


def test_he_blocks_both_camps_while_alive():
    t = RoleTable("W plague V V V V")
    t.to_vote()
    t.vote_all({s: 1 for s in t.game.living()})
    assert not t.alive(1) and t.game.status == "running"


def test_in_a_couple_he_is_in_a_mixed_couple_and_wins_no_solo_win():
    t = RoleTable("W plague V V cupid witch")
    t.until("cupid")
    t.do(5, "cupid.pair", targets=[2, 3])
    state = t.game.extra["plague_bearer"]
    state["contaminated"] = [1, 3, 4, 5, 6]
    assert engine.flow.outcome(t.game) is None
    for seat in (1, 4, 5, 6):
        t.game.player(seat).alive = False
    assert engine.flow.outcome(t.game) == {"camp": "lovers", "seats": [2, 3]}


def test_with_everyone_else_contaminated_but_no_win_he_is_offered_nothing():
    """In a mixed couple he cannot win alone: once every other living player is contaminated
    his step offers nothing (no empty choice) and runs to its time-out."""
    t = RoleTable("W plague V V cupid witch")
    t.until("cupid")
    t.do(5, "cupid.pair", targets=[2, 3])
    t.game.extra["plague_bearer"]["contaminated"] = [1, 3, 4, 5, 6]
    t.until("plague")
    assert t.view(2)["prompt"] is None
    t.refuse(2, {"action": "plague.infect", "target": 1}, "invalid_target")
    t.timeout()
    assert t.step == "werewolves"


def test_a_thief_who_takes_his_card_plays_it_that_night():
    t = RoleTable("W V V V seer witch thief", middle="plague V")
    t.until("thief")
    t.do(7, "thief.take", card=1)
    to_plague_seat = t.game.alive_holder("plague_bearer")
    t.until("plague")
    assert to_plague_seat == 7 and engine.actors(t.game) == [7]


def test_a_ghost_step_when_his_card_lies_in_the_middle():
    t = RoleTable("W V V V seer witch thief", middle="plague V")
    t.until("thief")
    t.timeout()   # keeps
    t.until("plague")
    assert engine.actors(t.game) == [] and t.game.deadline - t.now == 30


def test_seer_sees_the_plague_bearer():
    t = RoleTable("W plague V V seer witch")
    t.until("seer")
    t.do(5, "seer.look", 2)
    assert t.last("seer_look")["role"] == "plague_bearer"


def test_plague_infect_outside_his_step_is_refused():
    t = RoleTable(CARDS)
    t.refuse(2, {"action": "plague.infect", "target": 3}, "wrong_step")
    to_plague(t)
    t.refuse(3, {"action": "plague.infect", "target": 4}, "not_your_turn")


# --- A9.2: "he contaminates a vs he contaminates b (both alive at dawn) -> every seat but
# his, a and b included, until the end"
def play_differential(target: int):
    t = RoleTable("W W plague V V V V seer witch", captain=True)
    seen = []
    for _ in range(40):
        seen.append(views_of(t, [None, 1, 2, 4, 5, 6, 7, 8, 9]))
        if t.game.status != "running" or t.game.day == 3:
            break
        if t.step == "plague" and t.game.night == 1:
            t.do(3, "plague.infect", target)
        else:
            t.timeout()
    return seen


def test_differential_only_he_knows_whom_he_contaminated():
    assert play_differential(4) == play_differential(5)
