"""The lovers (RULES.md §4, §6): one dies of grief with the other; a mixed couple plays alone.

Not a card: Cupid makes them (``game.lovers``); this module says what it means.
"""

from .. import camps, registry
from ..game import Game
from ..registry import Module


def _partner(game: Game, seat: int) -> int:
    return game.lovers[0] if game.lovers[1] == seat else game.lovers[1]


def _grief(game: Game, died: list) -> None:
    if game.lovers:
        for seat, _ in list(died):
            if seat in game.lovers:
                other = _partner(game, seat)
                if game.player(other).alive:
                    game.player(other).alive = False
                    died.append((other, "grief"))
                    # Kept for the griever alone: at dawn the causes stay secret (§4, A2.3),
                    # yet the one who died of grief may know why (issue 35).
                    game.extra.setdefault("grief", []).append(other)


def _mixed(game: Game) -> set:
    """Lovers of two different camps play only for their couple (A4): judged on their
    sides now (a bitten Cursed, a seat that joined the pack: wolves), and two solitaries
    are two camps."""
    if game.lovers:
        a, b = (camps.side_of(game, seat) for seat in game.lovers)
        if a != b:
            return set(game.lovers)
    return set()


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    # Told at the end of Cupid's step (in a fixed night it lasts after his choice).
    if game.lovers and seat in game.lovers and game.step != "cupid":
        me["lover"] = _partner(game, seat)
    if seat in game.extra.get("grief", ()):
        me["died_of"] = "grief"


MODULE = registry.register(Module("lovers", hooks={"grief": (10, _grief), "mixed_couple": (10, _mixed),
                                                   "view": (1, _view_me)},
                                  me={"lover": "seat", "died_of": "text"}))
