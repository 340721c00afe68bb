"""Jester — Bouffon (RULES-VARIANTS A3.9): a solitary who wins alone, at once, when the
village eliminates him by a vote (the Captain's tie-break included).

Any other death is an ordinary one. In a couple he is always in a mixed couple (nobody
shares his camp): then he plays for the couple and a vote elimination is just a death.
While alive and not in a mixed couple he blocks both camps (the kernel's A4 rule 5,
from his camp).
"""

from .. import flow, registry
from ..game import Game
from ..registry import Role

ID = "jester"


def _win(game: Game, check: flow.EndCheck) -> None:
    voted_out = check.voted_out
    if voted_out is not None and game.player(voted_out).role == ID and voted_out not in check.mixed:
        check.winner = {"camp": ID, "seats": [voted_out]}              # A4 rule 1
    elif check.living == [game.holder(ID)] and check.living[0] not in check.mixed:
        # (decision) Alone alive, nobody is left to vote him out: nobody wins, the game
        # being stuck as in the stalemate (A4 rule 8), without waiting three days.
        check.winner = {"camp": registry.WINNER_NONE, "reason": "stalemate", "seats": []}


ROLE = registry.register(Role(ID, emoji="🤡", camp=registry.SOLITARY, hooks={"end_check": (10, _win)}))
