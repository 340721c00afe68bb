"""The Possessed — Possédé (RULES-VARIANTS A3.4): one test per rule, decision and interaction."""
from rolekit import RoleTable, card_swap_views

from werewolf import engine

# seat 1 wolf, 2 Possessed, 3-4 villagers, 5 Seer, 6 Witch
CARDS = "W possessed V V seer witch"


def test_off_by_default_he_takes_a_villagers_place():
    assert engine.default_settings()["roles"].get("possessed", False) is False
    game = engine.new_game([f"P{i}" for i in range(8)], {"roles": {"possessed": True}}, 3, 0.0)
    assert game.cards.count("possessed") == 1 and game.cards.count("werewolf") == 2


def test_no_step_no_channel_no_designation_and_the_wolves_do_not_know_him():
    t = RoleTable(CARDS)
    t.until("werewolves")
    assert engine.actors(t.game) == [1]
    view = t.view(2)
    assert view["channels"]["read"] == ["village"] and view["prompt"] is None and "designations" not in view
    assert [p.get("role") for p in view["players"]] == [None, "possessed", None, None, None, None]
    assert "role" not in t.view(1)["players"][1]


def test_the_wolves_may_devour_him():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(6, "witch.done")
    assert not t.alive(2)


def test_the_living_possessed_counts_with_the_wolves():
    t = RoleTable("W possessed V V V V")
    for prey in (3, 4, 5):
        t.until("werewolves")
        t.wolves_kill(prey)
        t.until("vote")
        t.vote_all({})
    t.until("werewolves")
    t.wolves_kill(6)
    assert t.game.winner == {"camp": "werewolves", "seats": [1, 2]}


def test_he_wins_with_the_wolves_even_dead():
    t = RoleTable("W possessed V V V V")
    t.to_vote()
    t.vote_all({s: 2 for s in t.game.living()})
    for prey in (3, 4, 5, 6):
        t.until("werewolves")
        t.wolves_kill(prey)
        if t.game.status == "ended":
            break
        t.until("vote")
        t.vote_all({})
    assert t.game.winner == {"camp": "werewolves", "seats": [1, 2]}


def test_with_no_werewolf_alive_the_village_wins_and_he_loses():
    t = RoleTable(CARDS)
    t.to_vote()
    t.vote_all({s: 1 for s in t.game.living()})
    assert t.game.winner == {"camp": "village", "seats": [3, 4, 5, 6]}


def test_seer_sees_the_possessed():
    t = RoleTable(CARDS)
    t.until("seer")
    t.do(5, "seer.look", 2)
    assert t.last("seer_look")["role"] == "possessed"


def test_lovers_with_a_wolf_not_mixed_with_a_village_card_mixed():
    for pair, mixed in (([1, 2], set()), ([2, 3], {2, 3})):
        t = RoleTable("W possessed V V cupid witch")
        t.until("cupid")
        t.do(5, "cupid.pair", targets=pair)
        found = set()
        for hook in engine.registry.hooks("mixed_couple"):
            found |= hook(t.game)
        assert found == mixed


# --- A9.2: "Possessed at seat a, Villager at b vs the reverse -> every seat but a and b
# (wolves included), until one of them dies, the Seer looks at one of them, or the end"
def test_differential_the_possessed_is_invisible_even_to_the_wolves():
    cards, watchers = "W W V V V V seer witch hunter", [None, 1, 2, 5, 6, 7, 8, 9]
    assert card_swap_views(cards, 3, "possessed", watchers) == card_swap_views(cards, 4, "possessed", watchers)
