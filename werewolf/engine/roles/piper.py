"""Pied Piper — Joueur de flûte (RULES-BOX B3.4): each night he charms two more players;
when every other living player is charmed while he lives, he wins alone.

State (``game.extra["piper"]``): ``targets`` tonight's choice, ``charmed`` every player he
charmed (dead or alive), in order. The charm takes at the end of the night, after the
deaths and the plague (hook ``night_end`` at 20): each target alive is charmed if the
Piper lives, then the end check runs. The Piper and each living charmed learn the circle
(``charmed`` {seats}: seats, never cards), one event each; nobody else learns a charm.
"""

from .. import camps, flow, registry
from ..game import Game
from ..registry import SEATS, Action, Event, Role, Say, Step

ID = "piper"


def _state(game: Game) -> dict:
    return game.extra[ID]


def _circle(game: Game) -> list[int]:
    return sorted(s for s in _state(game)["charmed"] if game.player(s).alive)


def _prompt(game: Game, seat: int, living):
    charmed = set(_state(game)["charmed"])
    choices = [s for s in living if s != seat and s not in charmed]
    # Nobody left to charm: the step runs with no prompt for him (a ghost step, B13).
    return [{"action": "piper.charm", "choices": choices, "count": min(2, len(choices))}] if choices else []


def _charm(game: Game, seat: int, targets: list[int], now: float) -> None:
    _state(game)["targets"] = targets
    game.emit("piper_charm", seat, now, night=game.night, targets=targets)
    flow.next_night_step(game, ID, now)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"targets": [], "charmed": []}


def _night_begins(game: Game) -> None:
    state = game.extra.get(ID)
    if state is not None:
        state["targets"] = []


def _charm_takes(game: Game, now: float) -> bool:
    state = game.extra.get(ID)
    if state is None or not state["targets"]:
        return False
    targets, state["targets"] = state["targets"], []
    piper = game.alive_holder(ID)
    taken = [s for s in targets if piper is not None and game.player(s).alive]   # the dead are counted first
    if not taken:
        return False
    state["charmed"].extend(taken)
    circle = _circle(game)
    for seat in [piper, *circle]:
        game.emit("charmed", seat, now, seats=circle)
    return flow.check_end(game, now)


def _win(game: Game, check: flow.EndCheck) -> None:
    piper = game.alive_holder(ID)
    if piper is None or piper in check.mixed or camps.side_of(game, piper) != ID:
        return   # dead, in a mixed couple, or infected: no solo win (B3.11)
    charmed = set(_state(game)["charmed"])
    if all(s == piper or s in charmed for s in check.living):   # also alone alive
        check.winner = {"camp": ID, "seats": [piper]}


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    state = game.extra.get(ID)
    if state is None:
        return
    if game.player(seat).role == ID or (seat in state["charmed"] and game.player(seat).alive):
        me["charmed"] = _circle(game)


STEP = Step(ID, "night", (20, 30, 60), time_out=lambda game, now: flow.next_night_step(game, ID, now),
            actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("piper.charm", SEATS, _charm),),
            night_order=85, runs=flow.holder_runs(ID), role=ID)   # after the witch (80), before the raven (90)

ROLE = registry.register(Role(
    ID, emoji="🪈", camp=registry.SOLITARY, steps=(STEP,),
    hooks={"deal": _deal, "night_begins": _night_begins, "night_end": (20, _charm_takes),
           "end_check": (35, _win), "view": (5, _view_me)},
    me={"charmed": "seats"},   # the Piper's and each living charmed's (_view_me)
    events=(Event("piper_charm", {"night": "int", "targets": "seats"},
                  says=(Say("ev.piper_charm", args={"names": "targets"}),),
                  timeline=(Say("tl.piper_charm", args={"names": "targets"}),)),
            Event("charmed", {"seats": "seats"}, says=(Say("ev.charmed", args={"names": "seats"}),),
                  timeline=(), on_card=True)),   # the circle, on the card of whom it was told
))
