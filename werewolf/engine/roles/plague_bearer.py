"""Plague-Bearer — Pesteux (RULES-VARIANTS A3.10): each night he names a player to
contaminate; he wins alone when every other living player is contaminated.

State (``game.extra["plague_bearer"]``): ``target`` tonight's choice, ``contaminated``
every player he contaminated (dead or alive), in order. The dead are counted first
(A2.3 step 5, hook ``night_end``): the target is contaminated at the end of the night
only if both are still alive, then the end check runs again. Nobody is told of a
contamination but him; the Guard does not protect from it.
"""

from .. import flow, registry
from ..errors import IllegalAction
from ..game import Game
from ..registry import SEAT, Action, Event, Role, Say, Step

ID = "plague_bearer"


def _state(game: Game) -> dict:
    return game.extra[ID]


def _prompt(game: Game, seat: int, living):
    done = set(_state(game)["contaminated"])
    choices = [s for s in living if s != seat and s not in done]
    # Everyone else alive is contaminated, yet no win (a mixed couple): nothing to offer.
    return [{"action": "plague.infect", "choices": choices}] if choices else []


def _infect(game: Game, seat: int, target: int, now: float) -> None:
    _state(game)["target"] = target
    game.emit("plague_infect", seat, now, night=game.night, target=target)
    flow.next_night_step(game, "plague", now)


def _time_out(game: Game, now: float) -> None:
    flow.next_night_step(game, "plague", now)   # (decision) nobody contaminated


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"target": None, "contaminated": []}


def _night_begins(game: Game) -> None:
    state = game.extra.get(ID)
    if state is not None:
        state["target"] = None


def _spread(game: Game, now: float) -> bool:
    state = game.extra.get(ID)
    if state is None or state["target"] is None:
        return False
    target, state["target"] = state["target"], None
    bearer = game.alive_holder(ID)
    if bearer is None or not game.player(target).alive:
        return False   # the dead are counted first
    state["contaminated"].append(target)
    game.emit("contaminated", bearer, now,
              seats=[s for s in state["contaminated"] if game.player(s).alive])
    flow.note_change(game)
    return flow.check_end(game, now)


def _win(game: Game, check: flow.EndCheck) -> None:
    bearer = game.alive_holder(ID)
    if bearer is None or bearer in check.mixed:
        return
    contaminated = set(_state(game)["contaminated"])
    if all(s == bearer or s in contaminated for s in check.living):   # also alone alive (decision)
        check.winner = {"camp": ID, "seats": [bearer]}


def _view(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    if game.player(seat).role == ID:
        me["contaminated"] = sorted(_state(game)["contaminated"])


STEP = Step("plague", "night", (20, 30, 60), time_out=_time_out, actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("plague.infect", SEAT, _infect, refusal=lambda game, seat: IllegalAction(
                "invalid_target", "every other living player is contaminated already")),),
            night_order=55,   # after the guard (35) and the owl, before the werewolves (70)
            runs=flow.holder_runs(ID), role=ID)

ROLE = registry.register(Role(
    ID, emoji="🦠", camp=registry.SOLITARY, steps=(STEP,),
    hooks={"deal": _deal, "night_begins": _night_begins, "night_end": (10, _spread),
           "end_check": (30, _win), "view": (5, _view)},
    me={"contaminated": "seats"},   # his only (_view)
    events=(
        Event("plague_infect", {"night": "int", "target": "seat"},
              says=(Say("ev.plague_infect", args={"name": "target"}),),
              timeline=(Say("tl.plague_infect", args={"name": "target"}),)),
        Event("contaminated", {"seats": "seats"},
              says=(Say("ev.contaminated_none", when={"seats": False}),
                    Say("ev.contaminated", args={"names": "seats"})),
              timeline=()),   # his private count: the timeline tells each contamination
    ),
))
