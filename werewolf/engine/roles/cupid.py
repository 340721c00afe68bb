"""Cupid — Cupidon (RULES.md §3): on the first night he makes two players lovers.

What the lovers then do (grief, their win) is the `lovers` module.
"""

from .. import flow, registry
from ..game import AT_END, Game
from ..registry import SEATS, Action, Event, Role, Say, Step

ID = "cupid"


def _prompt(game: Game, seat: int, living):
    if game.lovers:   # paired in a fixed night: the step lasts, his prompt is closed
        return []
    return [{"action": "cupid.pair", "choices": living, "count": 2}]


def _pair(game: Game, seat: int, targets: list[int], now: float) -> None:
    game.lovers = targets
    game.emit("cupid_pair", seat, now, targets=targets)
    if flow.ends_early(game):   # else a fixed night: the lovers are told when the step ends (A2.1, A7.1)
        _tell_lovers(game, now)
        flow.next_night_step(game, ID, now)


def _tell_lovers(game: Game, now: float) -> None:
    a, b = game.lovers
    game.emit("lover", a, now, partner=b)
    game.emit("lover", b, now, partner=a)


def _time_out(game: Game, now: float) -> None:
    if game.lovers:           # paired during a fixed night's cupid step
        _tell_lovers(game, now)
    elif game.holder(ID) is not None:
        # A ghost step (his card in the middle) is nobody's silence: the end must not say he chose no one.
        game.emit("cupid_silent", AT_END, now)
    flow.next_night_step(game, ID, now)


STEP = Step(ID, "night", (30, 45, 90), time_out=_time_out, actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("cupid.pair", SEATS, _pair),), night_order=20,
            runs=flow.holder_runs(ID, first_night_only=True), role=ID, fixed_night="first_night")

ROLE = registry.register(Role(ID, emoji="💘", camp=registry.VILLAGE, default=True, base=True, steps=(STEP,),
                              events=(
    Event("cupid_pair", {"targets": "seats"},
          says=(Say("ev.cupid_pair", args={"a": "targets.0", "b": "targets.1"}),),
          timeline=(Say("tl.cupid_pair", args={"a": "targets.0", "b": "targets.1"}),), on_card=True),
    Event("lover", {"partner": "seat"}, says=(Say("ev.lover", args={"name": "partner"}),), timeline=(), moment=True),
    Event("cupid_silent", says=(Say("ev.cupid_silent"),)),
), end_events=("cupid_silent",)))
