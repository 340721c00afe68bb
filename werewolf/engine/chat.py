"""Who may read and write which channel (RULES.md §7), and posting a message."""

from .errors import IllegalAction
from .game import CHANNEL_AUDIENCE, Game, iso
from .rules import CHANNELS, MAX_CHAT_LENGTH
from .text import TextRefused
from .text import message as message_text


def game_channels(game: Game) -> list[str]:
    """The base channels, and those a module opens in this game (hook `channels`)."""
    out = list(CHANNELS)
    for hook in game.hooks("channels"):
        out += hook(game)
    return out


def readable_channels(game: Game, seat: int | None) -> list[str]:
    return [ch for ch in game_channels(game) if game.can_see(CHANNEL_AUDIENCE[ch], seat)]


def writable_channel(game: Game, seat: int | None) -> str | None:
    if seat is None or game.status != "running":
        return None
    me = game.player(seat)
    if not me.alive:
        return "dead"
    if game.is_night():
        return "werewolves" if game.in_pack(seat) else None
    for hook in game.hooks("village_writers"):
        writers = hook(game)
        if writers is not None and seat not in writers:
            return None   # a defense or a speaking turn: the others read
    return "village"


def writable_channels(game: Game, seat: int | None) -> list[str]:
    """Every channel this seat may write in now: the main one (writable_channel) first,
    then those a module adds (hook `writable_channels`: the Medium's `dead`, the lovers')."""
    main = writable_channel(game, seat)
    out = [main] if main is not None else []
    if seat is not None and game.status == "running":
        for hook in game.hooks("writable_channels"):
            hook(game, seat, out)
    return out


def post_chat(game: Game, seat: int, channel: object, text: object, now: float) -> None:
    if game.status != "running":
        raise IllegalAction("game_over", "the game is over")
    # Only a seat of this game writes: seat 0 or -1 would otherwise index from the end
    # of the player list and post under another player's name.
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= game.n:
        raise IllegalAction("not_your_turn", "you are not seated in this game")
    if not isinstance(channel, str) or channel not in game_channels(game):
        raise IllegalAction("unknown_channel", "unknown channel")
    try:
        text = message_text(text, MAX_CHAT_LENGTH)   # as shown: nothing reversed nor hidden
    except TextRefused as refused:
        raise IllegalAction(refused.code, refused.message) from None
    if channel not in writable_channels(game, seat):
        raise IllegalAction("channel_closed", "you cannot write in this channel now")
    message = {"channel": channel, "seat": seat, "name": game.player(seat).name, "text": text, "at": iso(now)}
    game.chat.append(message)
    game.touch(CHANNEL_AUDIENCE[channel])
    for hook in game.hooks("chat_posted"):
        hook(game, message)
