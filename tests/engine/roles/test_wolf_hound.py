"""The Wolf-Hound — Chien-Loup (RULES-BOX B3.13): one test per rule and decision."""
from rolekit import RoleTable, seen_until_day

from werewolf import engine

# seat 1 wolf, 2 villager, 3 Wolf-Hound, 4 Seer, 5 Witch, 6 Cupid, 7-8 villagers
CARDS = "W V hound seer witch cupid V V"


def test_off_by_default_one_card_in_a_villagers_place():
    assert engine.default_settings()["roles"].get("wolf_hound", False) is False
    game = engine.new_game([f"P{i}" for i in range(1, 9)], {"roles": {"wolf_hound": True}}, 3, 0.0)
    assert game.cards.count("wolf_hound") == 1 and game.cards.count("werewolf") == 2


def test_his_step_night_1_only_after_cupid_before_the_seer_30_seconds():
    t = RoleTable(CARDS)
    order = []
    while t.step != "dawn":
        order.append(t.step)
        if t.step == "wolf_hound":
            assert t.game.deadline - t.now == 30 and engine.actors(t.game) == [3]
            assert set(t.actions(3)) == {"wolf_hound.village", "wolf_hound.wolves"}
        t.timeout()
    assert order == ["cupid", "wolf_hound", "seer", "werewolves", "witch"]
    t.until("werewolves")
    t.say(1, "werewolves", "...")
    t.until("dawn")
    assert "wolf_hound" not in [e["step"] for e in t.events("step") if e.get("night") == 2]


def test_choosing_the_wolves_he_joins_the_pack_at_once_and_hunts_this_very_night():
    t = RoleTable(CARDS)
    t.until("wolf_hound")
    t.do(3, "wolf_hound.wolves")
    assert t.step == "seer"
    assert t.last("wolf_hound_choice") == {**t.last("wolf_hound_choice"), "audience": 3, "side": "wolves"}
    assert t.last("wolves_joined")["seats"] == [1, 3]
    assert t.view(3)["me"]["role"] == "wolf_hound" and t.view(3)["me"]["pack"] is True
    assert next(p for p in t.view(1)["players"] if p["seat"] == 3)["role"] == "werewolf"
    t.until("werewolves")
    assert engine.actors(t.game) == [1, 3]
    t.do(1, "werewolves.designate", 7)
    t.do(3, "werewolves.designate", 7)
    assert t.step != "werewolves", "his designation counts for the unanimity"


def test_choosing_the_village_changes_nothing_but_his_event():
    t = RoleTable(CARDS)
    t.until("wolf_hound")
    t.do(3, "wolf_hound.village")
    assert t.last("wolf_hound_choice")["side"] == "village"
    assert t.events("wolves_joined") == [] and t.game.living_wolves() == [1]
    assert "pack" not in t.view(3)["me"]


def test_the_time_out_is_the_village_and_he_is_told():
    t = RoleTable(CARDS)
    t.until("wolf_hound")
    t.timeout()
    assert t.last("wolf_hound_choice")["side"] == "village" and t.last("wolf_hound_choice")["audience"] == 3


def test_the_choice_is_final():
    t = RoleTable(CARDS, options={"fixed_night": True})
    t.until("wolf_hound")
    t.do(3, "wolf_hound.village")
    assert t.step == "wolf_hound", "a fixed night's own step lasts its limit"
    t.refuse(3, {"action": "wolf_hound.wolves"}, "already_done")


def test_his_choice_is_his_and_the_pack_s_alone():
    t = RoleTable(CARDS)
    t.until("wolf_hound")
    t.do(3, "wolf_hound.wolves")
    for seat in (None, 2, 4, 5, 6, 7):
        view = t.view(seat)
        assert not [e for e in view["events"] if e["kind"] in ("wolf_hound_choice", "wolves_joined")]
        assert all("role" not in p for p in view["players"] if p["seat"] == 3 and seat != 3)


def test_he_wins_with_the_camp_he_chose():
    t = RoleTable("W V hound seer witch V")
    t.until("wolf_hound")
    t.do(3, "wolf_hound.wolves")
    for seat in (2, 4, 5, 6):
        t.game.player(seat).alive = False
    assert engine.flow.outcome(t.game) == {"camp": "werewolves", "seats": [1, 3]}
    t2 = RoleTable("W V hound seer witch V")
    t2.until("wolf_hound")
    t2.do(3, "wolf_hound.village")
    t2.game.player(1).alive = False
    assert engine.flow.outcome(t2.game) == {"camp": "village", "seats": [2, 3, 4, 5, 6]}


def test_the_thief_may_take_the_card_and_chooses_the_same_night():
    t = RoleTable("W V thief seer witch V V V", middle="hound V")
    t.do(3, "thief.take", card=1)
    assert t.step == "wolf_hound" and engine.actors(t.game) == [3]


def test_the_card_in_the_middle_a_ghost_step_nobody_chooses():
    t = RoleTable("W V thief seer witch V V V", middle="hound V")
    t.do(3, "thief.keep")
    assert t.step == "wolf_hound" and engine.actors(t.game) == []
    t.timeout()
    assert t.events("wolf_hound_choice") == []


# --- B9.2: "he chooses the wolves vs the village -> every seat but his and the pack's, until he
# dies or the end"
def play_differential(side):
    t = RoleTable(CARDS)
    return seen_until_day(t, (None, 2, 4, 5, 6, 7, 8), 2, {"wolf_hound": lambda t: t.do(3, f"wolf_hound.{side}")})


def test_differential_nobody_else_learns_his_choice():
    assert play_differential("wolves") == play_differential("village")


def test_powerless_before_night_1_he_still_chooses_his_choice_is_no_power():
    # With the Angel, day 0: the Elder voted out takes the village's powers (B6.1) before night 1.
    t = RoleTable("W V hound elder angel seer witch V")
    assert t.step == "debate" and t.game.day == 0
    t.timeout()
    t.vote_all({1: 4, 2: 4, 6: 4})
    assert not t.alive(4) and t.events("elder_revenge")
    t.until("wolf_hound")
    assert engine.actors(t.game) == [3]
    t.do(3, "wolf_hound.wolves")
    assert 3 in t.game.living_wolves()
