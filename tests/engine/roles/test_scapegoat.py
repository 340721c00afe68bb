"""The Scapegoat — Bouc émissaire (RULES-BOX B3.3): one test per rule and decision, and B9.2's
differential."""
from rolekit import RoleTable, swapped_card_sees_alike

from werewolf import engine

# seat 1 wolf, 2 Scapegoat, 3 Villager, 4 Seer, 5 Hunter, 6 Witch, 7 Villager, 8 Villager
CARDS = "W goat V seer hunter witch V V"


def quiet_night(t, victim=8):
    t.until("werewolves")
    t.wolves_kill(victim)
    t.until("dawn")


def tie(t, a=3, b=7):
    """As many voters on a as on b (one abstains if they are odd)."""
    t.to_vote()
    voters = engine.actors(t.game)
    even = len(voters) - len(voters) % 2
    for i, voter in enumerate(voters):
        if t.step == "vote":
            t.do(voter, "vote.cast", None if i >= even else a if i % 2 == 0 else b)


def test_a_tie_eliminates_him_instead_and_vote_result_names_him():
    t = RoleTable(CARDS, captain=False)
    quiet_night(t)
    tie(t)
    result = t.last("vote_result")
    assert result["tied"] == [3, 7] and result["scapegoat"] == 2 and result["eliminated"] is None
    assert not t.alive(2) and t.alive(3) and t.alive(7)
    assert t.last("deaths")["deaths"] == [{"seat": 2, "role": "scapegoat", "cause": "vote"}]


def test_he_comes_before_the_captain_s_tiebreak():
    t = RoleTable(CARDS, captain=True)
    quiet_night(t)
    t.until("election")
    for s in t.game.living():
        t.do(s, "election.vote", 3)
    t.timeout()
    # the Captain (3) votes 7 (x2), 4 and 5 vote 3, 1 abstains... 3: 2, 7: 2
    ballots = {3: 7, 4: 3, 5: 3}
    for voter in engine.actors(t.game):
        if t.step == "vote":
            t.do(voter, "vote.cast", ballots.get(voter))
    assert t.last("vote_result")["tied"] and not t.alive(2) and not t.events("tiebreak")


def test_he_comes_before_the_tie_option():
    t = RoleTable(CARDS, captain=False, options={"tie": "revote"})
    quiet_night(t)
    tie(t)
    assert not t.alive(2) and t.step == "scapegoat"


def test_dead_he_names_the_next_day_s_voters_only_they_vote():
    t = RoleTable(CARDS, captain=False)
    quiet_night(t)
    tie(t)
    assert t.step == "scapegoat" and t.game.actor == 2 and t.view(None)["step"]["actor"] == 2
    spec = t.actions(2)["scapegoat.voters"]
    assert spec["min"] == 0 and spec["max"] == len(t.game.living()) and 2 not in spec["choices"]
    t.do(2, "scapegoat.voters", targets=[4, 3])
    assert t.last("scapegoat_voters") == {**t.last("scapegoat_voters"), "day": 2, "seats": [3, 4], "audience": "all"}
    assert t.step == "seer"
    quiet_night(t, 7)
    t.to_vote()
    assert engine.actors(t.game) == [3, 4]
    t.refuse(5, {"action": "vote.cast", "target": 3}, "not_your_turn")
    assert t.view(5)["players"][4]["voter"] is False and "voter" not in t.view(5)["players"][2]


def test_his_bad_lists_are_refused():
    t = RoleTable(CARDS, captain=False)
    quiet_night(t)
    tie(t)
    for targets in ([3, 3], [8], [2], "3"):
        t.refuse(2, {"action": "scapegoat.voters", "targets": targets}, "invalid_target")


def test_time_out_leaves_the_next_day_voting_as_usual():
    t = RoleTable(CARDS, captain=False)
    quiet_night(t)
    tie(t)
    t.timeout()
    assert t.step == "seer"
    quiet_night(t, 7)
    t.to_vote()
    assert engine.actors(t.game) == t.game.living()


def test_if_none_of_his_voters_lives_the_vote_is_skipped():
    t = RoleTable(CARDS, captain=False)
    quiet_night(t)
    tie(t)
    t.do(2, "scapegoat.voters", targets=[7])
    quiet_night(t, 7)
    t.until("debate")
    t.timeout()
    assert t.step == "seer" and t.game.night == 3 and t.last("vote_result")["eliminated"] is None


def test_an_empty_list_and_nobody_votes():
    t = RoleTable(CARDS, captain=False)
    quiet_night(t)
    tie(t)
    t.do(2, "scapegoat.voters", targets=[])
    quiet_night(t, 7)
    t.until("debate")
    t.timeout()
    assert t.step == "seer" and t.game.night == 3


def test_a_powerless_scapegoat_leaves_ties_to_the_tie_rules():
    t = RoleTable(CARDS, captain=False)
    quiet_night(t)
    engine.powers.take_powers(t.game, [2])
    tie(t)
    assert t.alive(2) and "scapegoat" not in t.last("vote_result")


def test_his_step_comes_after_a_hunter_s_shot_when_his_lover_is_the_hunter():
    t = RoleTable("W goat cupid seer hunter witch V V", captain=False)
    t.until("cupid")
    t.do(3, "cupid.pair", targets=[2, 5])
    quiet_night(t)
    tie(t, 4, 7)
    assert t.step == "hunter"
    t.timeout()
    assert t.step == "scapegoat"


def test_secret_ballot_he_dies_at_the_end_of_the_tally():
    t = RoleTable(CARDS, captain=False, options={"secret_ballot": True})
    quiet_night(t)
    tie(t)
    assert t.step == "tally" and t.alive(2)
    t.timeout()
    assert not t.alive(2) and t.last("vote_result")["scapegoat"] == 2


def test_differential_scapegoat_at_a_villager_at_b_vs_the_reverse():
    """B9.2: every seat but a and b, until a tied round, one of them dies, the Seer looks or the end."""
    assert swapped_card_sees_alike(CARDS, "goat", [1, 4, 5, 6, 7, 8, None])
