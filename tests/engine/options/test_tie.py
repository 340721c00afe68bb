"""Ties — `tie` (RULES-VARIANTS A5.2): captain | none | revote | runoff, the `defense`
step, the re-votes (at most three a day) and the run-off."""
import pytest
from opkit import cast, public, table, to_vote

from werewolf import engine

# seat 1 the wolf, 2-6 villagers


def test_the_option_is_off_by_default_and_its_values_are_checked():
    assert engine.default_settings()["options"]["tie"] == "captain"
    for bad in ("maybe", True, None, 1, ["runoff"]):
        with pytest.raises(engine.IllegalAction) as refused:
            engine.merge_settings(engine.default_settings(), {"options": {"tie": bad}})
        assert refused.value.code == "invalid_settings"
    merged = engine.merge_settings(engine.default_settings(), {"options": {"tie": "runoff"}})
    assert merged["options"]["tie"] == "runoff"


# --- captain (default) ---------------------------------------------------------------
def test_captain_mode_the_captain_breaks_the_tie():
    t = table(captain=6)
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    assert t.step == "tiebreak" and t.game.actor == 6 and t.view(1)["step"]["tied"] == [2, 3]


def test_captain_mode_no_captain_nobody():
    t = table()
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    assert t.step == "werewolves" and t.dead() == []


# --- none ----------------------------------------------------------------------------
def test_none_nobody_is_eliminated_even_with_a_captain():
    t = table(captain=6, tie="none")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    assert t.step == "werewolves" and t.dead() == [] and not t.events("tiebreak")


def test_none_the_captain_still_votes_double():
    t = table(captain=6, tie="none")
    to_vote(t)
    cast(t, {6: 3, 2: 4})
    assert t.last("vote_result")["tally"] == {"3": 2, "4": 1}
    assert t.dead() == [3]


# --- revote --------------------------------------------------------------------------
def test_revote_with_a_captain_the_captain_breaks_the_tie():
    t = table(captain=6, tie="revote")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    assert t.step == "tiebreak" and t.game.actor == 6


def test_revote_without_captain_defense_then_revote_among_the_tied():
    t = table(tie="revote")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    assert t.step == "defense"
    assert t.view(4)["step"]["tied"] == [2, 3]
    assert t.game.deadline - t.now == 60
    t.timeout()
    assert t.step == "revote"
    step = t.view(4)["step"]
    assert step["tied"] == [2, 3] and step["round"] == 1
    assert t.game.deadline - t.now == 45
    # Every living player votes, the tied included; only the tied may be named.
    assert sorted(engine.actors(t.game)) == [1, 2, 3, 4, 5, 6]
    assert t.actions(2)["revote.cast"]["choices"] == [2, 3]
    t.refuse(4, {"action": "revote.cast", "target": 5}, "invalid_target")
    t.refuse(4, {"action": "vote.cast", "target": 2}, "wrong_step")
    cast(t, {2: 3, 4: 3, 5: 2})
    result = t.last("vote_result")
    assert result["step"] == "revote" and result["round"] == 1 and result["eliminated"] == 3
    assert t.dead() == [3]


def test_revote_still_tied_defense_and_revote_again_at_most_three_times():
    t = table(tie="revote")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    for round_no in (1, 2, 3):
        assert t.step == "defense"
        t.timeout()
        assert t.step == "revote" and t.view(1)["step"]["round"] == round_no
        cast(t, {2: 3, 3: 2})
    assert t.step == "werewolves" and t.dead() == []
    assert [e["round"] for e in t.events("vote_result") if e.get("step") == "revote"] == [1, 2, 3]


def test_revote_still_tied_among_fewer_keeps_only_the_still_tied():
    t = table("W W V V V V V V", tie="revote")
    to_vote(t)
    cast(t, {1: 2, 2: 3, 3: 4})
    assert t.view(5)["step"]["tied"] == [2, 3, 4]
    t.timeout()
    cast(t, {1: 2, 2: 3, 3: 4, 4: 2, 5: 3})
    assert t.step == "defense" and t.view(5)["step"]["tied"] == [2, 3]


def test_revote_where_nobody_votes_nobody_and_no_more_rounds():
    t = table(tie="revote")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    t.timeout()
    assert t.step == "revote"
    t.timeout()
    assert t.step == "werewolves" and t.dead() == []


def test_revotes_are_counted_per_day():
    t = table(tie="revote")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    t.timeout()
    cast(t, {2: 3, 3: 2})
    t.timeout()
    cast(t, {2: 3, 3: 2})
    t.timeout()
    assert t.step == "revote" and t.view(1)["step"]["round"] == 3
    t.timeout()                           # nobody votes: night
    t.until("vote")
    cast(t, {2: 3, 3: 2})
    t.timeout()
    assert t.step == "revote" and t.view(1)["step"]["round"] == 1


# --- runoff --------------------------------------------------------------------------
def test_runoff_the_tied_defend_then_the_others_vote_among_them():
    t = table(tie="runoff")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    assert t.step == "defense"
    t.timeout()
    assert t.step == "runoff" and t.game.deadline - t.now == 45
    assert sorted(engine.actors(t.game)) == [1, 4, 5, 6]
    assert t.actions(2) == {} and t.view(2)["prompt"] is None
    t.refuse(2, {"action": "runoff.cast", "target": 3}, "not_your_turn")
    t.refuse(4, {"action": "runoff.cast", "target": 5}, "invalid_target")
    cast(t, {1: 2, 4: 2, 5: 3})
    result = t.last("vote_result")
    assert result["step"] == "runoff" and result["eliminated"] == 2 and t.dead() == [2]


def test_runoff_still_tied_without_captain_nobody():
    t = table(tie="runoff")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    t.timeout()
    cast(t, {1: 2, 4: 3})
    assert t.step == "werewolves" and t.dead() == []


def test_runoff_still_tied_a_living_captain_chooses():
    t = table(captain=6, tie="runoff")
    to_vote(t)
    cast(t, {2: 3, 3: 2, 4: 5, 6: None})
    assert t.step == "defense", "the run-off comes first, even with a Captain"
    t.timeout()
    cast(t, {1: 2, 4: 3, 6: None})
    assert t.step == "tiebreak" and t.game.actor == 6
    t.do(6, "tiebreak.choose", 3)
    assert t.dead() == [3]


def test_runoff_the_captain_votes_double():
    t = table(captain=6, tie="runoff")
    to_vote(t)
    cast(t, {2: 3, 3: 2, 6: None})
    t.timeout()
    cast(t, {1: 2, 6: 3})
    assert t.last("vote_result")["tally"] == {"2": 1, "3": 2} and t.dead() == [3]


def test_runoff_nobody_votes_nobody_even_with_a_captain():
    t = table(captain=6, tie="runoff")
    to_vote(t)
    cast(t, {2: 3, 3: 2, 6: None})
    t.timeout()
    t.timeout()
    assert t.step == "werewolves" and t.dead() == []


def test_runoff_skipped_when_every_living_player_is_tied():
    t = table(tie="runoff")
    to_vote(t)
    cast(t, {1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 1})
    assert t.step == "werewolves" and t.dead() == [] and not t.events("step")[-2]["step"] == "defense"


# --- defense -------------------------------------------------------------------------
def test_defense_only_the_tied_write_in_village():
    t = table(tie="runoff")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    assert t.view(2)["channels"]["write"] == "village"
    assert t.view(4)["channels"]["write"] is None
    t.say(2, "village", "innocent!")
    t.refuse(4, ("village", "hush"), "channel_closed", chat=True)


def test_defense_ends_early_when_every_tied_player_is_done():
    t = table(tie="runoff")
    to_vote(t)
    cast(t, {2: 3, 3: 2})
    assert set(t.actions(2)) == {"defense.done"} and t.actions(4) == {}
    t.do(2, "defense.done")
    assert t.step == "defense" and t.actions(2) == {}
    t.refuse(2, {"action": "defense.done"}, "already_done")
    t.refuse(4, {"action": "defense.done"}, "not_your_turn")
    t.do(3, "defense.done")
    assert t.step == "runoff"


def test_a_tie_at_the_vote_follows_the_tie_option_whatever_the_cards():
    """A9.2: the day's steps depend only on public votes and deaths: the same for every
    viewer whatever the cards (seats 2, 3, 6 hold a Villager in both games)."""
    def seen(cards):
        t = table(cards, tie="runoff")
        to_vote(t)
        cast(t, {2: 3, 3: 2, 4: 5})
        out = [public(t.view(s)) for s in (2, 3, 6)]
        t.timeout()
        out += [public(t.view(s)) for s in (2, 3, 6)]
        cast(t, {1: 2})
        return out + [[(e["step"], e["step_seq"]) for e in t.events("step")]]
    assert seen("W V V V V V") == seen("V V V V W V")
