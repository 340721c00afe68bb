"""The seating ring (RULES-BOX B0.2): seats 1..n clockwise, the dead skipped.

The one place that answers a ring question (the Fox's group, the bear's neighbours, the
Knight's first wolf on his left); always over the players alive when it is asked. The
seat asked about may itself be dead (a Knight scanning from his own seat after his death).
Seats are public: nothing here is a secret.
"""

from .game import Game


def scan_left(game: Game, seat: int) -> list[int]:
    """The living seats met going left (increasing, wrapping from n to 1) from ``seat``,
    stopping before it."""
    n = game.n
    return [s for s in ((seat + i - 1) % n + 1 for i in range(1, n)) if game.player(s).alive]


def scan_right(game: Game, seat: int) -> list[int]:
    """The living seats met going right (decreasing, wrapping from 1 to n), stopping before ``seat``."""
    n = game.n
    return [s for s in ((seat - i - 1) % n + 1 for i in range(1, n)) if game.player(s).alive]


def left(game: Game, seat: int) -> int | None:
    """The first living seat after ``seat`` (None when nobody else lives)."""
    seats = scan_left(game, seat)
    return seats[0] if seats else None


def right(game: Game, seat: int) -> int | None:
    """The first living seat before ``seat``."""
    seats = scan_right(game, seat)
    return seats[0] if seats else None


def neighbours(game: Game, seat: int) -> list[int]:
    """Its left and right neighbours, sorted, itself excluded: two seats, one when only two
    players live, none alone."""
    return sorted({s for s in (left(game, seat), right(game, seat)) if s is not None})
