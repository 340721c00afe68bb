"""Speaking in turn — `speech_turns` (RULES-VARIANTS A5.5, 004 variant): the debate is
replaced by one `speech` step per living player (`step.actor` the speaker, who alone
writes in `village`; `speech.done` or the time-out passes to the next), then `vote`.

Order: increasing seats, wrapping round (seats are numbered clockwise), starting after
the lowest-numbered player who died in the last night (the deaths announced at dawn,
A13); if nobody died, after the living Captain; else at seat 1. Day 1 with the election:
the turns first, then `election`, then `vote` (004, K18).
"""
from .. import flow, registry
from ..game import Game
from ..registry import CONFIRM, Action, Option, Step

ID = "speech_turns"


def _on(game: Game) -> bool:
    return registry.option_value(game, ID) is True


def speaking_order(game: Game) -> list[int]:
    """The living in speaking order, from public facts only (the night's dead, the Captain, seats)."""
    night_dead = next((e["deaths"] for e in reversed(game.events)
                       if e["kind"] == "deaths" and e["moment"] == "night"), [])
    captain = game.captain if game.captain is not None and game.player(game.captain).alive else None
    if night_dead:
        after = min(d["seat"] for d in night_dead)
    elif captain is not None:
        after = captain
    else:
        after = 0                   # seat 1 first
    seats = sorted(game.living())
    return [s for s in seats if s > after] + [s for s in seats if s <= after]


def _turns(game: Game) -> dict:
    return game.extra.get(ID, {})


def _day_start(game: Game, now: float) -> bool:
    if not _on(game) or _turns(game).get("day") == game.day:
        return False
    game.extra[ID] = {"day": game.day, "queue": speaking_order(game)}
    _next_speaker(game, now)
    return True


def _next_speaker(game: Game, now: float) -> None:
    queue = _turns(game)["queue"]
    if queue:
        flow.start_step(game, "speech", now, actor=queue.pop(0))
    else:
        flow.begin_day(game, now)   # the turns are over: the election (day 1) or the vote


def _debate_opens(game: Game, now: float) -> bool:
    if not _on(game):
        return False
    flow.start_step(game, "vote", now)
    return True


def _step_begins(game: Game, kind: str, now: float) -> bool:
    """The turns open the day (before day 1's election), then the vote takes the debate's place."""
    if kind == flow.DAY_OPENS:
        return _day_start(game, now)
    return kind == flow.TALK_OPENS and _debate_opens(game, now)


def _village_writers(game: Game):
    return [game.actor] if game.step == "speech" else None


def _done(game: Game, seat: int, _, now: float) -> None:
    _next_speaker(game, now)


def _night_begins(game: Game) -> None:
    game.extra.pop(ID, None)


SPEECH = Step("speech", "day", (20, 30, 60), time_out=lambda game, now: _next_speaker(game, now),
              actors=flow.the_actor, prompt=lambda game, seat, living: [{"action": "speech.done"}],
              actions=(Action("speech.done", CONFIRM, _done),), shows=("actor",), order=135)

OPTION = registry.register_option(Option(
    id=ID, default=False, group="votes", check=lambda value: isinstance(value, bool), steps=(SPEECH,),
    hooks={"step_begins": (5, _step_begins), "village_writers": _village_writers,
           "night_begins": _night_begins}))
