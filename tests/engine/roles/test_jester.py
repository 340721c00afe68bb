"""The Jester — Bouffon (RULES-VARIANTS A3.9): one test per rule, decision and interaction."""
from rolekit import RoleTable, card_swap_views, night_steps

from werewolf import engine

# seat 1 wolf, 2 Jester, 3-4 villagers, 5 Seer, 6 Witch
CARDS = "W jester V V seer witch"


def test_off_by_default_he_has_no_step():
    assert engine.default_settings()["roles"].get("jester", False) is False
    assert night_steps(RoleTable(CARDS)) == ["seer", "werewolves", "witch"]


def test_voted_out_he_wins_alone_at_once():
    t = RoleTable(CARDS)
    t.to_vote()
    t.vote_all({s: 2 for s in t.game.living()})
    assert t.game.status == "ended" and t.game.winner == {"camp": "jester", "seats": [2]}
    assert t.last("game_end")["winner"]["camp"] == "jester"


def test_he_wins_even_when_the_village_was_about_to_win():
    t = RoleTable("W W jester V V V V seer witch")
    t.to_vote()
    t.vote_all({s: 1 for s in t.game.living()})
    t.until("werewolves")
    t.wolves_kill(4)
    t.do(9, "witch.done")
    t.until("vote")
    t.vote_all({s: 3 for s in t.game.living()})
    assert t.game.winner == {"camp": "jester", "seats": [3]}


def test_the_captains_tie_break_choosing_him_is_a_vote_elimination():
    t = RoleTable(CARDS, captain=True)
    t.until("election")
    for s in t.game.living():
        t.do(s, "election.vote", 3)
    t.until("vote")
    t.vote_all({1: 2, 4: 2, 5: 2, 2: 4, 3: 4})   # 2: three votes; 4: one and the Captain's two
    assert t.step == "tiebreak" and t.game.actor == 3
    t.do(3, "tiebreak.choose", 2)
    assert t.game.winner == {"camp": "jester", "seats": [2]}


def test_as_captain_he_votes_double():
    t = RoleTable(CARDS, captain=True)
    t.until("election")
    for s in t.game.living():
        t.do(s, "election.vote", 2)
    t.until("vote")
    t.vote_all({2: 3, 3: 4, 4: 3, 5: 4, 6: 4, 1: 1})
    assert t.last("vote_result")["tally"]["3"] == 3


def test_another_death_is_an_ordinary_death():
    t = RoleTable("W jester V V hunter witch")
    t.until("werewolves")
    t.wolves_kill(2)
    t.do(6, "witch.done")
    assert not t.alive(2) and t.game.status == "running"
    t.until("vote")
    t.vote_all({s: 5 for s in t.game.living()})
    t.do(5, "hunter.shoot", 3)
    assert t.game.status == "running"


def test_poisoned_or_shot_he_just_dies():
    t = RoleTable("W jester V V hunter witch")
    t.until("werewolves")
    t.wolves_kill(5)
    t.do(6, "witch.poison", 3)
    t.do(6, "witch.done")
    t.until("hunter")
    t.do(5, "hunter.shoot", 2)
    assert not t.alive(2) and t.game.status == "running"


def test_alive_he_blocks_the_village_win():
    t = RoleTable(CARDS)
    t.to_vote()
    t.vote_all({s: 1 for s in t.game.living()})
    assert not t.alive(1) and t.game.status == "running"


def test_alive_he_blocks_the_wolves_win():
    t = RoleTable("W jester V V V V")
    for prey in (3, 4, 5):
        t.until("werewolves")
        t.wolves_kill(prey)
        t.until("vote")
        t.vote_all({})
    t.until("werewolves")
    t.wolves_kill(6)
    assert t.game.living() == [1, 2] and t.game.status == "running"


def test_a_lover_is_always_in_a_mixed_couple_and_voted_out_he_just_dies():
    t = RoleTable("W jester V V cupid witch")
    t.until("cupid")
    t.do(5, "cupid.pair", targets=[2, 3])
    t.until("vote")
    t.vote_all({s: 2 for s in t.game.living()})
    assert not t.alive(2) and not t.alive(3), "his lover dies of grief"
    assert t.game.winner is None or t.game.winner["camp"] != "jester"


def test_seer_sees_the_jester():
    t = RoleTable(CARDS)
    t.until("seer")
    t.do(5, "seer.look", 2)
    assert t.last("seer_look")["role"] == "jester"


# --- A9.2: "Jester at a, Villager at b vs the reverse -> every seat but a and b, until one
# of them dies or is eliminated, the last werewolf dies, the Seer looks at one of them, or the end"
def test_differential_only_he_knows_his_card():
    cards, watchers = "W W V V V V seer witch cupid", [None, 1, 2, 5, 6, 7, 8, 9]
    assert card_swap_views(cards, 3, "jester", watchers) == card_swap_views(cards, 4, "jester", watchers)
