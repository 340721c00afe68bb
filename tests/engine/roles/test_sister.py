"""The Two Sisters — Deux Sœurs (RULES-BOX B3.12): one test per rule and decision.
(The Three Brothers share these rules: tests/engine/roles/test_brother.py.)"""
import pytest
from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1 wolf, 2 villager, 3-4 Sisters, 5 Seer, 6 Witch, 7 Little Girl, 8 Medium
CARDS = "W V sister sister seer witch lg medium"


def family_events(t, seat, kind="sister"):
    return [e for e in t.view(seat)["events"] if e["kind"] == kind]


def live_until(t, step):
    """Steps time out until `step`, a wolf talking each night (a game nobody plays stops)."""
    while t.step != step:
        assert t.game.status == "running"
        if t.step == "werewolves" and t.game.active_night < t.game.night:
            t.say(t.game.living_wolves()[0], "werewolves", "...")
        t.timeout()


def test_two_cards_in_villagers_places_and_the_composition_counts_both():
    game = engine.new_game([f"P{i}" for i in range(1, 9)], {"roles": {"sister": True}}, 3, 0.0)
    assert game.cards.count("sister") == 2 and game.cards.count("werewolf") == 2 and len(game.cards) == 8
    assert engine.view_for(game, None, 0.0)["composition"]["sister"] == 2


def test_off_by_default_and_the_setting_is_a_boolean():
    assert engine.default_settings()["roles"].get("sister", False) is False
    with pytest.raises(engine.IllegalAction) as refused:
        engine.merge_settings(engine.default_settings(), {"roles": {"sister": 2}})
    assert refused.value.code == "invalid_settings"


def test_at_the_deal_each_learns_the_other_and_sees_her_card():
    t = RoleTable(CARDS)
    assert [e["partners"] for e in family_events(t, 3)] == [[4]]
    assert [e["partners"] for e in family_events(t, 4)] == [[3]]
    for me, other in ((3, 4), (4, 3)):
        assert next(p for p in t.view(me)["players"] if p["seat"] == other)["role"] == "sister"


def test_nobody_else_learns_anything():
    t = RoleTable(CARDS)
    for seat in (None, 1, 2, 5, 6, 7, 8):
        view = t.view(seat)
        assert not family_events(t, seat)
        assert all("role" not in p for p in view["players"] if p["seat"] in (3, 4))
        assert "sisters" not in view["channels"]["read"]


def test_with_the_thief_they_are_told_at_the_end_of_his_step_and_the_middle_card_is_left_out():
    t = RoleTable("W V sister thief seer witch V V", middle="sister V")
    assert family_events(t, 3) == [] and t.step == "thief"
    t.do(4, "thief.keep")
    assert [e["partners"] for e in family_events(t, 3)] == [[]]
    assert family_events(t, 4) == []


def test_the_thief_taking_the_other_card_is_told_with_her():
    t = RoleTable("W V sister thief seer witch V V", middle="sister V")
    t.do(4, "thief.take", card=1)
    assert [e["partners"] for e in family_events(t, 3)] == [[4]]
    assert [e["partners"] for e in family_events(t, 4)] == [[3]]


def test_their_step_after_cupid_before_the_seer_30_seconds_on_odd_nights_only():
    t = RoleTable("W V sister sister seer witch cupid V")
    order = []
    while t.step != "dawn":
        order.append(t.step)
        if t.step == "sisters":
            assert t.game.deadline - t.now == 30 and engine.actors(t.game) == [3, 4]
        t.timeout()
    assert order == ["cupid", "sisters", "seer", "werewolves", "witch"]
    steps = engine.registry.STEPS
    assert steps["cupid"].night_order < steps["sisters"].night_order < steps["seer"].night_order
    live_until(t, "werewolves")
    assert t.game.night == 2
    live_until(t, "dawn")
    live_until(t, "werewolves")
    assert t.game.night == 3 and "sisters" in [e["step"] for e in t.events("step") if e.get("night") == 3]
    assert "sisters" not in [e["step"] for e in t.events("step") if e.get("night") == 2]


def test_during_their_step_they_read_and_write_their_channel():
    t = RoleTable(CARDS)
    t.until("sisters")
    assert t.view(3)["channels"]["writable"] == ["sisters"]
    t.say(3, "sisters", "c'est 2 ?")
    t.say(4, "sisters", "je pense")
    for seat in (3, 4):
        assert [m["text"] for m in t.view(seat)["chat"]["sisters"]] == ["c'est 2 ?", "je pense"]


def test_nobody_else_reads_it_not_the_little_girl_the_medium_the_dead_or_spectators():
    t = RoleTable(CARDS)
    t.until("sisters")
    t.say(3, "sisters", "secret des soeurs")
    for seat in (None, 1, 2, 5, 6, 7, 8):
        view = t.view(seat)
        assert "sisters" not in view["chat"] and "sisters" not in view["channels"]["read"]
        assert "secret des soeurs" not in str(view)


def test_anyone_else_writing_in_it_is_refused_channel_closed():
    t = RoleTable(CARDS)
    t.until("sisters")
    for seat in (1, 2, 7, 8):
        t.refuse(seat, ("sisters", "bonjour"), "channel_closed", chat=True)


def test_the_channel_is_unknown_when_the_card_is_off():
    t = RoleTable("W V V V seer witch V V")
    t.refuse(3, ("sisters", "bonjour"), "unknown_channel", chat=True)


def test_outside_their_step_they_only_read_it():
    t = RoleTable(CARDS)
    t.until("sisters")
    t.say(3, "sisters", "vu")
    t.timeout()
    assert t.step == "seer"
    t.refuse(3, ("sisters", "encore"), "channel_closed", chat=True)
    t.until("debate")
    t.refuse(4, ("sisters", "de jour"), "channel_closed", chat=True)
    assert [m["text"] for m in t.view(4)["chat"]["sisters"]] == ["vu"]


def test_the_step_ends_early_when_every_living_member_sent_done():
    t = RoleTable(CARDS)
    t.until("sisters")
    t.do(3, "sisters.done")
    assert t.step == "sisters" and engine.actors(t.game) == [4]
    assert "sisters.done" not in t.actions(3)
    t.refuse(3, {"action": "sisters.done"}, "not_your_turn")
    t.do(4, "sisters.done")
    assert t.step == "seer"


def test_time_out_decides_nothing():
    t = RoleTable(CARDS)
    t.until("sisters")
    before = len(t.game.events)
    t.timeout()
    assert t.step == "seer" and [e["kind"] for e in t.game.events[before:]] == ["step"]


def test_no_more_step_once_a_sister_is_shown_dead_the_dead_one_keeps_the_history():
    t = RoleTable(CARDS)
    t.until("sisters")
    t.say(4, "sisters", "avant")
    t.until("werewolves")
    t.wolves_kill(4)
    t.until("dawn")
    assert not t.alive(4)
    t.until("werewolves")   # night 2: none anyway
    t.wolves_kill(2)
    t.until("dawn")
    t.until("werewolves")
    assert t.game.night == 3
    assert "sisters" not in [e["step"] for e in t.events("step") if e.get("night") == 3]
    assert [m["text"] for m in t.view(4)["chat"]["sisters"]] == ["avant"]
    assert [m["text"] for m in t.view(3)["chat"]["sisters"]] == ["avant"]
    t.refuse(4, ("sisters", "d'outre-tombe"), "channel_closed", chat=True)


def test_both_cards_in_the_middle_a_ghost_step_nobody_acts():
    t = RoleTable("W V V thief seer witch V V", middle="sister sister")
    t.do(4, "thief.keep")
    assert t.step == "sisters" and engine.actors(t.game) == []
    assert t.game.deadline - t.now == 30
    t.timeout()
    assert t.step == "seer"


def test_at_the_end_everybody_reads_it():
    t = RoleTable(CARDS)
    t.until("sisters")
    t.say(3, "sisters", "fin")
    engine.stop(t.game, t.now)
    for seat in (None, 1, 2):
        assert [m["text"] for m in t.view(seat)["chat"]["sisters"]] == ["fin"]
    assert [e["partners"] for e in t.view(1)["events"] if e["kind"] == "sister"] == [[4], [3]]


def test_fixed_night_their_channel_opens_inside_night_on_odd_nights_only():
    t = RoleTable(CARDS, options={"fixed_night": True})
    assert t.step == "night"
    assert t.view(3)["channels"]["writable"] == ["sisters"]
    assert "sisters.done" in t.actions(3)
    t.say(3, "sisters", "nuit fixe")
    t.do(3, "sisters.done")
    t.do(4, "sisters.done")
    assert t.step == "night", "a fixed night never ends early"
    live_until(t, "dawn")
    live_until(t, "night")
    assert t.game.night == 2
    assert t.view(3)["channels"]["writable"] == [] and "sisters.done" not in t.actions(3)
    t.refuse(3, ("sisters", "nuit paire"), "channel_closed", chat=True)


# --- B9.2: "sisters at {a, b} vs at {c, d} (the others Villagers) -> every seat outside
# {a, b, c, d}, until one of them dies or the end"
def play_differential(sisters):
    cards = ["W", "V", "V", "V", "V", "seer", "witch", "V"]
    for seat in sisters:
        cards[seat - 1] = "sister"
    t = RoleTable(" ".join(cards))
    seen, record = recorder(t, (None, 1, 6, 7, 8))
    record()
    while t.game.status == "running" and t.game.day < 2:
        if t.step == "sisters":
            t.say(sisters[0], "sisters", "qui ?")
            record()
            for seat in sisters:
                t.do(seat, "sisters.done")
        else:
            t.timeout()
        record()
    return seen


def test_differential_nobody_else_learns_where_the_sisters_are():
    assert play_differential((2, 3)) == play_differential((4, 5))


def test_powerless_their_step_is_a_ghost_step_and_the_channel_closed():
    from werewolf.engine import powers
    t = RoleTable(CARDS)
    powers.take_powers(t.game, [3, 4])
    t.until("sisters")
    assert engine.actors(t.game) == [] and t.game.deadline - t.now == 30
    t.refuse(3, ("sisters", "chut"), "channel_closed", chat=True)
    assert "sisters" in t.view(3)["channels"]["read"], "they keep what they had"


def test_lovers_sisters_have_both_channels():
    t = RoleTable("W V sister sister seer witch cupid V", options={"lovers_channel": True})
    t.do(7, "cupid.pair", targets=[3, 4])
    assert t.step == "sisters"
    assert set(t.view(3)["channels"]["writable"]) == {"sisters", "lovers"}
