"""Seer sees the camp — `seer_camp` (RULES-VARIANTS A6.1)."""
from opkit import public
from rolekit import RoleTable

CARDS = "W V seer witch hunter V"     # seat 1 wolf, 3 Seer, 4 Witch, 5 Hunter


def night_look(t, target):
    t.until("seer")
    t.do(3, "seer.look", target)


def test_a_look_teaches_the_camp_never_the_card():
    t = RoleTable(CARDS, options={"seer_camp": True})
    night_look(t, 1)
    look = t.last("seer_look")
    assert look["camp"] == "wolves" and "role" not in look
    view = t.view(3)
    assert view["players"][0]["camp"] == "wolves" and "role" not in view["players"][0]
    assert "camp" not in t.view(2)["players"][0]


def test_village_card_shows_village():
    t = RoleTable(CARDS, options={"seer_camp": True})
    night_look(t, 5)
    assert t.last("seer_look")["camp"] == "village"


def test_never_twice_the_same_seat():
    t = RoleTable(CARDS, options={"seer_camp": True})
    night_look(t, 2)
    t.until("seer")
    choices = t.actions(3)["seer.look"]["choices"]
    assert 2 not in choices and 3 not in choices and 1 in choices
    t.refuse(3, {"action": "seer.look", "target": 2}, "invalid_target")


def test_without_the_option_she_sees_the_card_and_may_look_again():
    t = RoleTable(CARDS)
    night_look(t, 2)
    assert t.last("seer_look")["role"] == "villager"
    t.until("seer")
    assert 2 in t.actions(3)["seer.look"]["choices"]


def test_differential_hunter_or_villager_look_the_same_to_the_seer():
    """A9.2: Hunter at 5, Villager at 6 vs the reverse; she looks at 5 → her view is the same."""
    def seen(cards):
        t = RoleTable(cards, options={"seer_camp": True})
        night_look(t, 5)
        t.until("dawn")
        return public(t.view(3))
    assert seen("W V seer witch hunter V") == seen("W V seer witch V hunter")


def test_once_every_living_player_is_probed_she_is_offered_nothing():
    t = RoleTable("W V seer V V V", options={"seer_camp": True})
    for target in (1, 2, 4, 5, 6):
        t.until("seer")
        t.do(3, "seer.look", target)
        t.until("vote")
        t.timeout()                      # nobody voted: nobody out
    t.until("seer")
    assert t.actions(3) == {} and t.view(3)["prompt"] is None
    t.refuse(3, {"action": "seer.look", "target": 1}, "invalid_target")
    t.timeout()
    assert t.step == "werewolves"
