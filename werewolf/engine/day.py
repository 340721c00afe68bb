"""The kernel's own steps: dawn, the debate and the village's vote (RULES.md §5).

They belong to no card: every living player talks and votes. The Captain's double
vote and his tie-break come in through the hooks `vote_weight` and `vote_tie`.
"""

from . import flow, registry
from .game import EVERYONE, Game
from .registry import CONFIRM, SEAT, Action, Step


def _debate_prompt(game, seat, living):
    return [] if seat in game.requests else [{"action": "debate.request_vote"}]


def _request_vote(game: Game, seat: int, _, now: float) -> None:
    game.requests.append(seat)
    game.emit("vote_request", EVERYONE, now, seat=seat, count=len(game.requests))
    if 2 * len(game.requests) > len(game.living()):
        flow.start_step(game, "vote", now)


def _vote_prompt(game, seat, living):
    choices = living
    for hook in registry.hooks("vote_choices"):
        choices = hook(game, choices)
    return [ballot_spec(game, seat, "vote.cast", choices)]


def ballot_spec(game: Game, seat: int, action: str, choices: list[int]) -> dict:
    """The prompt of a public elimination round (`vote`, `stake`): a target or an abstention."""
    spec = {"action": action, "choices": choices, "nullable": True, "voted": seat in game.votes}
    if seat in game.votes:
        spec["current"] = game.votes[seat]
    return spec


def cast_ballot(game: Game, seat: int, target, now: float, resolve) -> None:
    """A public ballot of the current round; the round is counted once every living player voted."""
    game.votes[seat] = target
    game.emit("vote_cast", EVERYONE, now, step=game.step, seat=seat, target=target)
    if all(s in game.votes for s in game.living()):
        resolve(game, now)


def _vote_cast(game: Game, seat: int, target, now: float) -> None:
    cast_ballot(game, seat, target, now, resolve_vote)


def vote_weight(game: Game):
    """Each voter's weight in an elimination round (the Captain's double vote comes by hook)."""
    weight = None
    for hook in registry.hooks("vote_weight"):
        weight = hook(game) or weight
    return weight or (lambda voter: 1)


def resolve_vote(game: Game, now: float) -> None:
    tally, leaders = flow.plurality(game, game.votes, vote_weight(game))
    for hook in registry.hooks("vote_counted"):   # the Owl-Man's nominee: this vote names a candidate
        if hook(game, tally, leaders, now):
            return
    sentence(game, "vote", tally, leaders, now)


def sentence(game: Game, step: str, tally: dict, leaders: list[int], now: float) -> None:
    """The outcome of an elimination round (`vote`, `stake`): announced, then one leader is
    eliminated, a tie goes to `settle_tie`, no vote at all eliminates nobody."""
    extra = {} if step == "vote" else {"step": step}
    game.emit("vote_result", EVERYONE, now, day=game.day, tally=flow.str_keys(tally),
              eliminated=leaders[0] if len(leaders) == 1 else None, tied=leaders if len(leaders) > 1 else [],
              **extra)
    if len(leaders) == 1:
        flow.eliminate(game, leaders[0], now)
    elif len(leaders) > 1:
        settle_tie(game, leaders, now)
    else:
        flow.begin_night(game, now)


def settle_tie(game: Game, leaders: list[int], now: float) -> None:
    """A tie at an elimination round, whichever round it is: the one place ties are settled
    (base: the Captain's `tiebreak`; without a Captain, nobody and night falls)."""
    for hook in registry.hooks("vote_tie"):
        if hook(game, leaders, now):
            return
    flow.begin_night(game, now)


DAWN = Step("dawn", "day", (5, 8, 12), order=100, time_out=lambda game, now: flow.continue_follow_ups(game, now))
DEBATE = Step("debate", "day", (120, 180, 360), order=140, time_out=lambda game, now: flow.start_step(game, "vote", now),
              actors=flow.everyone_alive, prompt=_debate_prompt,
              actions=(Action("debate.request_vote", CONFIRM, _request_vote),))
VOTE = Step("vote", "day", (40, 60, 120), order=150, time_out=resolve_vote, actors=flow.everyone_alive,
            prompt=_vote_prompt, actions=(Action("vote.cast", SEAT, _vote_cast, nullable=True),))

registry.register_steps(DAWN, DEBATE, VOTE)
