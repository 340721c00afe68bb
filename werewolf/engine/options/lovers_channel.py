"""Lovers' channel — `lovers_channel` (RULES-VARIANTS A7.2).

Channel `lovers`, open from the end of `cupid`: both lovers read it, day and night, and
write in it while alive; dead, they keep reading its history (and write in `dead`).
Nobody else reads it during play (not Cupid, the dead, the Medium, spectators); at the
end every channel is shown to everyone (the kernel's rule).
"""
from .. import registry
from ..game import AUDIENCES, CHANNEL_AUDIENCE, Game
from ..registry import Option

ID = "lovers_channel"
CHANNEL = "lovers"


def _on(game: Game) -> bool:
    return bool(game.settings.get("options", {}).get(ID))


def _lovers(game: Game) -> list[int]:
    """The two lovers once Cupid's step is over (a fixed night tells them only then)."""
    if not _on(game) or not game.lovers or game.step == "cupid":
        return []
    return list(game.lovers)


def _channels(game: Game) -> list[str]:
    return [CHANNEL] if _on(game) else []


def _writable(game: Game, seat: int, channels: list) -> None:
    if seat in _lovers(game) and game.player(seat).alive:
        channels.append(CHANNEL)


AUDIENCES[CHANNEL] = _lovers
CHANNEL_AUDIENCE[CHANNEL] = CHANNEL

LOVERS_CHANNEL = registry.register_option(Option(
    ID, default=False, check=lambda value: isinstance(value, bool), group="table", roles=("cupid",),
    hooks={"channels": _channels, "writable_channels": _writable}))
