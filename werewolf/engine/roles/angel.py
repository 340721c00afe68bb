"""Angel — Ange (RULES-BOX B3.14): the game opens with a day 0 (a debate and a vote); if
the Angel dies before day 1 begins, he wins alone at once; afterwards he is a Villager.

With his card in the deck (dealt or in the middle) the game opens with day 0 (hook
``game_opens``; the kernel runs its debate and vote, then night 1). "The first round" is
one moment (decision): any death of the Angel before the first step of day 1 begins —
voted out on day 0, shot, of grief, in night 1's batch, by a Hunter's shot at dawn —
ends the game: winner {camp: angel, seats: [his]} (A4 rule 1, hook ``solo_win``), unless
he is in a mixed couple (he then plays for the couple, A3.9). Until then his seat is a
solitary's (it blocks both camps); when day 1's first step begins (hook ``day_start``,
before the election) he becomes a village card for every rule (hook ``seat_side``), and
an end check runs at that moment.

State (``game.extra["angel"]``, while his card is in the deck): ``villager`` (day 1 began).
"""

from .. import flow, registry
from ..game import Game
from ..registry import Role

ID = "angel"


def _first_round(game: Game) -> bool:
    state = game.extra.get(ID)
    return state is not None and not state["villager"]


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"villager": False}


def _step_begins(game: Game, kind: str, now: float) -> bool:
    if kind == flow.GAME_OPENS:
        return ID in game.cards   # a day 0 before night 1
    return kind == flow.DAY_OPENS and _day_starts(game, now)


def _win(game: Game, check: flow.EndCheck) -> None:
    seat = game.holder(ID)
    if seat is not None and _first_round(game) and not game.player(seat).alive and seat not in check.mixed:
        check.winner = {"camp": ID, "seats": [seat]}


def _day_starts(game: Game, now: float) -> bool:
    """Day 1's first step is about to begin: the Angel is a villager from now on."""
    if not _first_round(game):
        return False
    game.extra[ID]["villager"] = True
    return flow.check_end(game, now)   # ended: no step to start


def _side(game: Game, seat: int, side: str) -> str:
    if side == ID and not _first_round(game) and game.player(seat).role == ID:
        return registry.VILLAGE
    return side


ROLE = registry.register(Role(
    ID, emoji="😇", camp=registry.SOLITARY,
    hooks={"deal": _deal, "step_begins": (1, _step_begins), "end_check": (10, _win),
           "seat_side": _side},
))
