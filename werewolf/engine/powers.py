"""Powers lost (RULES-BOX B0.4, B6.1): a powerless player's card does nothing more.

``game.extra["powerless"]``: the seats whose card's powers are gone for the rest of the
game (absent while nobody lost them). A powerless player keeps what he learned, his vote
and his words. His night step still runs, as a **ghost step**: full limit, nobody's
prompt (``flow.alive_holder_acts`` offers him nothing), so that no step's length tells
who still has a power. Each card says what else it loses where its rule lives (the
Witch's potions, the Hunter's shot), by asking ``has_power``.
"""

from .game import Game

ID = "powerless"


def has_power(game: Game, seat: int) -> bool:
    return seat not in game.extra.get(ID, ())


def powerless(game: Game) -> list[int]:
    return list(game.extra.get(ID, ()))


def take_powers(game: Game, seats) -> list[int]:
    """These seats lose their powers now, for good; returns those who had them."""
    lost = game.extra.setdefault(ID, [])
    newly = [s for s in seats if s not in lost]
    lost.extend(newly)
    lost.sort()
    return newly
