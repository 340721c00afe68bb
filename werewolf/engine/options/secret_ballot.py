"""Secret ballots — `secret_ballot` (RULES-VARIANTS A5.1): in every elimination round
(vote, revote, runoff, stake), each voter sees only his own ballot; at the close, the
`tally` step publishes every ballot (`ballots`), then the sentence falls.

Not the Captain's election (decision A5.1). The rounds all go through day.cast_ballot
(the audience of a ballot) and day.close_round (the tally before the sentence).
"""
from .. import day, flow, registry
from ..actions import actors
from ..game import EVERYONE, Game
from ..registry import Event, Option, Say, Step

ID = "secret_ballot"


def _on(game: Game) -> bool:
    return registry.option_value(game, ID) is True


def _ballot_audience(game: Game, voter: int):
    return voter if _on(game) else None


def _round_closes(game: Game, kind: str, now: float) -> bool:
    if kind != flow.BALLOTS_IN or not _on(game):
        return False
    held_in = game.step
    # Every voter of the round, null for an abstention or no ballot at all (003).
    ballots = {voter: game.votes.get(voter) for voter in actors(game)}
    captain = game.captain if game.captain is not None and game.player(game.captain).alive else None
    game.extra[ID] = {"step": held_in, "ballots": {str(k): v for k, v in ballots.items()}}
    flow.start_step(game, "tally", now, tied=game.tied)
    more: dict = {}
    count = day.Count(held_in, None, more)   # not counted yet: the cards only add fields
    for hook in game.hooks("round_counted"):   # votes that are no ballot (the Raven's, RULES-BOX B6.2)
        hook(game, count, now)
    game.emit("ballots", EVERYONE, now, step=held_in, round=day.round_number(game),
              ballots={str(k): v for k, v in sorted(ballots.items())}, captain=captain, **more)
    return True


def _tally_time_out(game: Game, now: float) -> None:
    held = game.extra.pop(ID)
    ballots = {int(voter): target for voter, target in held["ballots"].items()}
    day.sentence(game, held["step"], ballots, now)


TALLY = Step("tally", "day", (6, 10, 15), time_out=_tally_time_out, order=168)

OPTION = registry.register_option(Option(
    id=ID, default=False, group="votes", check=lambda value: isinstance(value, bool), steps=(TALLY,), events=(
        # every voter's ballot, null included, published at the count; the Captain's counts twice
        Event("ballots", {"step": "text", "round": "int", "ballots": "ballots", "captain": "seat?",
                          "raven": {"target": "seat", "votes": "int"}},   # the Raven's two (RULES-BOX B12)
              says=(Say("ev.ballots", lines="ballots"),), moment=True),),
    public_events=("ballots",),
    hooks={"ballot_audience": _ballot_audience, "step_ends": _round_closes}))
