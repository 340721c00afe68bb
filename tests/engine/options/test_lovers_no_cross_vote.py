"""Lovers may not vote for each other — `lovers_no_cross_vote` (RULES-VARIANTS A5.4)."""
from opkit import cast, public, table, to_vote
from rolekit import RoleTable


def lovers_table(**options):
    t = RoleTable("W V V V V cupid", captain=True, options=options)
    t.until("cupid")
    t.do(6, "cupid.pair", targets=[2, 3])
    t.until("election")
    return t


def test_in_the_vote_a_lover_cannot_name_his_partner():
    t = lovers_table(lovers_no_cross_vote=True)
    t.timeout()
    to_vote(t)
    assert 3 not in t.actions(2)["vote.cast"]["choices"] and 2 not in t.actions(3)["vote.cast"]["choices"]
    assert 3 in t.actions(4)["vote.cast"]["choices"]
    t.refuse(2, {"action": "vote.cast", "target": 3}, "invalid_target")


def test_not_in_the_election():
    t = lovers_table(lovers_no_cross_vote=True)
    assert 3 in t.actions(2)["election.vote"]["choices"]


def test_not_in_the_tiebreak():
    t = lovers_table(lovers_no_cross_vote=True)
    for seat in range(1, 7):
        t.do(seat, "election.vote", 2)
    to_vote(t)
    cast(t, {1: 3, 4: 5})
    assert t.step == "tiebreak" and 3 in t.actions(2)["tiebreak.choose"]["choices"]


def test_in_a_runoff_too():
    t = lovers_table(lovers_no_cross_vote=True, tie="runoff")
    t.timeout()
    to_vote(t)
    cast(t, {1: 3, 4: 5})
    t.timeout()
    assert t.step == "runoff" and t.actions(2)["runoff.cast"]["choices"] == [5]


def test_without_the_option_allowed():
    t = lovers_table()
    t.timeout()
    to_vote(t)
    assert 3 in t.actions(2)["vote.cast"]["choices"]


def test_differential_only_the_lovers_see_a_difference():
    """A9.2: option on vs off, the same votes cast → every seat but the two lovers."""
    def seen(options):
        t = lovers_table(**options)
        t.timeout()
        to_vote(t)
        t.do(2, "vote.cast", 4)
        out = [public(t.view(s)) for s in (None, 1, 4, 5, 6)]
        cast(t, {2: 4, 3: 4})
        return out + [public(t.view(s)) for s in (None, 1, 4, 5, 6)]
    assert seen({"lovers_no_cross_vote": True}) == seen({})


def test_nothing_happens_without_lovers():
    t = table(lovers_no_cross_vote=True)
    to_vote(t)
    assert t.actions(2)["vote.cast"]["choices"] == [1, 2, 3, 4, 5, 6]
