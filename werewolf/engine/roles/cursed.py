"""Cursed — Maudit (RULES-VARIANTS A3.8): a villager until the wolves bite him; bitten, he
becomes a werewolf at once and does not die.

The bite is settled with the wolves' choice (hook ``wolves_choice``, A2.3 step 1): the
wolves chose the Cursed and no protection spares him. From then on his card is
``werewolf`` for every rule (he designates, reads and writes the wolves' channel,
counts with the pack, the Seer sees a wolf); ``game.extra["cursed"]`` remembers the
seat, the night, and where the wolves' channel stood, since he reads it only from his
bite on. The Witch still learns the wolves' choice (him) and may waste her potion.
At his death, and to the pack, his card shows ``was: "cursed"``.
"""

from .. import flow, registry
from ..game import WOLVES, Game
from ..registry import Event, Role, Say

ID = "cursed"
PACK_CARD = "werewolf"


def _bitten(game: Game) -> dict | None:
    return game.extra.get(ID)


def _bite(game: Game, now: float) -> None:
    victim = game.victim
    if victim is None or game.player(victim).role != ID:
        return
    if flow.night_attack_victim(game, victim) is None:   # protected (the Guard): no bite
        return
    game.player(victim).role = PACK_CARD
    game.extra[ID] = {"seat": victim, "night": game.night,
                      "chat_from": sum(1 for m in game.chat if m["channel"] == "werewolves")}
    game.emit("cursed_bitten", victim, now, night=game.night)
    game.emit("wolves_joined", WOLVES, now, seats=game.living_wolves())


def _attack(game: Game, victim: int) -> int | None:
    """The bite kills nobody ("sans aucun mort à annoncer")."""
    bitten = _bitten(game)
    return None if bitten is not None and bitten["seat"] == victim and bitten["night"] == game.night else victim


def _may_know_the_bite(game: Game, viewer: int, seat: int) -> bool:
    return (game.status == "ended" or not game.player(seat).alive or viewer == seat
            or viewer in game.living_wolves())


def _view(game: Game, seat: int, view: dict) -> None:
    bitten = _bitten(game)
    if bitten is None:
        return
    if seat == bitten["seat"]:
        view["me"]["was"] = ID
        if game.status != "ended" and "werewolves" in view["chat"]:
            # He was not there: the pack's messages from his bite on.
            lines = view["chat"]["werewolves"][bitten["chat_from"]:]
            view["chat"]["werewolves"] = [{**line, "seq": i} for i, line in enumerate(lines, 1)]
    for player in view["players"]:
        if player["seat"] == bitten["seat"] and "role" in player and _may_know_the_bite(game, seat, player["seat"]):
            player["was"] = ID


ROLE = registry.register(Role(
    ID, emoji="🌑", camp=registry.VILLAGE,
    hooks={"wolves_choice": _bite, "night_attack": (5, _attack), "view": (30, _view)},
    events=(Event("cursed_bitten", {"night": "int", "audience": "seat"}, says=(Say("ev.cursed_bitten"),),
                  timeline=(Say("tl.cursed_bitten", args={"name": "audience"}),)),   # the end tells whose
            "wolves_joined"),   # declared by the Thief
))
