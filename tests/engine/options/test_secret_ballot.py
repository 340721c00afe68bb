"""Secret ballots — `secret_ballot` (RULES-VARIANTS A5.1): one's own ballot only during a
round, `vote_cast` to the voter only, the `tally` step and the `ballots` event."""
from enginekit import versions
from opkit import cast, public, table, to_vote

from werewolf import engine


def test_off_by_default_and_checked():
    assert engine.default_settings()["options"]["secret_ballot"] is False
    for bad in ("yes", 1, None):
        try:
            engine.merge_settings(engine.default_settings(), {"options": {"secret_ballot": bad}})
        except engine.IllegalAction as refused:
            assert refused.code == "invalid_settings"
        else:
            raise AssertionError(bad)


def test_during_the_round_each_sees_only_his_own_ballot():
    t = table(secret_ballot=True)
    to_vote(t)
    t.do(2, "vote.cast", 3)
    t.do(4, "vote.cast", None)
    assert t.view(2)["votes"] == {"2": 3}
    assert t.view(4)["votes"] == {"4": None}
    assert t.view(3)["votes"] == {}
    assert engine.view_for(t.game, None, t.now)["votes"] == {}
    assert t.actions(3)["vote.cast"]["voted"] is False
    assert t.actions(2)["vote.cast"]["current"] == 3


def test_vote_cast_goes_to_the_voter_only_and_moves_only_his_version():
    t = table(secret_ballot=True)
    to_vote(t)
    before = versions(t.game)
    t.do(2, "vote.cast", 3)
    after = versions(t.game)
    assert [b == a for b, a in zip(before, after)] == [True, True, False, True, True, True, True]
    assert t.last("vote_cast")["audience"] == 2
    assert not [e for e in t.view(3)["events"] if e["kind"] == "vote_cast"]


def test_the_round_still_ends_early_then_the_tally_publishes_every_ballot():
    t = table(captain=6, secret_ballot=True)
    to_vote(t)
    cast(t, {2: 3, 3: 2, 4: 3, 6: 2, 5: None}, rest_abstain=False)
    assert t.step == "vote", "seat 1 has not voted"
    t.do(1, "vote.cast", 3)
    assert t.step == "tally"
    assert t.game.deadline - t.now == 10
    assert all(t.view(s)["prompt"] is None for s in range(1, 7))
    ballots = t.last("ballots")
    assert ballots["audience"] == "all" and ballots["step"] == "vote" and ballots["round"] == 1
    assert ballots["ballots"] == {"1": 3, "2": 3, "3": 2, "4": 3, "5": None, "6": 2}
    assert ballots["captain"] == 6
    assert t.dead() == [], "the sentence falls at the end of the tally"
    t.timeout()
    assert t.last("vote_result")["tally"] == {"2": 3, "3": 3}
    assert t.step == "tiebreak", "the Captain's double vote made a tie"


def test_no_ballot_at_all_is_published_as_null():
    t = table(secret_ballot=True)
    to_vote(t)
    t.do(2, "vote.cast", 3)
    t.timeout()
    assert t.step == "tally"
    assert t.last("ballots")["ballots"] == {"1": None, "2": 3, "3": None, "4": None, "5": None, "6": None}
    assert t.last("ballots")["captain"] is None
    t.timeout()
    assert t.dead() == [3]


def test_the_tally_never_ends_early_and_nobody_acts():
    t = table(secret_ballot=True)
    to_vote(t)
    cast(t, {2: 3})
    assert t.step == "tally"
    t.refuse(2, {"action": "vote.cast", "target": 4}, "wrong_step")
    assert engine.actors(t.game) == []


def test_the_election_stays_public():
    t = table(secret_ballot=True, captain=None)
    t2 = table(secret_ballot=True, captain=4)
    assert t2.last("vote_cast")["audience"] == "all"
    assert t.step == "debate"


def test_a_runoff_under_secret_ballot():
    t = table(secret_ballot=True, tie="runoff")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    assert t.step == "tally"
    t.timeout()
    assert t.step == "defense"
    t.timeout()
    assert t.step == "runoff"
    t.do(1, "runoff.cast", 2)
    assert t.view(4)["votes"] == {} and t.view(1)["votes"] == {"1": 2}
    cast(t, {1: 2, 4: 2, 5: 3})
    assert t.step == "tally"
    ballots = t.last("ballots")
    assert ballots["step"] == "runoff" and ballots["ballots"] == {"1": 2, "4": 2, "5": 3, "6": None}
    t.timeout()
    assert t.dead() == [2]


def test_a_revote_under_secret_ballot_numbers_its_rounds():
    t = table(secret_ballot=True, tie="revote")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    t.timeout()            # tally
    t.timeout()            # defense
    cast(t, {2: 3, 3: 2})
    assert t.step == "tally" and t.last("ballots")["round"] == 1 and t.last("ballots")["step"] == "revote"
    t.timeout()
    t.timeout()
    cast(t, {2: 3, 3: 2, 4: 2})
    assert t.last("ballots")["round"] == 2
    t.timeout()
    assert t.dead() == [2]


def test_differential_one_ballot_changes_nothing_for_the_others_until_the_close():
    """A9.2: seat 2 votes 3, or votes 4, or abstains, while seat 6 has not voted: every
    other seat's view (JSON, version) is identical until the round closes."""
    def views(choice):
        t = table(secret_ballot=True)
        to_vote(t)
        t.do(1, "vote.cast", 5)
        t.do(2, "vote.cast", choice)
        t.do(3, "vote.cast", None)
        t.do(4, "vote.cast", 5)
        t.do(5, "vote.cast", 1)
        return [public(t.view(s)) for s in (None, 1, 3, 4, 5, 6)], t
    first, t = views(3)
    assert views(4)[0] == first and views(None)[0] == first
    assert t.step == "vote"
    # ... and the differential test could fail: seat 2's own view differs.
    assert public(views(3)[1].view(2)) != public(views(4)[1].view(2))
