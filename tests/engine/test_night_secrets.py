"""The dawn announcement tells who died and their card, never why (RULES.md §8):
nothing in its order, nor in the length of the night's steps."""
from enginekit import Table


def _dawn_deaths(t: Table) -> list[int]:
    public = [e for e in t.view(None)["events"] if e["kind"] == "deaths"][-1]
    return [d["seat"] for d in public["deaths"]]


def test_the_order_of_the_night_deaths_does_not_tell_the_wolves_victim():
    # Seat 6 devoured, seat 2 poisoned: listing the victim first would name the wolves' choice.
    t = Table("W V V seer witch V", captain=False)
    t.until("werewolves")
    t.wolves_kill(6)
    t.do(5, "witch.poison", 2)
    t.do(5, "witch.done")
    assert t.step == "dawn"
    assert _dawn_deaths(t) == [2, 6]
    assert {d["cause"] for d in t.last("deaths")["deaths"]} == {"night"}


def test_the_order_of_the_night_deaths_does_not_tell_the_lovers():
    # Seat 6 devoured, her lover seat 3 dies of grief, seat 2 poisoned: in seat order.
    t = Table("W V V seer witch cupid", captain=False)
    t.do(6, "cupid.pair", targets=[3, 6])
    t.until("werewolves")
    t.wolves_kill(6)
    t.do(5, "witch.poison", 2)
    t.do(5, "witch.done")
    assert _dawn_deaths(t) == [2, 3, 6]


def test_the_witch_step_lasts_until_she_confirms_even_without_potions():
    t = Table("W V V seer witch V", captain=False)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(5, "witch.save")
    t.do(5, "witch.poison", 3)
    assert t.step == "witch"  # using both potions does not end her step
    t.do(5, "witch.done")
    t.until("werewolves")  # night 2: both potions spent
    t.wolves_kill(4)
    assert t.step == "witch"
    started, deadline = t.now, t.game.deadline
    assert t.actions(5).keys() == {"witch.done"}
    t.timeout()  # she does not confirm: the step lasts its whole limit, as with potions left
    assert t.now == deadline and t.step == "dawn"
    assert deadline - started == t.game.settings["limits"]["witch"] * t.game.time_scale
