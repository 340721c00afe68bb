"""Guard — Salvateur (RULES-VARIANTS A3.3): each night he protects one player from the
wolves' attack, never the same player two nights in a row.

State (``game.extra["guard"]``): ``protecting`` tonight's choice, ``last`` the player he
protected the night before (None: nobody). The Witch still learns the wolves' choice and
may spend her potion on a protected player (A3.3): the protection is never told.
"""

from .. import flow, registry
from ..game import Game
from ..registry import CONFIRM, SEAT, Action, Event, Role, Say, Step

ID = "guard"


def _state(game: Game) -> dict:
    return game.extra[ID]


def _prompt(game: Game, seat: int, living):
    state = _state(game)
    return [{"action": "guard.protect", "choices": [s for s in living if s != state["last"]],
             "nullable": True, "current": state["protecting"]},
            {"action": "guard.done"}]


def _protect(game: Game, seat: int, target, now: float) -> None:
    """Set, change or withdraw tonight's protection; the step goes on."""
    if _state(game)["protecting"] == target:
        return   # the same choice again changes nothing
    _state(game)["protecting"] = target
    game.emit_choice("guard_protect", seat, now, night=game.night, target=target)


def _done(game: Game, seat: int, _, now: float) -> None:
    flow.next_night_step(game, ID, now)


def _time_out(game: Game, now: float) -> None:
    flow.next_night_step(game, ID, now)   # his last choice stands


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"protecting": None, "last": None}


def _night_begins(game: Game) -> None:
    state = game.extra.get(ID)
    if state is not None:
        state["last"], state["protecting"] = state["protecting"], None


def _attack(game: Game, victim: int) -> int | None:
    """Only the wolves' attack: not the poison, a shot, grief or the vote."""
    state = game.extra.get(ID)
    return None if state is not None and state["protecting"] == victim else victim


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    if game.player(seat).role == ID:
        me["protecting"] = _state(game)["protecting"]
        me["protected_last"] = _state(game)["last"]


STEP = Step(ID, "night", (20, 30, 60), time_out=_time_out, actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("guard.protect", SEAT, _protect, nullable=True), Action("guard.done", CONFIRM, _done)),
            night_order=35, runs=flow.holder_runs(ID), role=ID)

ROLE = registry.register(Role(
    ID, emoji="🛡️", camp=registry.VILLAGE, steps=(STEP,),
    hooks={"deal": _deal, "night_begins": _night_begins, "night_attack": (10, _attack), "view": (5, _view_me)},
    events=(Event("guard_protect", {"night": "int", "target": "seat?"},
                  says=(Say("ev.guard_protect_none", when={"target": None}),
                        Say("ev.guard_protect", args={"name": "target"})),
                  timeline=(Say("tl.guard_protect_none", when={"target": None}),   # the end: third person
                            Say("tl.guard_protect", args={"name": "target"}))),),
))
