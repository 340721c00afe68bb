"""A new card, to copy: ``cp _template.py <id>.py``, set ID, write its rules (see docs/ENGINE.md
"How to add a role"). This one is a working card: the Gravedigger (not a card of the
rules), a village card who, each night, names a living player and learns that player's
camp the next morning, privately. Files whose name starts with "_" are never imported
as cards (roles/__init__.py); tests/engine/test_template.py plays this one under another
id to keep it true.

A card touches: this module, its words file (werewolf/web/words/<id>.py: this card's is in
docs/ENGINE.md), the translation catalogs (./scripts/translations) and its tests
(tests/engine/roles/test_<id>.py, its line in the audit's oracle tests/kit/audit.py).
"""

from .. import flow, registry
from ..game import Game
from ..registry import SEAT, Action, Event, Role, Say, Step

ID = "gravedigger"          # the card's id: its module's name, its words file's name
STEP_ID = "gravedigger"     # its night step (the words step.<id>, limit.<id>)
ACTION = f"{STEP_ID}.name"  # its action (the words prompt.<action>)


def _state(game: Game) -> dict:
    return game.extra[ID]   # a card's state lives in its game, never in this module


def _prompt(game: Game, seat: int, living) -> list[dict]:
    return [{"action": ACTION, "choices": [s for s in living if s != seat]}]


def _name(game: Game, seat: int, target: int, now: float) -> None:
    _state(game)["named"] = target
    flow.next_night_step(game, STEP_ID, now)


def _time_out(game: Game, now: float) -> None:
    flow.next_night_step(game, STEP_ID, now)   # nobody named tonight


def _deal(game: Game) -> None:
    if ID in game.cards:    # its hooks run only in games that dealt it, and check this first
        game.extra[ID] = {"named": None, "learned": {}}


def _night_end(game: Game, now: float) -> bool:
    """After the night's deaths (A2.3): he learns the camp of whom he named, if he lives."""
    target = (game.extra.get(ID) or {}).get("named")
    holder = game.alive_holder(ID) if target else None
    if holder is not None:
        camp = registry.camp(game.player(target).role)
        _state(game)["learned"][str(target)] = camp
        game.emit("gravedigger_learns", holder, now, night=game.night, target=target, camp=camp)
    if target:
        _state(game)["named"] = None
    return False            # never ends the game


def _view(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    if game.player(seat).role == ID:
        me["learned_camps"] = dict(_state(game)["learned"])


STEP = Step(STEP_ID, "night", (20, 30, 60), time_out=_time_out, actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action(ACTION, SEAT, _name),),
            night_order=45,   # after the guard (35), before the plague (55) and the wolves (70)
            runs=flow.holder_runs(ID), role=ID)

ROLE = registry.register(Role(
    ID, emoji="⚰️", camp=registry.VILLAGE, steps=(STEP,),
    hooks={"deal": _deal, "night_end": (20, _night_end), "view": (5, _view)},
    me={"learned_camps": "object"},   # the fields _view adds to view['me']: seat -> camp (the OpenAPI description reads them)
    events=(
        Event("gravedigger_learns", {"night": "int", "target": "seat", "camp": "camp"},
              says=(Say("ev.gravedigger_learns", args={"name": "target", "camp": "camp"}),),
              timeline=(Say("tl.gravedigger_learns", args={"name": "target", "camp": "camp"}),),
              moment=True),   # told at dawn, on top of his phone (his card turned over)
    ),
))
