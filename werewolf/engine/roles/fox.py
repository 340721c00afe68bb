"""Fox — Renard (RULES-BOX B3.7): each night he points at a player; if that player or one of
his two neighbours is a werewolf (a pack member), he keeps his flair, else he loses it.

State (``game.extra["fox"]``): ``flair`` (bool). Without flair, or powerless, his step is a
ghost step (B0.4). The answer comes at once, over the ring as it is then (B0.2).
"""

from .. import flow, powers, registry, ring
from ..game import Game
from ..registry import CONFIRM, SEAT, Action, Event, Role, Say, Step

ID = "fox"


def _state(game: Game) -> dict:
    return game.extra[ID]


def _actors(game: Game, living):
    seat = game.alive_holder(ID)
    if seat is None or not powers.has_power(game, seat) or not _state(game)["flair"]:
        return []
    return [seat]


def _prompt(game: Game, seat: int, living):
    return [{"action": "fox.sniff", "choices": living}, {"action": "fox.done"}]


def _sniff(game: Game, seat: int, target: int, now: float) -> None:
    group = sorted([target, *ring.neighbours(game, target)])
    wolf = any(game.in_pack(s) for s in group)
    if not wolf:
        _state(game)["flair"] = False   # for good
    game.emit("fox_sniff", seat, now, night=game.night, target=target, group=group, wolf=wolf)
    flow.next_night_step(game, ID, now)


def _done(game: Game, seat: int, _, now: float) -> None:
    flow.next_night_step(game, ID, now)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"flair": True}


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    if game.player(seat).role == ID:
        me["flair"] = _state(game)["flair"]


STEP = Step(ID, "night", (20, 30, 60), time_out=lambda game, now: flow.next_night_step(game, ID, now),
            actors=_actors, prompt=_prompt,
            actions=(Action("fox.sniff", SEAT, _sniff), Action("fox.done", CONFIRM, _done)),
            night_order=32, runs=flow.holder_runs(ID), role=ID)   # after the seer (30), before the guard (35)

ROLE = registry.register(Role(
    ID, emoji="🦊", camp=registry.VILLAGE, steps=(STEP,),
    hooks={"deal": _deal, "view": (5, _view_me)},
    me={"flair": "bool"},   # his only (_view_me)
    events=(Event("fox_sniff", {"night": "int", "target": "seat", "group": "seats", "wolf": "bool"},
                  says=(Say("ev.fox_sniff_wolf", when={"wolf": True}, args={"names": "group"}),
                        Say("ev.fox_sniff_none", args={"names": "group"})),
                  timeline=(Say("tl.fox_sniff_wolf", when={"wolf": True}, args={"name": "target"}),
                            Say("tl.fox_sniff_none", args={"name": "target"}))),),
))
