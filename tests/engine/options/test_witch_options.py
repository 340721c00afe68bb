"""Witch — `witch_one_potion` and `witch_no_self_save` (RULES-VARIANTS A6.2)."""
from opkit import public
from rolekit import RoleTable

CARDS = "W V seer witch hunter V"     # seat 1 wolf, 4 Witch


def to_witch(t, victim):
    t.until("werewolves")
    t.wolves_kill(victim)
    assert t.step == "witch"


def test_one_potion_after_the_save_no_poison_that_night():
    t = RoleTable(CARDS, options={"witch_one_potion": True})
    to_witch(t, 2)
    assert {"witch.save", "witch.poison"} <= set(t.actions(4))
    t.do(4, "witch.save")
    assert "witch.poison" not in t.actions(4)
    t.refuse(4, {"action": "witch.poison", "target": 1}, "one_potion_per_night")
    t.do(4, "witch.done")
    t.until("witch")
    assert "witch.poison" in t.actions(4), "the death potion comes back the next night"


def test_one_potion_after_the_poison_no_save_that_night():
    t = RoleTable(CARDS, options={"witch_one_potion": True})
    to_witch(t, 2)
    t.do(4, "witch.poison", 1)
    assert "witch.save" not in t.actions(4)
    t.refuse(4, {"action": "witch.save"}, "one_potion_per_night")


def test_without_the_option_both_the_same_night():
    t = RoleTable(CARDS)
    to_witch(t, 2)
    t.do(4, "witch.save")
    t.do(4, "witch.poison", 1)
    assert t.game.saved and t.game.poisoned == 1


def test_a_used_potion_is_still_refused_potion_used():
    t = RoleTable(CARDS, options={"witch_one_potion": True})
    to_witch(t, 2)
    t.do(4, "witch.save")
    t.do(4, "witch.done")
    to_witch(t, 3)
    t.refuse(4, {"action": "witch.save"}, "potion_used")


def test_no_self_save_she_learns_she_is_the_choice_but_cannot_save_herself():
    t = RoleTable(CARDS, options={"witch_no_self_save": True})
    to_witch(t, 4)
    assert t.last("witch_victim")["target"] == 4
    assert "witch.save" not in t.actions(4)
    t.refuse(4, {"action": "witch.save"}, "cannot_save_self")
    assert 4 in t.actions(4)["witch.poison"]["choices"], "she may still poison herself"


def test_no_self_save_she_saves_others():
    t = RoleTable(CARDS, options={"witch_no_self_save": True})
    to_witch(t, 2)
    t.do(4, "witch.save")
    assert t.game.saved


def test_without_the_option_she_saves_herself():
    t = RoleTable(CARDS)
    to_witch(t, 4)
    t.do(4, "witch.save")
    assert t.game.saved


def test_differential_the_options_change_nothing_but_her_prompt():
    """A9.2: option on vs off, the same potions used → every seat but the Witch."""
    def seen(options):
        t = RoleTable(CARDS, options=options)
        to_witch(t, 4)
        mid = [public(t.view(s)) for s in (None, 1, 2, 3, 5, 6)]
        t.do(4, "witch.poison", 1)
        t.do(4, "witch.done")
        return mid + [public(t.view(s)) for s in (None, 1, 2, 3, 5, 6)]
    on = seen({"witch_one_potion": True, "witch_no_self_save": True})
    assert on == seen({})
