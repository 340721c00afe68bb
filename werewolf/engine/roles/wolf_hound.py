"""Wolf-Hound — Chien-Loup (RULES-BOX B3.13): on the first night he chooses, for good, to
be a villager or a werewolf.

Step `wolf_hound`, night 1 only, after the Wild Child, before the Sisters. Either choice
ends the step and is final (a second one: ``already_done``); the time-out is the village.
He is told ``wolf_hound_choice`` {side}. Choosing the wolves he joins the pack at once
(``pack.join``: ``wolves_joined`` to the pack) and hunts this very night; his card stays
``wolf_hound`` (B0.3), his side is the wolves' (``camps.side_of`` reads the pack). The
village's choice changes nothing: his card is a village card.

State (``game.extra["wolf_hound"]``, while his card is in the deck): ``side`` (None until
he chose).
"""

from .. import flow, pack, registry
from ..game import Game
from ..registry import CONFIRM, Action, Event, Role, Say, Step

ID = "wolf_hound"
VILLAGE, WOLVES = "village", "wolves"


def _state(game: Game) -> dict:
    return game.extra[ID]


def _actors(game: Game, living):
    """The living holder, powers or not: his choice is no power (B6.1)."""
    seat = game.alive_holder(ID)
    return [seat] if seat is not None else []


def _prompt(game: Game, seat: int, living):
    return [] if _state(game)["side"] else [{"action": "wolf_hound.village"}, {"action": "wolf_hound.wolves"}]


def _choose(game: Game, seat: int, side: str, now: float) -> None:
    _state(game)["side"] = side
    game.emit("wolf_hound_choice", seat, now, side=side)
    if side == WOLVES:
        pack.join(game, seat, now)


def _village(game: Game, seat: int, _, now: float) -> None:
    _choose(game, seat, VILLAGE, now)
    _chosen(game, now)


def _wolves(game: Game, seat: int, _, now: float) -> None:
    _choose(game, seat, WOLVES, now)
    _chosen(game, now)


def _chosen(game: Game, now: float) -> None:
    # In a fixed night his own step lasts its limit: his prompt stays empty (a second
    # choice: already_done); else the step ends.
    if flow.ends_early(game):
        flow.next_night_step(game, ID, now)


def _time_out(game: Game, now: float) -> None:
    seat = game.alive_holder(ID)
    if seat is not None and _state(game)["side"] is None:   # a ghost step (card in the middle): nobody
        _choose(game, seat, VILLAGE, now)   # (decision) a dog stays by the fire
    flow.next_night_step(game, ID, now)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"side": None}


STEP = Step(ID, "night", (20, 30, 60), time_out=_time_out, actors=_actors, prompt=_prompt,
            actions=(Action("wolf_hound.village", CONFIRM, _village, icon="🏡"),
                     Action("wolf_hound.wolves", CONFIRM, _wolves, icon="🐺", style="danger")),
            layout="menu",
            night_order=24, runs=flow.holder_runs(ID, first_night_only=True), role=ID,
            fixed_night="first_night")   # after wild_child (22), before sisters (26)

ROLE = registry.register(Role(
    ID, emoji="🐕", camp=registry.VILLAGE, steps=(STEP,), hooks={"deal": _deal},
    events=(Event("wolf_hound_choice", {"side": "camp"},
                  says=(Say("ev.wolf_hound_wolves", when={"side": WOLVES}), Say("ev.wolf_hound_village")),
                  timeline=(Say("tl.wolf_hound_wolves", when={"side": WOLVES}), Say("tl.wolf_hound_village"))),),
))
