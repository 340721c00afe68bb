"""Medium — Médium (RULES-VARIANTS A3.7): while alive he reads the dead's channel and writes
in it, day and night; by day he also talks in `village` like any living player.

No step and no state: his messages carry his seat and name (as a forum post), and the
living others see no change at all (no channel, no version move: the `dead` channel's
audience is the dead and him). The ban on quoting the cemetery is a reminder on his card.
"""

from .. import powers, registry
from ..game import Game
from ..registry import Role

ID = "medium"


def _alive_medium(game: Game) -> int | None:
    seat = game.alive_holder(ID)
    return seat if seat is not None and powers.has_power(game, seat) else None   # RULES-BOX B6.1


def _readers(game: Game, channel: str, seats: list[int]) -> None:
    seat = _alive_medium(game) if channel == "dead" else None
    if seat is not None:
        seats.append(seat)


def _writable(game: Game, seat: int, channels: list[str]) -> None:
    if seat == _alive_medium(game) and "dead" not in channels:
        channels.append("dead")


ROLE = registry.register(Role(
    ID, emoji="🕯️", camp=registry.VILLAGE,
    hooks={"channel_readers": _readers, "writable_channels": _writable},
))
