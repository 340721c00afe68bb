"""A table with options and a way to reach the day's vote, for the option tests."""
import json

from rolekit import RoleTable

from werewolf import engine


def table(cards: str = "W V V V V V", captain: int | None = None, **options) -> RoleTable:
    """Night 1 passes with no victim; on day 1 seat `captain` is elected (if given)."""
    t = RoleTable(cards, captain=captain is not None, options=options)
    t.until("werewolves")
    t.timeout()
    t.until("dawn")
    t.timeout()
    if captain is not None:
        assert t.step == "election"
        for seat in t.game.living():
            t.do(seat, "election.vote", captain)
        assert t.game.captain == captain
    return t


def to_vote(t: RoleTable) -> None:
    t.until("vote")


def cast(t: RoleTable, ballots: dict, rest_abstain: bool = True) -> None:
    """The round's voters cast these ballots (seat -> target, None = abstain) in seat order;
    with rest_abstain the others abstain, else they do not vote."""
    step = t.step
    voters = engine.actors(t.game)
    for seat in voters:
        if t.step != step:
            break
        if seat in ballots:
            t.do(seat, f"{step}.cast", ballots[seat])
        elif rest_abstain:
            t.do(seat, f"{step}.cast", None)


def public(view: dict) -> str:
    return json.dumps(view, sort_keys=True)
