"""The kernel's own steps: dawn, the debate and the village's vote (RULES.md §5), and
the one path every elimination round takes (vote, revote, runoff, stake).

They belong to no card: every living player talks and votes. The Captain's double
vote and his tie-break come in through the hooks `vote_weight` and `vote_tie`; the
table options (secret ballot, ties) through `ballot_audience`, `step_ends`, `vote_tie`.
"""

from . import flow, registry
from .actions import actors
from .game import EVERYONE, Game
from .registry import CONFIRM, SEAT, Action, Step


def _debate_prompt(game, seat, living):
    return [] if seat in game.requests else [{"action": "debate.request_vote"}]


def _request_vote(game: Game, seat: int, _, now: float) -> None:
    game.requests.append(seat)
    game.emit("vote_request", EVERYONE, now, seat=seat, count=len(game.requests))
    if 2 * len(game.requests) > len(game.living()):
        flow.start_step(game, "vote", now)


# --- elimination rounds (vote, revote, runoff, stake: A0 "vote elimination") ----------
# One path for every round: the prompt, a ballot, the close, the sentence. A step is a
# round when it is built with ballot_prompt and cast_ballot; options come in by hooks:
# who sees a ballot (ballot_audience), what happens at the close (step_ends BALLOTS_IN: the
# secret ballot's tally), a tie (vote_tie), a voter's choices (prompt).
def ballot_prompt(action: str):
    def prompt(game: Game, seat: int, living: list[int]) -> list[dict]:
        # Whom a round may name: the tied in a re-vote or a run-off (the candidates at
        # the stake), else every living player, as the hooks `prompt` narrow it.
        choices = list(game.tied) if game.tied else living
        votes = game.votes
        spec = {"action": action, "choices": choices, "nullable": True, "voted": seat in votes}
        if seat in votes:
            spec["current"] = votes[seat]
        return [spec]
    return prompt


def ballot_audience(game: Game, voter: int):
    audience = EVERYONE
    for hook in game.hooks("ballot_audience"):
        audience = hook(game, voter) or audience
    return audience


def cast_ballot(game: Game, seat: int, target, now: float) -> None:
    """A ballot of the current round (null = an explicit abstention, A13); the round
    closes early once every voter of the round has one. The same ballot again changes
    nothing; another one replaces the voter's last (Game.emit_choice)."""
    if seat in game.votes and game.votes[seat] == target:
        return
    game.votes[seat] = target
    game.emit_choice("vote_cast", ballot_audience(game, seat), now, step=game.step, seat=seat, target=target)
    if all(map(game.votes.__contains__, actors(game))):   # every voter of the round has one
        close_round(game, now)


def close_round(game: Game, now: float) -> None:
    """The round's time-out or early end: the hooks may hold the sentence back (tally)."""
    if flow.step_ends(game, flow.BALLOTS_IN, now):
        return
    sentence(game, game.step, dict(game.votes), now)


def round_number(game: Game) -> int:
    """1 for the first round of a step, 2 for the next re-vote... (A13). A re-vote's
    number is kept in game.extra["round"] (absent: 1) by whoever starts it."""
    return game.extra.get("round", 1)


def _one(voter: int) -> int:
    return 1


def ballot_weight(game: Game):
    """(voter) -> how much his ballot weighs in an elimination round (the living Captain's
    counts twice, A3.12): the count and the view (its `weights`) ask this one rule."""
    weight = None
    for hook in game.hooks("vote_weight"):
        weight = hook(game) or weight
    return weight or _one


class Count:
    """A round's count as the cards see it (hook ``round_counted``): the step it was held
    in, its ``tally`` {seat: votes} a card may add votes to (the Raven's), or None when the
    ballots are published before the count (the secret ballot's `ballots`), and the
    ``fields`` a card adds to that event (`vote_result` or `ballots`)."""
    __slots__ = ("step", "tally", "fields")

    def __init__(self, step: str, tally: dict | None, fields: dict) -> None:
        self.step, self.tally, self.fields = step, tally, fields

    @property
    def leaders(self) -> list[int] | None:
        """Who leads the tally now (none: nobody voted; None: not counted yet)."""
        if self.tally is None:
            return None
        top = max(self.tally.values(), default=0)
        return sorted(t for t, v in self.tally.items() if v == top) if top else []


def sentence(game: Game, step_id: str, ballots: dict, now: float) -> None:
    """Count a round held in `step_id` and apply it: one leader is eliminated, a tie goes
    to the vote_tie hooks (the tie option, the Captain), nobody voting: nobody."""
    tally, leaders = flow.plurality(game, ballots, ballot_weight(game))
    where = {} if step_id == "vote" else {"step": step_id, "round": round_number(game)}   # the base event unchanged
    if "round_counted" in game.in_play.hooks:
        # Votes that are no ballot (the Raven's, RULES-BOX B5.3), fields of the event, or a
        # card taking the outcome over (the Owl-Man's nominee: the vote names a candidate).
        count = Count(step_id, tally, where)
        for hook in game.in_play.hooks["round_counted"]:
            if hook(game, count, now):
                return
        leaders = count.leaders
    game.emit("vote_result", EVERYONE, now, day=game.day, tally=flow.str_keys(tally),
              eliminated=leaders[0] if len(leaders) == 1 else None, tied=leaders if len(leaders) > 1 else [],
              **where)
    if len(leaders) == 1:
        flow.eliminate(game, leaders[0], now)
        return
    if len(leaders) > 1:
        for hook in game.hooks("vote_tie"):
            if hook(game, leaders, step_id, now):
                return
    flow.begin_night(game, now)


def _vote_opens(game: Game, now: float) -> None:
    """A round with no voter is skipped: nobody is eliminated (RULES-BOX B5.2)."""
    if "voters" in game.in_play.hooks and not flow.voters(game, game.living()):
        close_round(game, now)


DAWN = Step("dawn", "day", (5, 8, 12), order=100, heading=False, time_out=lambda game, now: flow.continue_follow_ups(game, now))
DEBATE = Step("debate", "day", (120, 180, 360), order=140, time_out=lambda game, now: flow.start_step(game, "vote", now),
              actors=flow.everyone_alive, prompt=_debate_prompt,
              actions=(Action("debate.request_vote", CONFIRM, _request_vote, style="primary big"),), layout="one_button")
VOTE = Step("vote", "day", (40, 60, 120), order=150, time_out=close_round, actors=flow.voters, ballots=True,
            eliminates=True, on_start=_vote_opens,
            prompt=ballot_prompt("vote.cast"), actions=(Action("vote.cast", SEAT, cast_ballot, nullable=True),))

registry.register_steps(DAWN, DEBATE, VOTE)
