"""Rusty Sword Knight — Chevalier à l'épée rouillée (RULES-BOX B3.9): devoured by the pack,
he gives tetanus to the first werewolf on his left, who dies the next night.

No step. When a night's batch of deaths holds the Knight as the pack's victim V (hook
``died``: he died, and the wolves' choice still landed on him after every protection and
save) and he has his powers, the first pack member met scanning left from his seat
(``ring.scan_left``, over the living after that batch) is rusted. The rusted player acts
as usual, with the pack that next night too, and dies in the next night's batch (hook
``night_deaths``), cause hidden, if still alive; no protection, potion or life stops it.
Nobody is told until the end (``knight_rust`` {seat, night}, audience end). Dead any
other way (poison, vote, shot, grief), or powerless: no rust.

State (``game.extra["knight"]``, while his card is in the deck): ``rusted`` {seat, night:
the night he dies} or None.
"""

from .. import flow, powers, registry, ring
from ..game import AT_END, Game
from ..registry import Event, Role, Say

ID = "knight"


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"rusted": None}


def _died(game: Game, died: list, now: float) -> None:
    state = game.extra.get(ID)
    knight = game.holder(ID)
    if state is None or (knight, "night") not in died or not powers.has_power(game, knight):
        return   # (dead of grief, by a vote or a shot: no rust)
    if flow.night_attack_victim(game, game.victim) != knight:   # not the pack's victim (the poison)
        return
    rusted = next((s for s in ring.scan_left(game, knight) if game.in_pack(s)), None)
    if rusted is not None:
        state["rusted"] = {"seat": rusted, "night": game.night + 1}
        game.emit("knight_rust", AT_END, now, seat=rusted, night=game.night)


def _night_deaths(game: Game, deaths: list, now: float) -> None:
    state = game.extra.get(ID)
    rusted = state and state["rusted"]
    if rusted and rusted["night"] == game.night and game.player(rusted["seat"]).alive and rusted["seat"] not in deaths:
        deaths.append(rusted["seat"])


ROLE = registry.register(Role(
    ID, emoji="🗡️", camp=registry.VILLAGE,
    hooks={"deal": _deal, "died": _died, "night_deaths": (40, _night_deaths)},
    events=(Event("knight_rust", {"seat": "seat", "night": "int"},
                  says=(Say("tl.knight_rust", args={"name": "seat"}),)),),   # told at the end only
    end_events=("knight_rust",),
))
