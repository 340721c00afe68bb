"""RULES.md §5: election, debate, vote, tie-break; the Captain's double vote."""
from enginekit import Table

PLAIN = "W V V V V V"          # seat 1 is the wolf
EIGHT = "W W V V V V V V"      # wolves 1-2


def day_one(cards=PLAIN, **kwargs) -> Table:
    """Night 1 passes without a victim; the table is at the election (or debate)."""
    t = Table(cards, **kwargs)
    t.until("werewolves")
    t.timeout()
    t.until("dawn")
    t.timeout()
    return t


def elect(t: Table, captain: int) -> None:
    assert t.step == "election"
    for seat in t.game.living():
        t.do(seat, "election.vote", captain)
    assert t.game.captain == captain


# --- election --------------------------------------------------------------------
def test_election_on_day_one_ends_early_when_all_living_voted():
    t = day_one()
    assert t.step == "election"
    for seat in (1, 2, 3, 4, 5):
        t.do(seat, "election.vote", 3 if seat != 5 else 4)
    assert t.step == "election"
    t.do(6, "election.vote", 4)
    assert t.step == "debate"
    assert t.game.captain == 3
    result = t.last("election_result")
    assert result["tally"] == {"3": 4, "4": 2} and result["captain"] == 3 and not result["tie"]
    assert t.view(2)["players"][2]["captain"] is True
    assert t.view(3)["me"]["captain"] is True


def test_election_votes_may_change_and_be_withdrawn_and_are_public():
    t = day_one()
    t.do(2, "election.vote", 3)
    t.do(2, "election.vote", 4)
    t.do(5, "election.vote", 5)
    assert t.view(None)["votes"] == {"2": 4, "5": 5}
    t.do(5, "election.vote", None)
    assert t.view(1)["votes"] == {"2": 4}
    t.timeout()
    assert t.game.captain == 4


def test_election_withdrawn_votes_do_not_end_the_step():
    t = day_one()
    for seat in range(1, 7):
        t.do(seat, "election.vote", 2)
        if seat == 5:
            t.do(seat, "election.vote", None)
    assert t.step == "election"


def test_election_tie_is_drawn_at_random():
    captains = set()
    for seed in range(30):
        t = day_one(seed=seed)
        t.do(2, "election.vote", 3)
        t.do(3, "election.vote", 4)
        t.timeout()
        assert t.game.captain in (3, 4)
        assert t.last("election_result")["tie"] is True
        captains.add(t.game.captain)
    assert captains == {3, 4}


def test_election_with_nobody_voting_leaves_no_captain_for_the_game():
    t = day_one()
    t.timeout()
    assert t.step == "debate"
    assert t.game.captain is None
    assert t.last("election_result")["captain"] is None
    t.until("vote")
    t.vote_all({})
    t.until("dawn")
    t.timeout()
    assert t.step == "debate", "no second election"


def test_election_only_on_day_one():
    t = day_one()
    elect(t, 2)
    t.to_vote()
    t.vote_all({})
    t.until("dawn")
    t.timeout()
    assert t.step == "debate"
    assert t.game.day == 2


def test_no_election_when_switched_off():
    t = day_one(captain=False)
    assert t.step == "debate"
    assert t.events("election_result") == []


def test_the_dead_do_not_vote_in_the_election():
    t = Table(PLAIN)
    t.until("werewolves")
    t.wolves_kill(2)
    t.until("election")
    t.refuse(2, {"action": "election.vote", "target": 3}, "not_alive")
    t.refuse(3, {"action": "election.vote", "target": 2}, "invalid_target")
    for seat in (1, 3, 4, 5, 6):
        t.do(seat, "election.vote", 3)
    assert t.step == "debate", "all the living have voted"


# --- debate ----------------------------------------------------------------------
def test_debate_ends_early_at_more_than_half_of_the_living():
    t = day_one(captain=False)
    for seat in (1, 2, 3):
        t.do(seat, "debate.request_vote")
    assert t.step == "debate", "3 of 6 is not more than half"
    assert t.view(5)["requests"] == [1, 2, 3]
    t.do(4, "debate.request_vote")
    assert t.step == "vote"


def test_debate_counts_the_living_only():
    t = Table(PLAIN, captain=False)
    t.until("werewolves")
    t.wolves_kill(2)
    t.until("debate")                     # 5 living: 3 requests are more than half
    for seat in (1, 3):
        t.do(seat, "debate.request_vote")
    assert t.step == "debate"
    t.refuse(2, {"action": "debate.request_vote"}, "not_alive")
    t.do(4, "debate.request_vote")
    assert t.step == "vote"


def test_debate_request_only_once():
    t = day_one(captain=False)
    t.do(2, "debate.request_vote")
    assert t.actions(2) == {}
    t.refuse(2, {"action": "debate.request_vote"}, "already_done")


def test_debate_lasts_its_limit():
    t = day_one(captain=False)
    assert t.game.deadline - t.now == 180
    t.timeout()
    assert t.step == "vote"


# --- vote ------------------------------------------------------------------------
def test_most_votes_is_eliminated_and_the_card_shown():
    t = day_one(EIGHT, captain=False)
    t.to_vote()
    t.vote_all({1: 3, 2: 3, 3: 1, 4: 1, 5: 1, 6: 1})
    assert not t.alive(1)
    result = t.last("vote_result")
    assert result["tally"] == {"1": 4, "3": 2} and result["eliminated"] == 1
    assert t.view(5)["players"][0]["role"] == "werewolf"
    assert t.last("deaths")["deaths"] == [{"seat": 1, "role": "werewolf", "cause": "vote"}]


def test_votes_are_public_as_cast_and_changed():
    t = day_one(captain=False)
    t.to_vote()
    t.do(2, "vote.cast", 3)
    t.do(4, "vote.cast", None)
    assert t.view(None)["votes"] == {"2": 3, "4": None}
    t.do(2, "vote.cast", 5)
    assert t.view(6)["votes"] == {"2": 5, "4": None}
    assert t.actions(2)["vote.cast"]["current"] == 5
    assert t.actions(2)["vote.cast"]["voted"] is True
    assert t.actions(3)["vote.cast"]["voted"] is False


def test_vote_ends_early_when_everyone_voted_abstentions_included():
    t = day_one(captain=False)
    t.to_vote()
    for seat in (1, 2, 3, 4, 5):
        t.do(seat, "vote.cast", None)
    assert t.step == "vote"
    t.do(6, "vote.cast", 2)
    assert t.step != "vote"
    assert not t.alive(2)


def test_vote_time_out_counts_the_votes_cast():
    t = day_one(captain=False)
    t.to_vote()
    t.do(2, "vote.cast", 4)
    t.timeout()
    assert not t.alive(4)


def test_nobody_voted_nobody_eliminated():
    t = day_one(captain=False)
    t.to_vote()
    t.timeout()
    assert t.dead() == []
    assert t.step == "werewolves" and t.game.night == 2
    assert t.last("vote_result")["eliminated"] is None


def test_everyone_abstains_nobody_eliminated():
    t = day_one(captain=False)
    t.to_vote()
    t.vote_all({})
    assert t.dead() == []
    assert t.step == "werewolves"


def test_tie_without_captain_nobody_eliminated():
    t = day_one(captain=False)
    t.to_vote()
    t.vote_all({2: 3, 3: 2})
    assert t.dead() == []
    assert t.last("vote_result")["tied"] == [2, 3]
    assert t.step == "werewolves"


def test_the_captain_counts_double():
    t = day_one()
    elect(t, 2)
    t.to_vote()
    t.vote_all({2: 5, 3: 4})
    assert not t.alive(5)
    assert t.last("vote_result")["tally"] == {"4": 1, "5": 2}


def test_the_captain_double_vote_makes_a_tie():
    t = day_one()
    elect(t, 2)
    t.to_vote()
    t.vote_all({2: 5, 3: 4, 6: 4})
    assert t.step == "tiebreak"
    assert t.last("vote_result")["tally"] == {"4": 2, "5": 2}


def test_tie_with_captain_goes_to_his_tiebreak():
    t = day_one()
    elect(t, 2)
    t.to_vote()
    t.vote_all({3: 4, 4: 3})
    assert t.step == "tiebreak"
    step = t.view(5)["step"]
    assert step["actor"] == 2 and step["tied"] == [3, 4]
    assert t.actions(2) == {"tiebreak.choose": {"action": "tiebreak.choose", "choices": [3, 4]}}
    assert t.actions(3) == {}
    t.refuse(2, {"action": "tiebreak.choose", "target": 5}, "invalid_target")
    t.refuse(3, {"action": "tiebreak.choose", "target": 4}, "not_your_turn")
    t.do(2, "tiebreak.choose", 4)
    assert not t.alive(4)
    assert t.step == "werewolves"


def test_tiebreak_silent_nobody_eliminated():
    t = day_one()
    elect(t, 2)
    t.to_vote()
    t.vote_all({3: 4, 4: 3})
    t.timeout()
    assert t.dead() == []
    assert t.step == "werewolves"
    assert t.last("tiebreak")["target"] is None


def test_the_captain_may_choose_himself_when_tied():
    t = day_one()
    elect(t, 2)
    t.to_vote()
    t.vote_all({3: 2, 4: 3})          # 2 and 3 tied, the captain abstains
    assert t.game.tied == [2, 3]
    t.do(2, "tiebreak.choose", 2)
    assert not t.alive(2)


def test_the_dead_never_vote():
    t = Table(PLAIN, captain=False)
    t.until("werewolves")
    t.wolves_kill(2)
    t.to_vote()
    assert t.actions(2) == {}
    t.refuse(2, {"action": "vote.cast", "target": 3}, "not_alive")
    t.refuse(3, {"action": "vote.cast", "target": 2}, "invalid_target")
    for seat in (1, 3, 4, 5, 6):
        t.do(seat, "vote.cast", None)
    assert t.step != "vote", "everyone living has voted"


def test_second_day_follows_the_night():
    t = day_one(captain=False)
    t.to_vote()
    t.vote_all({})
    t.timeout()                   # night 2: the wolves let time run out
    assert t.step == "dawn"
    t.timeout()
    assert t.step == "debate" and t.game.day == 2 and t.game.night == 2


def test_the_dawn_after_night_one_already_belongs_to_day_one():
    t = Table(PLAIN)
    t.until("werewolves")
    t.timeout()
    t.until("dawn")
    assert t.view(2)["step"]["day"] == 1
    t.timeout()
    assert t.view(2)["step"]["day"] == 1 and t.step == "election"


# --- re-cast ballots (issue 33: one player re-voting non-stop grew every view) ----
def _views_and_versions(t: Table) -> tuple:
    views = [t.view(seat) for seat in (None, *range(1, t.game.n + 1))]
    for view in views:
        del view["step"]["seconds_left"]   # the clock moves with every action of the kit
    return views, list(t.game.versions)


def test_an_unchanged_ballot_cast_again_adds_nothing_to_any_view():
    t = day_one()
    t.do(2, "election.vote", 3)
    before = _views_and_versions(t)
    for _ in range(20):
        t.do(2, "election.vote", 3)
        t.do(4, "election.vote", None)   # no ballot, withdrawn again: still none
    assert _views_and_versions(t) == before
    t.do(2, "election.vote", None)
    t.do(2, "election.vote", None)
    assert len([e for e in t.events("vote_cast") if e["seat"] == 2]) == 1
    t.timeout()
    t.until("vote")
    t.do(3, "vote.cast", None)           # an explicit abstention is a ballot
    before = _views_and_versions(t)
    for _ in range(20):
        t.do(3, "vote.cast", None)
    assert _views_and_versions(t) == before


def test_a_changed_ballot_replaces_the_voters_last_one_in_the_views():
    t = day_one()
    t.do(5, "election.vote", 4)
    for round_ in range(50):
        t.do(2, "election.vote", 3 + round_ % 2)
    view = t.view(None)
    casts = [(e["seat"], e["target"]) for e in view["events"] if e["kind"] == "vote_cast"]
    assert casts == [(5, 4), (2, 4)]    # one per voter, the last, in the order they came
    assert view["events"][-1]["seq"] == len(view["events"])
    assert view["votes"] == {"2": 4, "5": 4}
    t.timeout()
    assert t.game.captain == 4


def test_a_wolf_changing_his_designation_leaves_one_event_for_the_pack():
    t = Table(EIGHT)
    t.until("werewolves")
    for round_ in range(30):
        t.do(1, "werewolves.designate", 3 + round_ % 3)
    t.do(1, "werewolves.designate", 5)   # the same again: nothing
    designations = [e for e in t.view(2)["events"] if e["kind"] == "designation"]
    assert [(e["seat"], e["target"]) for e in designations] == [(1, 5)]
