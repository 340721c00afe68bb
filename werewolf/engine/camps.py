"""Who plays with whom, seat by seat (RULES-VARIANTS A4, RULES-BOX B4).

A card has a camp (``Role.camp``: village, wolves, solitary) and a side
(``registry.side``: its camp, or a solitary's own id). A *seat*'s side may differ from
its card's: a seat that joined the pack plays with the wolves, whatever his card (a
solitary infected loses his solo win, B3.11); and a card may say more through the hook
``seat_side`` (the Angel, solitary before day 1, B3.14). The end check, the lovers'
mixed couple and the camp Seer all ask here. A dead player keeps the side he had at his
death: the changes above never touch the dead (one joins the pack alive; the Angel's
day 1 comes with him alive or the game already over).
"""

from . import registry
from .game import Game

CAMP_OF_SIDE = {registry.VILLAGE: registry.VILLAGE, registry.WOLVES: registry.WOLVES}


def side_of(game: Game, seat: int) -> str:
    """Who this seat plays with now: ``village``, ``wolves`` or a solitary card's id."""
    if seat in game.extra.get("pack", ()):
        return registry.WOLVES
    side = registry.side(game.player(seat).role)
    if "seat_side" in game.in_play.hooks:
        for hook in game.in_play.hooks["seat_side"]:
            side = hook(game, seat, side)
    return side


def camp_of(game: Game, seat: int) -> str:
    """This seat's camp now: ``village``, ``wolves`` or ``solitary`` (the camp Seer's answer)."""
    return CAMP_OF_SIDE.get(side_of(game, seat), registry.SOLITARY)


def is_solitary(game: Game, seat: int) -> bool:
    return side_of(game, seat) not in CAMP_OF_SIDE
