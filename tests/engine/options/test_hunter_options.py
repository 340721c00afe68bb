"""Hunter — `poisoned_hunter_silent`, `hunter_vote_shot_first` (RULES-VARIANTS A6.3)."""
from opkit import cast, public
from rolekit import RoleTable

CARDS = "W V seer witch hunter V"     # seat 1 wolf, 3 Seer, 4 Witch, 5 Hunter


def night(t, devour, poison=None):
    t.until("werewolves")
    t.wolves_kill(devour)
    if poison is not None:
        t.do(4, "witch.poison", poison)
    t.do(4, "witch.done")
    assert t.step == "dawn"


def test_a_poisoned_hunter_does_not_shoot_but_his_step_runs_to_its_limit():
    t = RoleTable(CARDS, options={"poisoned_hunter_silent": True})
    night(t, 2, poison=5)
    t.timeout()
    assert t.step == "hunter" and t.game.actor == 5
    assert t.game.deadline - t.now == 45
    assert t.view(5)["prompt"] is None
    t.refuse(5, {"action": "hunter.shoot", "target": 1}, "not_your_turn")
    t.timeout()
    shot = t.last("hunter_shot")
    assert shot["hunter"] == 5 and shot["target"] is None


def test_a_devoured_hunter_still_shoots_with_the_option():
    t = RoleTable(CARDS, options={"poisoned_hunter_silent": True})
    night(t, 5)
    t.timeout()
    t.do(5, "hunter.shoot", 1)
    assert not t.alive(1)


def test_without_the_option_a_poisoned_hunter_shoots():
    t = RoleTable(CARDS)
    night(t, 2, poison=5)
    t.timeout()
    assert "hunter.shoot" in t.actions(5)


def test_differential_poisoned_or_devoured_hunter_look_the_same():
    """A9.2: Witch poisons H, wolves devour X vs wolves devour H, Witch poisons X, H not
    shooting → every seat but the Witch, the wolves and H."""
    def seen(devour, poison):
        t = RoleTable(CARDS, options={"poisoned_hunter_silent": True})
        night(t, devour, poison)
        t.timeout()
        out = [public(t.view(s)) for s in (None, 2, 3, 6)]
        t.timeout()
        return out + [public(t.view(s)) for s in (None, 2, 3, 6)]
    assert seen(devour=2, poison=5) == seen(devour=5, poison=2)


# --- hunter_vote_shot_first -------------------------------------------------------
def debate_with(options, dead, lovers=None):
    """Day 1's debate with these seats dead (set by hand) and these lovers."""
    t = RoleTable(CARDS, options=options)
    t.until("werewolves")
    t.timeout()
    t.until("debate")
    t.game.lovers = lovers
    for seat in dead:
        t.game.player(seat).alive = False
    return t


def last_three(options):
    """Day 1's vote eliminates the Hunter (5), whose lover (2) dies of grief; the wolf (1) lives."""
    t = debate_with(options, dead=(3, 4, 6), lovers=[2, 5])
    t.timeout()
    assert t.step == "vote"
    cast(t, {1: 5, 2: 5})
    return t


def test_base_the_end_check_comes_before_the_shot():
    t = last_three({})
    assert t.game.status == "ended" and t.game.winner["camp"] == "werewolves"


def test_the_hunter_shoots_first_and_a_dead_table_goes_to_the_village():
    t = last_three({"hunter_vote_shot_first": True})
    assert t.game.status == "running" and t.step == "hunter"
    t.do(5, "hunter.shoot", 1)
    assert t.game.status == "ended" and t.game.living() == []
    assert t.game.winner["camp"] == "village"
    assert 5 in t.game.winner["seats"] and 1 not in t.game.winner["seats"]


def test_the_hunter_shoots_first_and_misses_the_check_follows():
    t = last_three({"hunter_vote_shot_first": True})
    t.timeout()
    assert t.game.status == "ended" and t.game.winner["camp"] == "werewolves"


def test_any_other_dead_table_nobody_wins():
    t = debate_with({"hunter_vote_shot_first": True}, dead=(3, 4, 6), lovers=[1, 2])   # the wolf and a villager
    t.timeout()
    cast(t, {1: 5, 2: 5})
    t.do(5, "hunter.shoot", 2)     # seat 2 and his lover, the wolf, die: not the shot at the wolf
    assert t.game.status == "ended" and t.game.winner["camp"] == "none"


def test_at_night_the_base_order_stands():
    t = debate_with({"hunter_vote_shot_first": True}, dead=(2, 3, 4, 6))
    t.timeout()
    t.timeout()                      # nobody votes: night, the wolf kills the Hunter
    t.wolves_kill(5)
    assert t.game.status == "ended" and t.game.winner["camp"] == "werewolves"
