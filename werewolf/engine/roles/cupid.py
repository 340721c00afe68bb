"""Cupid — Cupidon (RULES.md §3): on the first night he makes two players lovers.

What the lovers then do (grief, their win) is the `lovers` module.
"""

from .. import flow, registry
from ..game import AT_END, Game
from ..registry import SEATS, Action, Role, Step

ID = "cupid"


def _prompt(game: Game, seat: int, living):
    return [{"action": "cupid.pair", "choices": living, "count": 2}]


def _pair(game: Game, seat: int, targets: list[int], now: float) -> None:
    game.lovers = targets
    game.emit("cupid_pair", seat, now, targets=targets)
    for lover in targets:
        partner = targets[0] if targets[1] == lover else targets[1]
        game.emit("lover", lover, now, partner=partner)
    flow.next_night_step(game, ID, now)


def _time_out(game: Game, now: float) -> None:
    game.emit("cupid_silent", AT_END, now)
    flow.next_night_step(game, ID, now)


STEP = Step(ID, "night", (30, 45, 90), time_out=_time_out, actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("cupid.pair", SEATS, _pair),), night_order=20,
            runs=flow.holder_runs(ID, first_night_only=True), role=ID)

ROLE = registry.register(Role(ID, emoji="💘", camp=registry.VILLAGE, default=True, base=True, steps=(STEP,),
                              events=("cupid_pair", "lover", "cupid_silent")))
