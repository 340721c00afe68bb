"""The Captain — Capitaine (RULES.md §5): elected on day 1, his vote counts double, he
breaks a tie, and names his successor when he dies. Not a card."""

from .. import flow, registry
from ..game import EVERYONE, Game
from ..registry import SEAT, Action, Event, Module, Say, Step


def _living_captain(game: Game) -> int | None:
    return game.captain if game.captain is not None and game.player(game.captain).alive else None


# --- election ------------------------------------------------------------------
def _day_start(game: Game, kind: str, now: float) -> bool:
    if kind == flow.DAY_OPENS and game.day == 1 and game.settings["captain"] and game.captain is None and not game.captaincy_over:
        flow.start_step(game, "election", now)
        return True
    return False


def _election_prompt(game, seat, living):
    return [{"action": "election.vote", "choices": living, "nullable": True, "current": game.votes.get(seat)}]


def _election_vote(game: Game, seat: int, target, now: float) -> None:
    if game.votes.get(seat) == target:
        return   # the same ballot again (null: none) changes nothing
    if target is None:
        game.votes.pop(seat, None)
    else:
        game.votes[seat] = target
    game.emit_choice("vote_cast", EVERYONE, now, step="election", seat=seat, target=target)
    if all(game.votes.get(s) is not None for s in flow.voters(game, game.living())):
        _resolve_election(game, now)


def _resolve_election(game: Game, now: float) -> None:
    tally, leaders = flow.plurality(game, game.votes)
    if leaders:
        game.captain = leaders[game.draw(len(leaders))]
    else:
        game.captaincy_over = True
    game.emit("election_result", EVERYONE, now, tally=flow.str_keys(tally), captain=game.captain,
              tie=len(leaders) > 1)
    flow.start_debate(game, now)


# --- the vote --------------------------------------------------------------------
def _vote_weight(game: Game):
    captain = _living_captain(game)
    return (lambda voter: 2 if voter == captain else 1) if captain is not None else None


def _vote_tie(game: Game, leaders: list[int], step_id: str, now: float) -> bool:
    captain = _living_captain(game)
    if captain is None:
        return False
    flow.start_step(game, "tiebreak", now, actor=captain, tied=leaders)
    return True


def _tiebreak_prompt(game, seat, living):
    return [{"action": "tiebreak.choose", "choices": list(game.tied)}]


def _tiebreak(game: Game, seat: int, target: int, now: float) -> None:
    game.emit("tiebreak", EVERYONE, now, captain=seat, target=target)
    flow.eliminate(game, target, now)


def _tiebreak_time_out(game: Game, now: float) -> None:
    game.emit("tiebreak", EVERYONE, now, captain=game.actor, target=None)
    flow.begin_night(game, now)


# --- succession ------------------------------------------------------------------
def _queue(game: Game, died: list[int]) -> None:
    if game.captain is not None and game.captain in died:
        game.pending_succession = game.captain


def _follow_up(game: Game, now: float) -> bool:
    if game.pending_succession is None:
        return False
    actor, game.pending_succession = game.pending_succession, None
    flow.start_step(game, "succession", now, actor=actor)
    return True


def _succession_prompt(game, seat, living):
    return [{"action": "succession.name", "choices": living}]


def _succession_name(game: Game, seat: int, target: int, now: float, **extra) -> None:
    """``extra``: more fields for the event (``testament=True`` when his testament names him)."""
    game.captain = target
    game.emit("succession", EVERYONE, now, previous=seat, captain=target, **extra)
    flow.continue_follow_ups(game, now)


def _succession_time_out(game: Game, now: float) -> None:
    game.captain = None
    game.captaincy_over = True
    game.emit("succession", EVERYONE, now, previous=game.actor, captain=None)
    flow.continue_follow_ups(game, now)


ELECTION = Step("election", "day", (60, 120, 240), time_out=_resolve_election, actors=flow.voters, ballots=True,
                prompt=_election_prompt, actions=(Action("election.vote", SEAT, _election_vote, nullable=True),), order=130)
SUCCESSION = Step("succession", "day", (30, 45, 90), time_out=_succession_time_out, actors=flow.the_actor,
                  prompt=_succession_prompt, actions=(Action("succession.name", SEAT, _succession_name),),
                  shows=("actor",), order=120)
TIEBREAK = Step("tiebreak", "day", (30, 45, 90), time_out=_tiebreak_time_out, actors=flow.the_actor,
                prompt=_tiebreak_prompt, actions=(Action("tiebreak.choose", SEAT, _tiebreak),),
                shows=("actor", "tied"), order=160)

MODULE = registry.register(Module(
    "captain", steps=(ELECTION, SUCCESSION, TIEBREAK),
    hooks={"step_begins": (10, _day_start), "vote_weight": (10, _vote_weight), "vote_tie": (10, _vote_tie),
           "queue_follow_ups": (20, _queue), "follow_up": (20, _follow_up)},
    events=(
        Event("election_result", {"tally": "counts", "captain": "seat?"},
              says=(Say("ev.election_none", when={"captain": None}),
                    Say("ev.election_result", args={"name": "captain"})), moment=True),
        Event("succession", {"previous": "seat", "captain": "seat?", "testament": "bool"},
              says=(Say("ev.succession_none", when={"captain": None}),
                    Say("ev.succession_testament", when={"testament": True}, args={"previous": "previous", "name": "captain"}),
                    Say("ev.succession", args={"previous": "previous", "name": "captain"})), moment=True),
        Event("tiebreak", {"captain": "seat", "target": "seat?"},
              says=(Say("ev.tiebreak_none", when={"target": None}), Say("ev.tiebreak", args={"name": "target"})),
              moment=True),
    ),
    public_events=("election_result", "succession", "tiebreak"),
))
