"""The Angel — Ange (RULES-BOX B3.14): one test per rule and decision."""
from rolekit import RoleTable, recorder

from werewolf import engine

# seat 1 wolf, 2 villager, 3 Angel, 4 Seer, 5 Witch, 6 Hunter, 7-8 villagers
CARDS = "W V angel seer witch hunter V V"


def day0_vote(t, ballots):
    assert t.step == "debate" and t.game.day == 0
    t.timeout()
    t.vote_all(ballots)


def test_off_by_default_one_card_in_a_villagers_place():
    assert engine.default_settings()["roles"].get("angel", False) is False
    game = engine.new_game([f"P{i}" for i in range(1, 9)], {"roles": {"angel": True}}, 3, 0.0)
    assert game.cards.count("angel") == 1 and game.cards.count("werewolf") == 2


def test_the_game_opens_with_day_0_debate_then_vote_no_election_then_night_1():
    t = RoleTable(CARDS, captain=True)
    assert t.step == "debate" and t.view(2)["step"]["day"] == 0
    t.timeout()
    assert t.step == "vote" and t.view(2)["step"]["day"] == 0
    t.timeout()
    assert t.step == "seer" and t.game.night == 1
    t.until("dawn")
    t.timeout()
    assert t.step == "election", "the election stays on day 1"


def test_without_the_angel_no_day_0():
    assert RoleTable("W V V seer witch hunter V V").step == "seer"


def test_the_card_in_the_middle_still_opens_day_0():
    t = RoleTable("W V thief seer witch hunter V V", middle="angel V")
    assert t.step == "debate" and t.game.day == 0


def test_voted_out_on_day_0_he_wins_alone_at_once():
    t = RoleTable(CARDS)
    day0_vote(t, {1: 3, 2: 3})
    assert t.game.status == "ended"
    assert t.game.winner == {"camp": "angel", "seats": [3]}
    assert t.step is None


def test_dead_in_night_1_s_batch_he_wins():
    t = RoleTable(CARDS)
    day0_vote(t, {})
    t.until("werewolves")
    t.wolves_kill(3)
    t.until("witch")
    t.timeout()
    assert t.game.status == "ended" and t.game.winner["camp"] == "angel"


def test_shot_by_the_hunter_at_dawn_of_day_1_he_still_wins():
    t = RoleTable(CARDS)
    day0_vote(t, {})
    t.until("werewolves")
    t.wolves_kill(6)
    t.until("hunter")
    t.do(6, "hunter.shoot", 3)
    assert t.game.status == "ended" and t.game.winner == {"camp": "angel", "seats": [3]}


def test_alive_when_day_1_begins_he_is_a_villager_for_good():
    t = RoleTable(CARDS)
    day0_vote(t, {})
    t.until("dawn")
    t.timeout()
    assert t.step == "debate" and t.game.day == 1
    assert engine.camps.side_of(t.game, 3) == "village"
    t.to_vote()
    t.vote_all({1: 3, 2: 3})
    assert not t.alive(3) and t.game.status == "running", "no win any more"


def test_before_day_1_he_blocks_both_camps_then_the_check_runs_when_day_1_begins():
    t = RoleTable(CARDS)
    day0_vote(t, {2: 1, 3: 1})
    assert not t.alive(1) and t.game.status == "running", "a solitary alive: nobody wins yet"
    t.until("dawn")
    t.timeout()
    assert t.game.status == "ended" and t.game.winner["camp"] == "village"
    assert 3 in t.game.winner["seats"]


def test_in_a_mixed_couple_he_plays_for_the_couple():
    t = RoleTable("W V angel seer witch cupid V V")
    day0_vote(t, {})
    t.until("cupid")
    t.do(6, "cupid.pair", targets=[3, 7])
    t.until("werewolves")
    t.wolves_kill(3)
    t.until("dawn")
    assert not t.alive(3) and not t.alive(7)
    assert t.game.status == "running"


def test_the_camp_seer_reads_solitary_before_day_1():
    t = RoleTable(CARDS, options={"seer_camp": True})
    day0_vote(t, {})
    t.until("seer")
    t.do(4, "seer.look", 3)
    assert t.last("seer_look")["camp"] == "solitary"


# --- B9.2: "Angel at a, Villager at b vs the reverse -> every seat but a and b, until one of
# them dies, the Seer looks, or the end"
def play_differential(angel):
    cards = CARDS.split()
    cards[2], cards[angel - 1] = "V", "angel"
    t = RoleTable(" ".join(cards))
    seen, record = recorder(t, (None, 1, 2, 4, 5, 6))
    while t.game.day < 2 and t.game.status == "running":
        record()
        if t.step == "werewolves":
            t.say(1, "werewolves", "...")
            t.timeout()
        elif t.step == "seer":
            t.do(4, "seer.look", 2)
        else:
            t.timeout()
    return seen


def test_differential_nobody_else_learns_who_the_angel_is():
    assert play_differential(7) == play_differential(8)


def test_the_elder_voted_out_on_day_0_the_angel_a_solitary_then_is_untouched():
    t = RoleTable("W V angel elder witch hunter V V")
    day0_vote(t, {1: 4, 2: 4, 5: 4})
    assert not t.alive(4) and t.events("elder_revenge")
    assert t.game.status == "running" and 3 not in t.game.extra.get("powerless", [])


def test_the_raven_has_no_mark_on_day_0():
    t = RoleTable("W V angel raven witch hunter V V")
    day0_vote(t, {})
    assert t.events("raven_accused") == [] and "raven" not in t.last("vote_result")
