"""The Freemasons — Francs-Maçons (RULES-VARIANTS A3.6): one test per rule and decision."""
from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1 wolf, 2 villager, 3-4 Freemasons, 5 Seer, 6 Witch, 7 Cupid, 8 villager
CARDS = "W V mason mason seer witch cupid V"


def partner_events(t, seat):
    return [e for e in t.view(seat)["events"] if e["kind"] == "freemason"]


def test_two_cards_in_the_deck_each_in_a_villagers_place():
    game = engine.new_game([f"P{i}" for i in range(1, 9)], {"roles": {"freemason": True}}, 3, 0.0)
    assert game.cards.count("freemason") == 2 and game.cards.count("werewolf") == 2
    assert engine.view_for(game, None, 0.0)["composition"]["freemason"] == 2
    assert len(game.cards) == 8


def test_at_the_deal_each_learns_the_other_and_sees_his_card():
    t = RoleTable(CARDS)
    assert [e["partner"] for e in partner_events(t, 3)] == [4]
    assert [e["partner"] for e in partner_events(t, 4)] == [3]
    for me, other in ((3, 4), (4, 3)):
        assert next(p for p in t.view(me)["players"] if p["seat"] == other)["role"] == "freemason"


def test_nobody_else_learns_anything():
    t = RoleTable(CARDS)
    for seat in (None, 1, 2, 5, 6, 7, 8):
        view = t.view(seat)
        assert not [e for e in view["events"] if e["kind"] == "freemason"]
        assert all("role" not in p for p in view["players"] if p["seat"] in (3, 4) and p["seat"] != seat)


def test_they_have_no_step_and_no_channel_of_their_own():
    t = RoleTable(CARDS)
    steps = []
    while t.step != "dawn":
        steps.append(t.step)
        assert 3 not in engine.actors(t.game) and t.view(3)["channels"]["writable"] == []
        t.timeout()
    assert set(steps) == {"cupid", "seer", "werewolves", "witch"}
    t.timeout()
    assert t.view(3)["channels"]["writable"] == ["village"]


def test_with_the_thief_they_learn_each_other_at_the_end_of_his_step_whatever_he_did():
    t = RoleTable("W V mason thief seer witch V V", middle="mason V")
    assert partner_events(t, 3) == [] and t.step == "thief"
    t.do(4, "thief.take", card=1)
    assert [e["partner"] for e in partner_events(t, 3)] == [4]
    assert [e["partner"] for e in partner_events(t, 4)] == [3]
    assert next(p for p in t.view(3)["players"] if p["seat"] == 4)["role"] == "freemason"


def test_with_a_day_0_and_the_thief_they_learn_each_other_after_his_step_not_at_the_deal():
    """RULES-BOX B3.14 x A3.6: the Angel's day 0 comes before the Thief's step; telling the
    masons at the deal told one he was alone, then the Thief took the other card (the mixed audit)."""
    t = RoleTable("W V mason thief seer angel V V", middle="mason V")
    assert t.step == "debate" and partner_events(t, 3) == []
    while t.step != "thief":
        t.timeout()
    assert partner_events(t, 3) == []
    t.do(4, "thief.take", card=1)
    assert [e["partner"] for e in partner_events(t, 3)] == [4]
    assert [e["partner"] for e in partner_events(t, 4)] == [3]


def test_the_other_card_in_the_middle_partner_null():
    t = RoleTable("W V mason thief seer witch V V", middle="mason V")
    t.do(4, "thief.keep")
    assert [e["partner"] for e in partner_events(t, 3)] == [None]
    assert partner_events(t, 4) == []


def test_the_thief_keeping_at_the_time_out_still_tells_them():
    t = RoleTable("W V mason mason seer witch thief V", middle="V V")
    t.timeout()
    assert [e["partner"] for e in partner_events(t, 3)] == [4]


def test_lovers_masons_talk_in_lovers_only_through_cupid_and_a_dead_mason_is_ordinary():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.wolves_kill(3)
    t.do(6, "witch.done")
    assert not t.alive(3)
    view = t.view(2)
    assert next(p for p in view["players"] if p["seat"] == 3)["role"] == "freemason"
    assert "role" not in next(p for p in view["players"] if p["seat"] == 4)


# --- A9.2: "masons at {a, b} vs at {c, d} (the others Villagers) -> every seat outside
# {a, b, c, d}, until one of them dies or the end"
def play_differential(masons):
    cards = ["W", "V", "V", "V", "V", "seer", "witch", "V"]
    for seat in masons:
        cards[seat - 1] = "mason"
    t = RoleTable(" ".join(cards))
    seen, record = recorder(t, (None, 1, 6, 7, 8))

    record()
    while t.game.status == "running" and t.game.day < 2:
        t.timeout()
        record()
    return seen


def test_differential_nobody_else_learns_where_the_masons_are():
    assert play_differential((2, 3)) == play_differential((4, 5))
