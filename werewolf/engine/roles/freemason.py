"""Freemasons — Francs-Maçons (RULES-VARIANTS A3.6): two cards; each mason learns the other.

No step. Each mason gets ``freemason`` {partner} and sees the partner's card, at the deal,
or with the Thief in the deck at the end of `thief` (the only moment cards can move),
whatever the Thief did. The other card in the middle: ``partner: null``. No channel of
their own: they talk in `village` like everyone (in `lovers` only if Cupid paired them).

State: ``game.extra["freemason"]`` = {"told": bool}.
"""

from .. import registry
from ..game import Game
from ..registry import Event, Role, Say

ID = "freemason"
CARD_MOVER = "thief"   # the step after which cards no longer move (A3.1)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"told": False}


def _step_starts(game: Game, now: float) -> None:
    """The first step that is not the Thief's: right after the deal, or when `thief` ends;
    with a day 0 (RULES-BOX B3.14) and the Thief in the deck, not before night 1."""
    state = game.extra.get(ID)
    if state is None or state["told"] or game.step == CARD_MOVER or (CARD_MOVER in game.cards and game.night < 1):
        return
    state["told"] = True
    masons = game.seats_with(ID)
    for seat in masons:
        others = [s for s in masons if s != seat]
        game.emit("freemason", seat, now, partner=others[0] if others else None)


def _known(game: Game, seat: int, known: dict) -> None:
    state = game.extra.get(ID)
    if state is not None and state["told"] and game.player(seat).role == ID:
        known.update({s: ID for s in game.seats_with(ID)})


ROLE = registry.register(Role(
    ID, emoji="🤝", camp=registry.VILLAGE, cards=2,
    hooks={"deal": _deal, "step_starts": (5, _step_starts), "known_roles": _known},
    events=(Event("freemason", {"partner": "seat?"},
                  says=(Say("ev.freemason_alone", when={"partner": None}), Say("ev.freemason", args={"name": "partner"})),
                  timeline=(Say("tl.freemason", when={"partner": True}, args={"name": "partner"}),),
                  moment=True, on_card=True),),
))
