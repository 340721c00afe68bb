"""The Thief — Voleur (RULES-VARIANTS A3.1): one test per rule and decision."""
import json

import pytest
from rolekit import RoleTable

from werewolf import engine

# seat 1 wolf, 2-4 villagers, 5 Thief, 6 Witch; the middle: a Seer, then a Villager
CARDS = "W V V V thief witch"


def test_the_deck_has_two_more_villagers_and_two_cards_lie_in_the_middle():
    game = engine.new_game([f"P{i}" for i in range(1, 9)], {"roles": {"thief": True}}, 5, 0.0)
    assert len(game.cards) == 10 and len(game.middle()) == 2
    assert sorted([p.role for p in game.players] + game.middle()) == sorted(game.cards)
    assert game.cards.count("villager") == 8 - 2 - 4 - 1 + 2
    assert engine.view_for(game, None, 0.0)["composition"]["middle"] == 2
    assert engine.view_for(game, None, 0.0)["composition"]["thief"] == 1


def test_the_thief_wakes_first_on_night_1_for_45_seconds_then_cupid():
    t = RoleTable("W V V cupid thief witch", middle="V V")
    assert t.step == "thief" and t.game.deadline - t.now == 45
    t.timeout()
    assert t.step == "cupid"


def test_he_alone_is_shown_the_two_middle_cards():
    t = RoleTable(CARDS, middle="seer V")
    assert t.view(5)["prompt"]["actions"][0] == {"action": "thief.take", "choices": [1, 2], "cards": ["seer", "villager"]}
    cards = [e for e in t.view(5)["events"] if e["kind"] == "thief_cards"]
    assert cards and cards[0]["cards"] == ["seer", "villager"]
    for seat in [None, 1, 2, 3, 4, 6]:
        view = t.view(seat)
        assert {e["kind"] for e in view["events"]} == {"game_start", "step"} and view["prompt"] is None


def test_taking_a_card_swaps_it_with_his_own():
    t = RoleTable(CARDS, middle="seer V")
    t.do(5, "thief.take", card=1)
    assert t.game.player(5).role == "seer" and t.game.middle() == ["thief", "villager"]
    assert t.view(5)["me"]["role"] == "seer"
    assert t.last("thief_swap") | {} == {**t.last("thief_swap"), "card": 1, "role": "seer", "audience": 5}


def test_keeping_leaves_him_a_thief_of_the_village():
    t = RoleTable(CARDS, middle="seer V")
    t.do(5, "thief.keep")
    assert t.game.player(5).role == "thief" and t.last("thief_swap")["card"] is None
    assert engine.registry.camp("thief") == "village"


def test_a_card_other_than_1_or_2_is_refused():
    t = RoleTable(CARDS, middle="seer V")
    for card in (0, 3, "1", None, True):
        t.refuse(5, {"action": "thief.take", "card": card}, "invalid_target")


def test_with_two_wolves_in_the_middle_he_must_take_one():
    t = RoleTable("W V V V V V thief seer witch", middle="W W")
    assert [a["action"] for a in t.view(7)["prompt"]["actions"]] == ["thief.take"]
    t.refuse(7, {"action": "thief.keep"}, "must_take_wolf")
    t.do(7, "thief.take", card=2)
    assert t.game.player(7).role == "werewolf"


def test_time_out_he_keeps_his_card():
    t = RoleTable(CARDS, middle="seer V")
    t.timeout()
    assert t.game.player(5).role == "thief"


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_time_out_with_two_wolves_he_takes_one_drawn_at_random(seed):
    t = RoleTable("W V V V V V thief seer witch", middle="W W", seed=seed)
    t.timeout()
    assert t.game.player(7).role == "werewolf" and t.last("thief_swap")["card"] in (1, 2)


def test_ghost_step_when_his_card_lies_in_the_middle():
    t = RoleTable("W V V V seer witch", middle="thief V")
    assert t.step == "thief" and t.game.deadline - t.now == 45
    assert engine.actors(t.game) == [] and all(t.view(s)["prompt"] is None for s in range(1, 7))
    assert not t.events("thief_cards")
    t.timeout()
    assert t.step == "seer"


def test_taking_a_wolf_makes_him_a_wolf_of_the_pack_that_night():
    t = RoleTable("W V V V V V thief seer witch", middle="W V")
    t.do(7, "thief.take", card=1)
    joined = t.last("wolves_joined")
    assert joined["audience"] == "wolves" and joined["seats"] == [1, 7]
    assert t.view(1)["players"][6]["role"] == "werewolf"
    # The pack is not told he was the Thief: no event of his, and no card but werewolf shown.
    assert {e["kind"] for e in t.view(1)["events"]} == {"game_start", "step", "wolves_joined"}
    assert {p.get("role") for p in t.view(1)["players"]} == {None, "werewolf"}
    assert "werewolves" in t.view(7)["channels"]["read"]
    t.until("werewolves")
    assert 7 in engine.actors(t.game)
    t.do(7, "werewolves.designate", 2)
    t.do(1, "werewolves.designate", 2)
    assert t.step == "witch"


def test_taking_cupid_he_is_cupid_right_after():
    t = RoleTable("W V V V thief witch", middle="cupid V")
    t.do(5, "thief.take", card=1)
    assert t.step == "cupid" and engine.actors(t.game) == [5]
    t.do(5, "cupid.pair", targets=[2, 3])
    assert t.game.lovers == [2, 3]


def test_cupid_left_in_the_middle_is_a_ghost_step():
    t = RoleTable("W V V V thief witch", middle="cupid V")
    t.do(5, "thief.keep")
    assert t.step == "cupid" and engine.actors(t.game) == []


def test_taking_the_seer_he_looks_that_night():
    t = RoleTable(CARDS, middle="seer V")
    t.do(5, "thief.take", card=1)
    assert t.step == "seer" and engine.actors(t.game) == [5]
    t.do(5, "seer.look", 1)
    assert t.view(5)["players"][0]["role"] == "werewolf"


def test_taking_the_witch_he_acts_with_full_potions():
    t = RoleTable("W V V V seer thief", middle="witch V")
    t.do(6, "thief.take", card=1)
    t.until("werewolves")
    t.wolves_kill(2)
    assert t.step == "witch" and engine.actors(t.game) == [6]
    assert set(t.actions(6)) == {"witch.save", "witch.poison", "witch.done"}


def test_the_seer_sees_the_card_he_holds_now():
    t = RoleTable("W V V seer thief witch", middle="hunter V")
    t.do(5, "thief.take", card=1)
    t.do(4, "seer.look", 5)
    assert t.last("seer_look")["role"] == "hunter"


def test_the_swap_is_revealed_at_the_end_only():
    t = RoleTable(CARDS, middle="seer V")
    t.do(5, "thief.take", card=1)
    for seat in [None, 1, 2, 3, 4, 6]:
        assert "thief_swap" not in json.dumps(t.view(seat))
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(6, "witch.done")
    t.to_vote()
    t.vote_all({seat: 1 for seat in t.game.living()})
    assert t.game.status == "ended"
    for seat in [None, 1, 2]:
        kinds = {e["kind"] for e in t.view(seat)["events"]}
        assert {"thief_cards", "thief_swap"} <= kinds


def test_at_his_death_the_card_he_holds_is_shown():
    t = RoleTable(CARDS, middle="seer V")
    t.do(5, "thief.take", card=1)
    t.until("werewolves")
    t.wolves_kill(5)
    t.do(6, "witch.done")
    assert t.last("deaths")["deaths"] == [{"seat": 5, "role": "seer", "cause": "night"}]


def test_he_wins_with_the_camp_of_the_card_he_holds():
    t = RoleTable("W V V V V V thief seer witch", middle="W V")
    t.do(7, "thief.take", card=1)
    t.game.players[1].alive = False
    for seat in (3, 4, 5, 6, 8, 9):
        t.game.player(seat).alive = False
    assert engine.flow.outcome(t.game)["camp"] == "werewolves"
    assert 7 in engine.flow.outcome(t.game)["seats"]


# --- A9.2: "seat k holds thief and lets thief time out, middle {c, villager} vs seat k
# holds villager, middle {c, thief} -> every seat but k, until k dies or the end"
def play_differential(thief_held: bool):
    if thief_held:
        t = RoleTable("W V V seer thief witch", middle="hunter V")
    else:
        t = RoleTable("W V V seer V witch", middle="hunter thief")
    seen = []

    def record():
        seen.append({seat: (json.dumps(t.view(seat), sort_keys=True), t.game.version_for(seat))
                     for seat in [None, 1, 2, 3, 4, 6]})

    record()
    t.timeout()   # thief: he keeps, or a ghost step
    record()
    t.do(4, "seer.look", 2)
    record()
    t.wolves_kill(3)
    record()
    t.do(6, "witch.done")
    record()
    while t.game.status == "running" and t.game.day < 2 and t.alive(5):
        t.timeout()
        record()
    return seen


def test_differential_nobody_learns_whether_the_thief_is_dealt():
    assert play_differential(True) == play_differential(False)
