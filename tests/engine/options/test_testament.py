"""Testament — `testament` (RULES-VARIANTS A6.4): the Hunter's and the Captain's."""
from enginekit import versions
from opkit import cast, public, table
from rolekit import RoleTable

from werewolf import engine

CARDS = "W V seer witch hunter V"     # seat 1 wolf, 4 Witch, 5 Hunter


def test_the_hunter_sets_changes_and_clears_it_in_any_step_only_he_sees_it():
    t = RoleTable(CARDS, options={"testament": True})
    assert t.step == "seer"
    before = versions(t.game)
    t.do(5, "hunter.testament", 2)
    after = versions(t.game)
    assert [a - b for a, b in zip(after, before)] == [0, 0, 0, 0, 0, 1, 0]
    assert t.view(5)["me"]["testament"] == {"hunter": 2}
    assert "testament" not in t.view(2)["me"]
    assert t.view(5)["prompt"] is None, "never listed in a prompt"
    t.do(5, "hunter.testament", 3)
    assert t.view(5)["me"]["testament"] == {"hunter": 3}
    t.do(5, "hunter.testament", None)
    assert "testament" not in t.view(5)["me"]


def test_only_the_living_hunter_and_never_himself():
    t = RoleTable(CARDS, options={"testament": True})
    t.refuse(2, {"action": "hunter.testament", "target": 3}, "not_your_turn")
    t.refuse(5, {"action": "hunter.testament", "target": 5}, "invalid_target")
    t.refuse(5, {"action": "hunter.testament", "target": 99}, "invalid_target")
    t.refuse(5, {"action": "succession.testament", "target": 2}, "not_your_turn")


def test_off_by_default_the_action_is_refused():
    t = RoleTable(CARDS)
    t.refuse(5, {"action": "hunter.testament", "target": 2}, "not_your_turn")


def hunter_dies(options, testament=None, poison=False):
    t = RoleTable(CARDS, options=options)
    if testament is not None:
        t.do(5, "hunter.testament", testament)
    t.until("werewolves")
    t.wolves_kill(2 if poison else 5)
    if poison:
        t.do(4, "witch.poison", 5)
    t.do(4, "witch.done")
    t.timeout()
    assert t.step == "hunter"
    return t


def test_a_testament_used_at_the_time_out():
    t = hunter_dies({"testament": True}, testament=1)
    assert t.view(5)["me"]["testament"] == {"hunter": 1}
    t.timeout()
    shot = t.last("hunter_shot")
    assert shot["target"] == 1 and shot["testament"] is True and not t.alive(1)


def test_he_may_change_his_mind_in_his_step():
    t = hunter_dies({"testament": True}, testament=1)
    t.do(5, "hunter.shoot", 3)
    assert "testament" not in t.last("hunter_shot") and not t.alive(3) and t.alive(1)


def test_a_testament_naming_the_dead_shoots_nobody():
    t = RoleTable(CARDS, options={"testament": True})
    t.do(5, "hunter.testament", 2)
    t.until("werewolves")
    t.wolves_kill(5)
    t.do(4, "witch.poison", 2)
    t.do(4, "witch.done")
    t.timeout()
    t.timeout()
    assert t.last("hunter_shot")["target"] is None


def test_a_poisoned_silent_hunter_s_testament_is_silent_too():
    t = hunter_dies({"testament": True, "poisoned_hunter_silent": True}, testament=1, poison=True)
    t.timeout()
    assert t.last("hunter_shot")["target"] is None and t.alive(1)


def test_the_captain_s_testament_names_his_successor_at_the_time_out():
    t = table("W V seer witch hunter V", captain=6, testament=True)
    t.do(6, "succession.testament", 3)
    assert t.view(6)["me"]["testament"] == {"succession": 3}
    t.refuse(2, {"action": "succession.testament", "target": 3}, "not_your_turn")
    t.until("vote")
    cast(t, {1: 6, 2: 6, 3: 6})
    assert t.step == "succession" and t.game.actor == 6
    t.timeout()
    event = t.last("succession")
    assert event["captain"] == 3 and event["testament"] is True and t.game.captain == 3


def test_the_captain_without_testament_base_time_out():
    t = table("W V seer witch hunter V", captain=6, testament=True)
    t.until("vote")
    cast(t, {1: 6, 2: 6, 3: 6})
    t.timeout()
    assert t.game.captain is None and "testament" not in t.last("succession")


def test_differential_a_testament_is_secret_until_used():
    """A9.2: the Hunter set a testament vs none → every other seat, until his step times out."""
    def seen(testament):
        t = RoleTable(CARDS, options={"testament": True})
        if testament:
            t.do(5, "hunter.testament", 1)
        else:
            t.tick()
        t.until("werewolves")
        t.wolves_kill(5)
        t.do(4, "witch.done")
        t.timeout()
        return [public(t.view(s)) for s in (None, 1, 2, 3, 4, 6)]
    assert seen(True) == seen(False)


def end_events(t, kind):
    if t.game.status == "running":
        engine.stop(t.game, t.now)
    return [{k: v for k, v in e.items() if k not in ("seq", "at")} for e in t.view(2)["events"] if e["kind"] == kind]


def test_the_end_reveals_every_unused_testament_to_everyone():
    """A9.1: at the end everything is revealed, a testament too (never used: both still alive)."""
    t = table("W V seer witch hunter V", captain=6, testament=True)
    t.do(5, "hunter.testament", 2)
    t.do(5, "hunter.testament", 3)
    t.do(6, "succession.testament", 4)
    assert not [e for s in (None, 1, 2) for e in t.view(s)["events"] if e["kind"] == "testament"]
    assert end_events(t, "testament") == [
        {"kind": "testament", "audience": "end", "seat": 5, "hunter": 3},
        {"kind": "testament", "audience": "end", "seat": 6, "succession": 4}]


def test_a_cleared_testament_is_not_revealed():
    t = RoleTable(CARDS, options={"testament": True})
    t.do(5, "hunter.testament", 2)
    t.do(5, "hunter.testament", None)
    assert end_events(t, "testament") == []


def test_a_used_testament_is_told_once_a_changed_mind_is_revealed():
    used = hunter_dies({"testament": True}, testament=1)
    used.timeout()
    assert used.last("hunter_shot")["testament"] is True
    assert end_events(used, "testament") == []
    changed = hunter_dies({"testament": True}, testament=1)
    changed.do(5, "hunter.shoot", 3)
    assert end_events(changed, "testament") == [{"kind": "testament", "audience": "end", "seat": 5, "hunter": 1}]
