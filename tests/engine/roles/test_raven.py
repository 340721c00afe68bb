"""The Raven — Corbeau (RULES-BOX B3.10): one test per rule and decision."""
from rolekit import RoleTable, recorder, seen_until_day

from werewolf import engine
from werewolf.engine import powers

# seat 1 wolf, 2-3 villagers, 4 Seer, 5 Raven, 6 Witch, 7-8 villagers
CARDS = "W V V seer raven witch V V"


def mark(t, target):
    t.until("raven")
    t.do(5, "raven.mark", target)


def quiet_night(t):
    """The wolves devour nobody; every other step runs out, until dawn."""
    t.until("werewolves")
    t.say(1, "werewolves", "rien")
    t.timeout()
    t.until("dawn")


def test_off_by_default_one_card_in_a_villagers_place():
    assert engine.default_settings()["roles"].get("raven", False) is False
    game = engine.new_game([f"P{i}" for i in range(1, 9)], {"roles": {"raven": True}}, 3, 0.0)
    assert game.cards.count("raven") == 1 and game.cards.count("werewolf") == 2 and len(game.cards) == 8


def test_his_step_comes_last_every_night_for_30_seconds():
    t = RoleTable(CARDS)
    order = []
    while t.step != "dawn":
        order.append(t.step)
        if t.step == "raven":
            assert t.game.deadline - t.now == 30 and engine.actors(t.game) == [5]
        t.timeout()
    assert order == ["seer", "werewolves", "witch", "raven"]
    night = [s.id for s in engine.registry.night_steps()]
    assert night[-1] == "raven" or night.index("raven") > night.index("witch")


def test_he_may_mark_any_living_player_himself_included_and_it_ends_the_step():
    t = RoleTable(CARDS)
    t.until("raven")
    assert t.actions(5)["raven.mark"]["choices"] == [1, 2, 3, 4, 5, 6, 7, 8]
    t.do(5, "raven.mark", 5)
    assert t.step == "dawn"
    assert t.last("raven_mark")["target"] == 5 and t.last("raven_mark")["audience"] == 5


def test_his_mark_is_his_alone_until_dawn_and_me_mark_holds_it():
    t = RoleTable(CARDS, options={"fixed_night": True})   # (a sequential night: dawn comes at once)
    t.do(5, "raven.mark", 3)
    assert t.step == "night"
    assert t.view(5)["me"]["mark"] == 3
    for seat in (None, 1, 2, 3, 4, 6):
        view = t.view(seat)
        assert not [e for e in view["events"] if e["kind"] in ("raven_mark", "raven_accused")]
        if seat is not None:
            assert "mark" not in view["me"]


def test_done_or_the_time_out_marks_nobody():
    t = RoleTable(CARDS)
    t.until("raven")
    t.do(5, "raven.done")
    assert t.step == "dawn" and t.events("raven_mark") == [] and t.events("raven_accused") == []
    t2 = RoleTable(CARDS)
    t2.until("raven")
    t2.timeout()
    assert t2.events("raven_mark") == [] and t2.events("raven_accused") == []


def test_the_marked_player_is_announced_to_everyone_at_dawn_after_the_deaths_never_the_raven():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.wolves_kill(7)
    mark(t, 3)
    accused = t.last("raven_accused")
    assert accused["audience"] == "all" and accused["target"] == 3 and accused["day"] == 1
    assert set(accused) == {"kind", "audience", "at", "day", "target"}, "never the Raven's seat"
    kinds = [e["kind"] for e in t.game.events]
    assert kinds.index("raven_accused") > kinds.index("deaths")
    assert t.game.step == "dawn"


def test_a_marked_player_dead_by_dawn_is_not_announced_and_has_no_votes():
    t = RoleTable(CARDS)
    t.until("werewolves")
    t.wolves_kill(3)
    mark(t, 3)
    assert not t.alive(3) and t.events("raven_accused") == []


def test_two_votes_against_him_in_that_day_s_vote_shown_in_vote_result():
    t = RoleTable(CARDS)
    mark(t, 3)
    t.to_vote()
    t.vote_all({1: 2, 4: 2})
    result = t.last("vote_result")
    assert result["tally"] == {"2": 2, "3": 2} and result["tied"] == [2, 3]
    assert result["raven"] == {"target": 3, "votes": 2}


def test_they_are_votes_with_no_ballot_cast_he_is_eliminated():
    t = RoleTable(CARDS)
    mark(t, 3)
    t.to_vote()
    t.vote_all({})
    assert t.last("vote_result")["eliminated"] == 3 and not t.alive(3)


def test_they_add_to_the_captain_s_double_vote():
    t = RoleTable(CARDS, captain=True)
    mark(t, 3)
    t.until("election")
    for seat in t.game.living():
        if t.step == "election":
            t.do(seat, "election.vote", 4)
    assert t.game.captain == 4
    t.to_vote()
    t.vote_all({4: 3, 1: 2, 2: 2, 6: 2})
    assert t.last("vote_result")["tally"] == {"2": 3, "3": 4} and t.last("vote_result")["eliminated"] == 3


def test_not_in_a_revote():
    t = RoleTable(CARDS, options={"tie": "revote"})
    mark(t, 3)
    t.to_vote()
    t.vote_all({1: 2, 4: 2})
    assert t.last("vote_result")["tied"] == [2, 3]
    t.until("revote")
    for seat in t.game.living():
        if t.step == "revote":
            t.do(seat, "revote.cast", {1: 2}.get(seat))
    if t.step == "revote":
        t.timeout()
    result = t.last("vote_result")
    assert result["step"] == "revote" and result["tally"] == {"2": 1} and "raven" not in result


def test_only_for_that_day():
    t = RoleTable(CARDS)
    mark(t, 3)
    t.to_vote()
    t.vote_all({1: 2, 4: 2, 6: 2})
    assert t.last("vote_result")["eliminated"] == 2
    t.until("raven")
    t.do(5, "raven.done")
    t.to_vote()
    t.vote_all({1: 4})
    assert t.last("vote_result")["tally"] == {"4": 1} and "raven" not in t.last("vote_result")


def test_the_owl_man_s_nominee_marked_his_two_votes_go_to_the_stake():
    t = RoleTable("W V V seer raven witch owl V")
    t.until("owl")
    t.do(7, "owl.designate", 3)
    t.do(7, "owl.done")
    mark(t, 3)
    t.to_vote()
    t.vote_all({1: 2})
    assert t.step == "stake" and "raven" not in t.last("vote_result")
    for seat in t.game.living():
        if t.step == "stake":
            t.do(seat, "stake.cast", {1: 2, 4: 2}.get(seat))
    if t.step == "stake":
        t.timeout()
    result = t.last("vote_result")
    assert result["step"] == "stake" and result["tally"] == {"2": 2, "3": 2}
    assert result["raven"] == {"target": 3, "votes": 2}


def test_a_marked_jester_eliminated_by_them_wins():
    t = RoleTable("W V V seer raven witch jester V")
    mark(t, 7)
    t.to_vote()
    t.vote_all({})
    assert t.game.status == "ended" and t.game.winner["camp"] == "jester"


def test_powerless_his_steps_are_ghost_steps():
    t = RoleTable(CARDS)
    powers.take_powers(t.game, [5])
    t.until("raven")
    assert engine.actors(t.game) == [] and t.game.deadline - t.now == 30
    t.refuse(5, {"action": "raven.mark", "target": 2}, "not_your_turn")


def test_his_dead_step_is_skipped_and_his_last_mark_still_stands_at_dawn():
    t = RoleTable(CARDS)
    t.until("witch")
    t.do(6, "witch.poison", 5)
    t.do(6, "witch.done")
    assert t.step == "raven", "alive while the night lasts"
    t.do(5, "raven.mark", 2)
    assert not t.alive(5) and t.last("raven_accused")["target"] == 2
    t.until("werewolves")
    t.say(1, "werewolves", "...")
    t.timeout()
    t.until("dawn")
    assert "raven" not in [e["step"] for e in t.events("step") if e.get("night") == 2]


def test_fixed_night_he_marks_inside_night():
    t = RoleTable(CARDS, options={"fixed_night": True})
    assert t.step == "night" and "raven.mark" in t.actions(5)
    t.do(5, "raven.mark", 4)
    assert t.step == "night"
    t.until("dawn")
    assert t.last("raven_accused")["target"] == 4


# --- B9.2 (1): "the Raven marks a vs marks b -> every seat but his, until dawn"
def play_marks(target):
    t = RoleTable(CARDS)
    seen, record = recorder(t, (None, 1, 2, 3, 4, 6, 7, 8))
    while t.step != "dawn":
        record()
        if t.step == "raven":
            t.do(5, "raven.mark", target)
        else:
            t.timeout()
    return seen


def test_differential_nobody_else_learns_his_mark_before_dawn():
    assert play_marks(2) == play_marks(3)


# --- B9.2 (2): "Raven at a, Villager at b vs the reverse, same marks -> every seat but a and b,
# until one of them dies or the end"
def play_seats(raven):
    cards = CARDS.split()
    cards[4], cards[raven - 1] = "V", "raven"
    t = RoleTable(" ".join(cards))
    return seen_until_day(t, (None, 1, 2, 3, 4, 6), 2, {"raven": lambda t: t.do(raven, "raven.mark", 3) if t.alive(3) else t.do(raven, "raven.done")})


def test_differential_nobody_else_learns_who_the_raven_is():
    assert play_seats(7) == play_seats(8)


def test_secret_ballot_the_ballots_show_them_then_the_result():
    t = RoleTable(CARDS, options={"secret_ballot": True})
    mark(t, 3)
    t.to_vote()
    t.vote_all({1: 2})
    assert t.step == "tally"
    assert t.last("ballots")["raven"] == {"target": 3, "votes": 2}
    t.timeout()
    assert t.last("vote_result")["eliminated"] == 3 and t.last("vote_result")["raven"]["votes"] == 2


# --- interactions (B3.10, B3.15)
def test_a_tie_made_by_his_two_votes_kills_the_scapegoat():
    t = RoleTable("W V V seer raven witch goat V")
    mark(t, 3)
    t.to_vote()
    t.vote_all({1: 2, 4: 2})
    result = t.last("vote_result")
    assert result["tied"] == [2, 3] and result["scapegoat"] == 7 and not t.alive(7)


def test_the_marked_idiot_is_pardoned():
    t = RoleTable("W V idiot seer raven witch V V")
    mark(t, 3)
    t.to_vote()
    t.vote_all({})
    assert t.alive(3) and t.last("idiot_pardoned")["seat"] == 3
