"""Wild Child — Enfant sauvage (RULES-BOX B3.6): on the first night he secretly picks a
model; if the model dies, he joins the pack (whether the model was a wolf changes nothing).

State (``game.extra["wild_child"]``): ``model`` his model's seat (None: none), ``turned``
whether he joined. The turn comes with the batch of deaths that holds the model (hook
``died``), any cause, any time, while he lives: ``wild_child_turned`` {model} to him, then
``wolves_joined`` to the pack (pack.join). His card stays `wild_child`.
"""

from .. import flow, pack, registry
from ..game import Game
from ..registry import SEAT, Action, Event, Role, Say, Step

ID = "wild_child"


def _state(game: Game) -> dict:
    return game.extra[ID]


def _prompt(game: Game, seat: int, living):
    return [{"action": "wild_child.model", "choices": [s for s in living if s != seat]}]


def _model(game: Game, seat: int, target: int, now: float) -> None:
    _state(game)["model"] = target
    game.emit("wild_child_model", seat, now, target=target)
    flow.next_night_step(game, ID, now)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"model": None, "turned": False}


def _turn(game: Game, died: list, now: float) -> None:
    state = game.extra.get(ID)
    if state is None or state["model"] is None or state["turned"]:
        return
    if any(seat == state["model"] for seat, _ in died):
        child = game.alive_holder(ID)
        if child is None:
            return   # dead (of grief with his model too): he does not turn
        state["turned"] = True
        game.emit("wild_child_turned", child, now, model=state["model"])
        pack.join(game, child, now)


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    if game.player(seat).role == ID and _state(game)["model"] is not None:
        me["model"] = _state(game)["model"]


STEP = Step(ID, "night", (20, 30, 60), time_out=lambda game, now: flow.next_night_step(game, ID, now),
            actors=flow.alive_holder_acts(ID), prompt=_prompt, actions=(Action("wild_child.model", SEAT, _model),),
            night_order=22, runs=flow.holder_runs(ID, first_night_only=True), role=ID,
            fixed_night="first_night")   # after cupid (20), before the wolf_hound (24)

ROLE = registry.register(Role(
    ID, emoji="🧒", camp=registry.VILLAGE, steps=(STEP,),
    hooks={"deal": _deal, "died": (20, _turn), "view": (5, _view_me)},
    me={"model": "seat"},   # his only, once chosen (_view_me)
    events=(Event("wild_child_model", {"target": "seat"}, says=(Say("ev.wild_child_model", args={"name": "target"}),),
                  timeline=(Say("tl.wild_child_model", args={"name": "target"}),)),
            Event("wild_child_turned", {"model": "seat"}, says=(Say("ev.wild_child_turned", args={"name": "model"}),),
                  timeline=(Say("tl.wild_child_turned", args={"name": "model"}),), moment=True)),
))
