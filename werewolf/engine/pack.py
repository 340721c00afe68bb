"""The pack (RULES-BOX B0.3): every living player who wakes with the wolves.

A wolf card's holder (``registry.PACK``: `werewolf`, and the cards registered ``pack=True``)
is of the pack; so is a seat that **joined** it (an infected player, a Wild Child whose
model died, a Wolf-Hound who chose the wolves): a seat property kept in
``game.extra["pack"]`` (absent in a game where nobody joined), never a card change — his
card stays his own (``me.role``), with ``me.pack: true``.

``Game.living_wolves()`` and ``Game.in_pack(seat)`` read both, so every rule that asks for
"the living wolves" (the `werewolves` step, its unanimity, the wolves' channel and
audience, the end check) counts the joined. **Pack face**: to a pack member every *other*
living member's card reads `werewolf` (the wolves see who opens his eyes, not his card);
a dead member's card is his own, shown at his death. Who joined is told to everyone at
the end only (``players[].pack: true``).
"""

from . import registry
from .game import WOLVES, Game
from .registry import Module

ID = "pack"
FACE = "werewolf"   # what a pack member's card reads to the other members


def joined(game: Game) -> list[int]:
    """The seats that joined the pack, in the order they joined (dead or alive)."""
    return list(game.extra.get(ID, ()))


def join(game: Game, seat: int, now: float) -> None:
    """``seat`` joins the pack now: he designates from the next `werewolves` step (this
    one if it has not begun), reads the wolves' channel from this moment on, and the
    living pack (him included) is told ``wolves_joined`` {seats}."""
    seats = game.extra.setdefault(ID, [])
    if seat in seats or game.player(seat).role in registry.PACK:
        return
    seats.append(seat)
    game.extra.setdefault("pack_chat", {})[str(seat)] = sum(1 for m in game.chat if m["channel"] == "werewolves")
    game.forget_seats()
    game.emit("wolves_joined", WOLVES, now, seats=game.living_wolves())


def face(game: Game, viewer: int, known: dict) -> None:
    """The pack face: what a pack member ``viewer`` sees of the other members' cards."""
    for player in game.players:
        if player.seat != viewer and game.in_pack(player.seat):
            known[player.seat] = FACE if player.alive else player.role


def _view(game: Game, seat: int, view: dict) -> None:
    seats = game.extra.get(ID)
    if not seats:
        return
    if seat in seats:
        view["me"]["pack"] = True
        chat_from = game.extra["pack_chat"][str(seat)]
        if game.status != "ended" and chat_from and "werewolves" in view["chat"]:
            # He was not there: the pack's messages from his joining on (A3.8).
            lines = view["chat"]["werewolves"][chat_from:]
            view["chat"]["werewolves"] = [{**line, "seq": i} for i, line in enumerate(lines, 1)]


def shown_at_end(game: Game, players: list[dict]) -> None:
    """Once the game is over, everyone (spectators too) learns who joined (B0.3)."""
    seats = game.extra.get(ID)
    if seats and game.status == "ended":
        for player in players:
            if player["seat"] in seats:
                player["pack"] = True


MODULE = registry.register(Module(ID, hooks={"view": (20, _view)}, events=("wolves_joined",)))
