"""The Little Girl — Petite Fille (RULES-VARIANTS A3.2): one test per rule and decision."""
import json

from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1-2 wolves, 3 villager, 4 Seer, 5 Little Girl, 6 Witch, 7 Guard, 8 villager
CARDS = "W W V seer lg witch guard V"
SAFE = {"little_girl_risk": 0}
CAUGHT = {"little_girl_risk": 100}


def to_wolves(t):
    t.until("werewolves")


def spying_girl(risk):
    """Night 1, the wolves' step: she has just opened her eyes (caught if the risk is 100)."""
    t = RoleTable(CARDS, options=risk)
    to_wolves(t)
    t.do(5, "little_girl.spy")
    return t


def heard(t, seat=5):
    return [m["text"] for m in t.view(seat)["chat"].get("werewolves", [])]


def test_she_has_no_step_and_is_offered_to_spy_during_the_wolves_step():
    t = RoleTable(CARDS, options=SAFE)
    steps = []
    while t.step != "werewolves":
        steps.append(t.step)
        assert "little_girl.spy" not in t.actions(5)
        t.timeout()
    assert "little_girl" not in steps
    assert list(t.actions(5)) == ["little_girl.spy"]
    assert 5 in engine.actors(t.game)


def test_by_default_her_eyes_are_closed_and_she_hears_nothing():
    t = RoleTable(CARDS, options=SAFE)
    to_wolves(t)
    assert t.view(5)["me"]["spying"] is False
    t.say(1, "werewolves", "on mange le 3")
    assert heard(t) == []


def test_spying_she_reads_the_wolves_messages_without_author():
    t = RoleTable(CARDS, options=SAFE)
    to_wolves(t)
    t.say(1, "werewolves", "avant")
    t.do(5, "little_girl.spy")
    assert t.view(5)["me"]["spying"] is True
    t.say(2, "werewolves", "pendant")
    t.do(5, "little_girl.hide")
    t.say(1, "werewolves", "après")
    view = t.view(5)
    assert heard(t) == ["pendant"]
    line = view["chat"]["werewolves"][0]
    assert "seat" not in line and "name" not in line and set(line) == {"seq", "channel", "text", "at"}
    assert "werewolves" in view["channels"]["read"] and "werewolves" not in view["channels"]["writable"]
    assert "P2" not in json.dumps(view["chat"]["werewolves"])


def test_she_sees_neither_the_designations_nor_the_victim():
    t = spying_girl(SAFE)
    t.do(1, "werewolves.designate", 3)
    view = t.view(5)
    assert "designations" not in view
    assert not [e for e in view["events"] if e["kind"] in ("designation", "wolves_victim")]


def test_what_she_heard_stays_after_the_night_and_her_eyes_close_with_the_step():
    t = spying_girl(SAFE)
    t.say(1, "werewolves", "un")
    t.wolves_kill(3)
    assert t.view(5)["me"]["spying"] is False
    t.say(1, "werewolves", "pendant la sorcière")
    t.until("werewolves")
    assert heard(t) == ["un"]
    assert t.view(5)["me"]["spying"] is False, "each night her eyes start closed"


def test_spying_never_ends_nor_changes_the_step():
    t = RoleTable(CARDS, options=SAFE)
    to_wolves(t)
    deadline, seq = t.game.deadline, t.game.step_seq
    t.do(5, "little_girl.spy")
    t.do(5, "little_girl.hide")
    t.do(5, "little_girl.spy")
    assert (t.step, t.game.deadline, t.game.step_seq) == ("werewolves", deadline, seq)
    t.do(1, "werewolves.designate", 3)
    t.do(2, "werewolves.designate", 3)
    assert t.step == "witch", "the wolves' unanimity ends the step as always, she need not act"


def test_the_draw_is_made_every_night_whether_or_not_she_spies():
    spying, sleeping = RoleTable(CARDS, options=SAFE), RoleTable(CARDS, options=SAFE)
    for t in (spying, sleeping):
        to_wolves(t)
    spying.do(5, "little_girl.spy")
    sleeping.tick()
    assert spying.game.rng == sleeping.game.rng
    without = RoleTable("W W V seer V witch guard V", options=SAFE)
    to_wolves(without)
    assert without.game.rng != spying.game.rng, "her card in the deck draws once a night"


def test_caught_the_wolves_learn_her_seat_and_card_and_she_is_told():
    t = spying_girl(CAUGHT)
    caught = t.last("little_girl_caught")
    assert caught["seat"] == 5 and caught["night"] == 1
    for wolf in (1, 2):
        view = t.view(wolf)
        assert {"kind": "little_girl_caught", "seat": 5} .items() <= [e for e in view["events"]
                                                                     if e["kind"] == "little_girl_caught"][0].items()
        assert next(p for p in view["players"] if p["seat"] == 5)["role"] == "little_girl"
    assert [e for e in t.view(5)["events"] if e["kind"] == "little_girl_caught"]
    for seat in (None, 3, 4, 6, 7, 8):
        view = t.view(seat)
        assert not [e for e in view["events"] if e["kind"].startswith("little_girl")]
        assert "role" not in next(p for p in view["players"] if p["seat"] == 5)


def test_caught_her_eyes_stay_closed_for_the_night_and_she_hears_nothing():
    t = spying_girl(CAUGHT)
    assert t.view(5)["me"]["spying"] is False and t.actions(5) == {}
    t.refuse(5, {"action": "little_girl.spy"}, "not_your_turn")
    t.say(1, "werewolves", "on t'a vue")
    assert heard(t) == []


def test_the_wolves_keep_knowing_her_the_next_nights():
    t = spying_girl(CAUGHT)
    t.wolves_kill(3)
    t.until("werewolves")
    assert next(p for p in t.view(1)["players"] if p["seat"] == 5)["role"] == "little_girl"
    assert list(t.actions(5)) == ["little_girl.spy"], "a new night, a new chance"


def test_caught_the_wolves_may_devour_her():
    t = spying_girl(CAUGHT)
    t.wolves_kill(5)
    t.do(6, "witch.done")
    assert not t.alive(5)


def test_caught_the_wolves_may_spare_her_and_devour_another():
    t = spying_girl(CAUGHT)
    t.wolves_kill(3)
    t.do(6, "witch.done")
    assert t.alive(5) and not t.alive(3)


def test_caught_then_saved_by_the_witch():
    t = spying_girl(CAUGHT)
    t.wolves_kill(5)
    t.do(6, "witch.save")
    t.do(6, "witch.done")
    assert t.alive(5) and t.last("deaths")["deaths"] == []


def test_caught_while_protected_by_the_guard():
    t = RoleTable(CARDS, options=CAUGHT)
    t.until("guard")
    t.do(7, "guard.protect", 5)
    t.do(7, "guard.done")
    t.do(5, "little_girl.spy")
    t.wolves_kill(5)
    t.do(6, "witch.done")
    assert t.alive(5)


def test_risk_0_never_catches_and_the_setting_is_checked():
    t = RoleTable(CARDS, options=SAFE)
    for victim in (8, 3, 4):
        t.until("werewolves")
        t.do(5, "little_girl.spy")
        assert not t.events("little_girl_caught")
        t.wolves_kill(victim)
    for bad in (-1, 101, "20", True, 2.5):
        try:
            engine.merge_settings(engine.default_settings(), {"options": {"little_girl_risk": bad}})
        except engine.IllegalAction as refused:
            assert refused.code == "invalid_settings"
        else:
            raise AssertionError(f"{bad!r} accepted")
    assert engine.default_settings()["options"]["little_girl_risk"] == 20


def test_a_dead_little_girl_spies_no_more_but_keeps_what_she_heard():
    t = spying_girl(SAFE)
    t.say(1, "werewolves", "souvenir")
    t.wolves_kill(5)
    t.do(6, "witch.done")
    t.until("werewolves")
    assert 5 not in engine.actors(t.game)
    t.refuse(5, {"action": "little_girl.spy"}, "not_alive")
    assert heard(t) == ["souvenir"]


def test_her_actions_outside_the_wolves_step_and_by_others_are_refused():
    t = RoleTable(CARDS, options=SAFE)
    t.refuse(5, {"action": "little_girl.spy"}, "wrong_step")
    to_wolves(t)
    t.refuse(3, {"action": "little_girl.spy"}, "not_your_turn")
    t.refuse(5, {"action": "little_girl.hide"}, "already_done")
    t.do(5, "little_girl.spy")
    t.refuse(5, {"action": "little_girl.spy"}, "already_done")
    t.refuse(5, {"action": "werewolves.designate", "target": 3}, "already_done")


def test_at_the_end_the_wolves_channel_is_shown_whole_with_authors():
    t = spying_girl(SAFE)
    t.say(1, "werewolves", "signé")
    engine.stop(t.game, t.now)
    line = t.view(5)["chat"]["werewolves"][0]
    assert line["seat"] == 1 and line["name"] == "P1"
    assert [e["kind"] for e in t.view(3)["events"] if e["kind"].startswith("little_girl")] == ["little_girl_spy"]


# --- A9.2: "she spies on night n and is not caught vs she never opens her eyes -> every seat
# but hers (the wolves included), until the end"
def play_differential(spies: bool):
    t = RoleTable(CARDS, options=SAFE, captain=True)
    seen, record = recorder(t, [None, 1, 2, 3, 4, 6, 7, 8])

    record()
    to_wolves(t)
    if spies:
        t.do(5, "little_girl.spy")
    else:
        t.tick()
    record()
    t.say(1, "werewolves", "chut")
    record()
    if spies:
        t.do(5, "little_girl.hide")
    else:
        t.tick()
    t.wolves_kill(3)
    record()
    while t.game.status == "running" and t.game.day < 2:
        t.timeout()
        record()
    return seen


def test_differential_her_spying_changes_nobody_elses_view_or_version():
    assert play_differential(True) == play_differential(False)


def test_the_thief_may_take_her_card_and_spies_the_same_night():
    t = RoleTable("W V V seer thief witch guard V", middle="lg V", options=SAFE)
    t.do(5, "thief.take", card=1)
    assert t.game.player(5).role == "little_girl"
    t.until("werewolves")
    assert list(t.actions(5)) == ["little_girl.spy"]
    t.do(5, "little_girl.spy")
    t.say(1, "werewolves", "miam")
    assert heard(t, 5) == ["miam"]


def test_in_the_middle_her_card_still_draws_each_night():
    with_card = RoleTable("W V V seer thief witch guard V", middle="lg V", options=SAFE)
    without = RoleTable("W V V seer thief witch guard V", middle="V V", options=SAFE)
    for t in (with_card, without):
        t.do(5, "thief.keep")
        t.until("werewolves")
        assert engine.actors(t.game) == [1]
    assert with_card.game.rng != without.game.rng
