"""The Three Brothers — Trois Frères (RULES-BOX B3.12): one test per rule and decision.
(The family's rules are the Sisters' too: tests/engine/roles/test_sister.py tests them whole.)"""
from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1 wolf, 2 villager, 3-5 Brothers, 6 Seer, 7 Witch, 8 villager; with sisters at 9-10
CARDS = "W V brother brother brother seer witch V"


def test_three_cards_in_villagers_places_and_the_composition_counts_them():
    game = engine.new_game([f"P{i}" for i in range(1, 10)], {"roles": {"brother": True}}, 3, 0.0)
    assert game.cards.count("brother") == 3 and game.cards.count("werewolf") == 2 and len(game.cards) == 9
    assert engine.view_for(game, None, 0.0)["composition"]["brother"] == 3


def test_each_learns_the_two_others_and_sees_their_cards():
    t = RoleTable(CARDS)
    for me, others in ((3, [4, 5]), (4, [3, 5]), (5, [3, 4])):
        assert [e["partners"] for e in t.view(me)["events"] if e["kind"] == "brother"] == [others]
        assert all(p["role"] == "brother" for p in t.view(me)["players"] if p["seat"] in others)
    assert not [e for e in t.view(2)["events"] if e["kind"] == "brother"]


def test_their_step_comes_after_the_sisters_and_ends_when_all_three_sent_done():
    t = RoleTable("W V brother brother brother seer witch sister sister V")
    order = []
    while t.step != "brothers":
        order.append(t.step)
        t.timeout()
    assert order == ["sisters"] and engine.actors(t.game) == [3, 4, 5]
    assert t.game.deadline - t.now == 30
    t.say(5, "brothers", "ensemble")
    t.do(3, "brothers.done")
    t.do(4, "brothers.done")
    assert t.step == "brothers"
    t.do(5, "brothers.done")
    assert t.step == "seer"
    assert [m["text"] for m in t.view(4)["chat"]["brothers"]] == ["ensemble"]
    assert "brothers" not in t.view(8)["channels"]["read"], "a sister does not read the brothers"


def test_a_dead_brother_no_longer_acts_and_the_family_step_stops():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.wolves_kill(5)
    t.until("dawn")
    t.until("werewolves")
    t.wolves_kill(2)
    t.until("dawn")
    t.until("werewolves")
    assert t.game.night == 3
    assert "brothers" not in [e["step"] for e in t.events("step") if e.get("night") == 3]


# --- B9.2: "(same for three brothers)": brothers at {a, b, c} vs at {d, e, f}
def play_differential(brothers):
    cards = ["W", "V", "V", "V", "V", "V", "V", "seer", "witch"]
    for seat in brothers:
        cards[seat - 1] = "brother"
    t = RoleTable(" ".join(cards))
    seen, record = recorder(t, (None, 1, 8, 9))
    record()
    while t.game.status == "running" and t.game.day < 2:
        if t.step == "brothers":
            t.say(brothers[0], "brothers", "qui ?")
            record()
            for seat in brothers:
                t.do(seat, "brothers.done")
        else:
            t.timeout()
        record()
    return seen


def test_differential_nobody_else_learns_where_the_brothers_are():
    assert play_differential((2, 3, 4)) == play_differential((5, 6, 7))
