"""RULES.md §3: the night, role by role, in order."""
import pytest
from enginekit import Table

SIX = "W V seer witch hunter cupid"      # 1 wolf, 2 villager, 3 seer, 4 witch, 5 hunter, 6 cupid
EIGHT = "W W V V seer witch hunter cupid"  # wolves 1-2, villagers 3-4, 5 seer, 6 witch, 7 hunter, 8 cupid
TWELVE = "W W W V V V V V seer witch hunter cupid"


def test_night_order():
    t = Table(SIX)
    order = []
    while t.step != "dawn":
        order.append(t.step)
        t.timeout()
    assert order == ["cupid", "seer", "werewolves", "witch"]
    assert t.game.night == 1


def test_cupid_only_on_night_one():
    t = Table(SIX)
    t.until("vote")
    t.vote_all({})
    assert t.game.night == 2
    assert t.step == "seer"


# --- Cupid -----------------------------------------------------------------------
def test_cupid_pairs_two_players_who_learn_each_other_not_the_card():
    t = Table(SIX)
    t.do(6, "cupid.pair", targets=[1, 3])
    assert t.game.lovers == [1, 3]
    assert t.step == "seer", "choosing ends Cupid's step"
    wolf, seer = t.view(1), t.view(3)
    assert wolf["me"]["lover"] == 3 and seer["me"]["lover"] == 1
    assert "role" not in wolf["players"][2], "the lover learns who, not the card"
    assert "role" not in seer["players"][0]
    assert "lover" not in t.view(2)["me"]
    assert "lover" not in t.view(6)["me"], "Cupid is not a lover unless he names himself"
    assert [e["kind"] for e in t.view(2)["events"]].count("lover") == 0


def test_cupid_may_pair_himself():
    t = Table(SIX)
    t.do(6, "cupid.pair", targets=[6, 2])
    assert t.game.lovers == [2, 6]
    assert t.view(6)["me"]["lover"] == 2
    assert t.view(2)["me"]["lover"] == 6


@pytest.mark.parametrize("targets", [[2, 2], [2], [2, 3, 4], [2, 99], [0, 2], [2, True], "2,3", None])
def test_cupid_needs_two_different_living_players(targets):
    t = Table(SIX)
    body = {"action": "cupid.pair"}
    if targets is not None:
        body["targets"] = targets
    t.refuse(6, body, "invalid_target")


def test_cupid_silent_means_no_lovers():
    t = Table(SIX)
    t.timeout()
    assert t.step == "seer"
    assert t.game.lovers is None
    assert all("lover" not in t.view(s)["me"] for s in range(1, 7))
    assert t.events("cupid_silent")[0]["audience"] == "end"


# --- Seer ------------------------------------------------------------------------
def test_seer_sees_one_card_and_the_step_ends():
    t = Table(SIX)
    t.until("seer")
    t.do(3, "seer.look", 1)
    assert t.step == "werewolves"
    view = t.view(3)
    assert view["players"][0]["role"] == "werewolf"
    assert [e for e in view["events"] if e["kind"] == "seer_look"][0]["role"] == "werewolf"
    assert "role" not in t.view(2)["players"][0], "nobody else learns it"


def test_seer_may_not_look_at_herself():
    t = Table(SIX)
    t.until("seer")
    assert 3 not in t.actions(3)["seer.look"]["choices"]
    t.refuse(3, {"action": "seer.look", "target": 3}, "invalid_target")


def test_seer_may_not_look_at_the_dead():
    t = Table(SIX, captain=False)
    t.until("werewolves")
    t.wolves_kill(2)
    t.until("vote")
    t.vote_all({})
    assert t.step == "seer"
    t.refuse(3, {"action": "seer.look", "target": 2}, "invalid_target")


def test_seer_looks_accumulate_over_nights():
    t = Table(EIGHT, captain=False)
    t.until("seer")
    t.do(5, "seer.look", 1)
    t.until("vote")
    t.vote_all({})
    t.do(5, "seer.look", 7)
    roles = {p["seat"]: p.get("role") for p in t.view(5)["players"]}
    assert roles[1] == "werewolf" and roles[7] == "hunter" and roles[5] == "seer"
    assert roles[2] is None


# --- Werewolves ------------------------------------------------------------------
def test_wolves_see_each_other_from_the_first_night():
    t = Table(TWELVE)
    for wolf in (1, 2, 3):
        roles = {p["seat"]: p.get("role") for p in t.view(wolf)["players"]}
        assert [s for s, r in roles.items() if r == "werewolf"] == [1, 2, 3]
        assert sum(r is not None for r in roles.values()) == 3


def test_wolves_designate_change_and_withdraw():
    t = Table(TWELVE)
    t.until("werewolves")
    t.do(1, "werewolves.designate", 4)
    t.do(2, "werewolves.designate", 5)
    t.do(1, "werewolves.designate", 6)
    assert t.view(3)["designations"] == {"1": 6, "2": 5}
    t.do(2, "werewolves.designate", None)
    assert t.view(1)["designations"] == {"1": 6}
    assert t.actions(1)["werewolves.designate"]["current"] == 6
    assert t.actions(2)["werewolves.designate"]["current"] is None
    assert t.step == "werewolves"


def test_wolves_unanimous_end_the_step_at_once():
    t = Table(TWELVE)
    t.until("werewolves")
    t.do(1, "werewolves.designate", 4)
    t.do(2, "werewolves.designate", 4)
    assert t.step == "werewolves"
    t.do(3, "werewolves.designate", 4)
    assert t.step == "witch"
    assert t.game.victim == 4


def test_unanimity_counts_living_wolves_only():
    t = Table(EIGHT, captain=False)
    t.until("vote")
    t.vote_all({s: 2 for s in range(1, 9)})    # wolf 2 is voted out
    assert not t.alive(2)
    t.until("werewolves")
    t.do(1, "werewolves.designate", 3)
    assert t.step == "witch", "the one living wolf is unanimous"


def test_wolves_time_out_plurality():
    t = Table(TWELVE)
    t.until("werewolves")
    t.do(1, "werewolves.designate", 4)
    t.do(2, "werewolves.designate", 4)
    t.do(3, "werewolves.designate", 5)
    t.timeout()
    assert t.game.victim == 4


def test_wolves_time_out_tie_is_drawn_at_random():
    victims = set()
    for seed in range(30):
        t = Table(TWELVE, seed=seed)
        t.until("werewolves")
        t.do(1, "werewolves.designate", 4)
        t.do(2, "werewolves.designate", 5)
        t.timeout()
        assert t.game.victim in (4, 5)
        victims.add(t.game.victim)
    assert victims == {4, 5}


def test_wolves_nobody_designated_nobody_devoured():
    t = Table(TWELVE)
    t.until("werewolves")
    t.do(1, "werewolves.designate", 4)
    t.do(1, "werewolves.designate", None)
    t.timeout()
    assert t.game.victim is None
    assert t.view(10)["events"][-1]["kind"] == "witch_victim"
    assert t.view(10)["events"][-1]["target"] is None, "the Witch learns there is no victim"
    t.do(10, "witch.done")
    assert t.step == "dawn"
    assert t.dead() == []


def test_a_wolf_may_be_designated():
    t = Table(TWELVE)
    t.until("werewolves")
    assert 2 in t.actions(1)["werewolves.designate"]["choices"]
    t.wolves_kill(2)
    t.until("dawn")
    assert t.dead() == [2]


def test_wolves_may_not_designate_the_dead():
    t = Table(TWELVE, captain=False)
    t.until("werewolves")
    t.wolves_kill(4)
    t.until("vote")
    t.vote_all({})
    t.until("werewolves")
    t.refuse(1, {"action": "werewolves.designate", "target": 4}, "invalid_target")


def test_designations_are_reset_each_night():
    t = Table(TWELVE, captain=False)
    t.until("werewolves")
    t.do(1, "werewolves.designate", 4)
    t.timeout()
    t.until("vote")
    t.vote_all({})
    t.until("werewolves")
    assert t.view(1)["designations"] == {}


# --- Witch -----------------------------------------------------------------------
def test_witch_learns_the_victim():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(2)
    assert t.step == "witch"
    assert t.actions(4)["witch.save"] == {"action": "witch.save", "target": 2}
    event = [e for e in t.view(4)["events"] if e["kind"] == "witch_victim"][-1]
    assert event["target"] == 2
    assert all(e["kind"] != "witch_victim" for e in t.view(2)["events"])


def test_witch_saves_the_victim():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(4, "witch.save")
    assert t.step == "witch", "a potion does not end the step"
    t.do(4, "witch.done")
    assert t.step == "dawn"
    assert t.dead() == []
    assert t.view(4)["me"]["potions"] == {"life": False, "death": True}


def test_witch_saves_herself():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(4)
    t.do(4, "witch.save")
    t.do(4, "witch.done")
    assert t.dead() == []


def test_witch_poisons_any_living_player():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(2)
    assert t.actions(4)["witch.poison"]["choices"] == [1, 2, 3, 4, 5, 6]
    t.do(4, "witch.poison", 3)
    assert t.step == "witch"
    t.do(4, "witch.done")
    assert t.dead() == [2, 3]


def test_witch_uses_both_potions_the_same_night():
    t = Table(EIGHT)
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(6, "witch.save")
    t.do(6, "witch.poison", 1)
    assert t.actions(6) == {"witch.done": {"action": "witch.done"}}
    t.do(6, "witch.done")
    assert t.dead() == [1]


def test_witch_may_use_no_potion():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(4, "witch.done")
    assert t.dead() == [2]
    assert t.view(4)["me"]["potions"] == {"life": True, "death": True}


def test_witch_time_out_keeps_the_potions_she_used():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(4, "witch.save")
    t.timeout()
    assert t.step == "dawn"
    assert t.dead() == []


def night_two_with_both_potions_spent() -> Table:
    """The Witch (seat 6) saved and poisoned on night 1; the wolves devour 4 on night 2."""
    t = Table(EIGHT, captain=False)
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(6, "witch.save")
    t.do(6, "witch.poison", 8)
    t.do(6, "witch.done")
    t.until("vote")
    t.vote_all({})
    t.until("werewolves")
    t.wolves_kill(4)
    return t


def test_potions_are_once_per_game():
    t = night_two_with_both_potions_spent()
    assert set(t.actions(6)) == {"witch.done"}
    t.refuse(6, {"action": "witch.save"}, "potion_used")
    t.refuse(6, {"action": "witch.poison", "target": 1}, "potion_used")


def test_witch_step_runs_with_both_potions_spent_until_she_confirms():
    t = night_two_with_both_potions_spent()
    assert t.step == "witch"
    full = t.game.deadline - t.now
    t.tick(30)
    assert not __import__("werewolf").engine.advance(t.game, t.now)
    assert t.step == "witch", "still waiting for her"
    assert full > 30
    t.do(6, "witch.done")
    assert t.step == "dawn"


def test_witch_step_lasts_its_limit_if_she_never_confirms():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(2)
    assert t.game.deadline - t.now == 45
    t.timeout()
    assert t.step == "dawn"


def test_witch_cannot_save_when_there_is_no_victim():
    t = Table(SIX)
    t.until("werewolves")
    t.timeout()
    assert "witch.save" not in t.actions(4)
    t.refuse(4, {"action": "witch.save"}, "no_victim")


def test_witch_cannot_save_twice_nor_poison_twice_the_same_night():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(4, "witch.save")
    t.refuse(4, {"action": "witch.save"}, "potion_used")
    t.do(4, "witch.poison", 1)
    t.refuse(4, {"action": "witch.poison", "target": 3}, "potion_used")


def test_poisoning_the_saved_victim_kills_her():
    t = Table(SIX)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(4, "witch.save")
    t.do(4, "witch.poison", 2)
    t.do(4, "witch.done")
    assert t.dead() == [2]


def test_night_deaths_are_announced_at_dawn_with_cards_not_causes():
    t = Table(EIGHT)
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(6, "witch.poison", 4)
    t.do(6, "witch.done")
    assert t.step == "dawn"
    event = [e for e in t.view(5)["events"] if e["kind"] == "deaths"][-1]
    assert event["deaths"] == [{"seat": 3, "role": "villager", "cause": "night"},
                               {"seat": 4, "role": "villager", "cause": "night"}]
    assert all(p.get("role") == "villager" for p in t.view(5)["players"] if p["seat"] in (3, 4))
    assert not any(e["kind"] in ("night_summary", "night_deaths") for e in t.view(5)["events"])
