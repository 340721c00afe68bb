"""Elder — Ancien (RULES-BOX B3.1): the pack must attack him twice to kill him; if the
village kills him (the vote, the Witch's poison, a Hunter's shot), the village camp loses
its powers for the rest of the game.

State (``game.extra["elder"]``): ``life`` whether his extra life is still there, ``spent``
the night it went (told at the end only, in that night's summary). The life counts against
the pack's attack only (B2.3 step 6: he is the wolves' choice, still marked after every
protection, save and infection); nobody is told, not even him. No step.
"""

from .. import camps, flow, powers, registry
from ..game import EVERYONE, Game
from ..registry import Event, Role, Say

ID = "elder"
REVENGE_CAUSES = ("vote", "hunter")   # and the poison, read from the night (B3.1)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"life": True, "spent": None}


def _night_deaths(game: Game, deaths: list, now: float) -> None:
    """After the pack's victim is added (10), before the poison (20): the life is spent instead."""
    state = game.extra.get(ID)
    if state is None or not state["life"]:
        return
    victim = flow.night_attack_victim(game, game.victim)
    if victim is not None and game.player(victim).role == ID and victim in deaths:
        deaths.remove(victim)
        state["life"], state["spent"] = False, game.night


def _summary(game: Game, data: dict) -> None:
    state = game.extra.get(ID)
    if state is not None and state["spent"] == game.night:
        data["elder_life"] = game.holder(ID)   # told at the end only (B9.1)


def _revenge(game: Game, died: list, now: float) -> None:
    """His death by the village's hand takes the powers of every player of the village camp."""
    if ID not in game.extra:
        return
    for seat, cause in died:
        if game.player(seat).role != ID or camps.side_of(game, seat) != registry.VILLAGE:
            continue
        if cause in REVENGE_CAUSES or (cause == "night" and game.poisoned == seat):
            village = [p.seat for p in game.players if camps.side_of(game, p.seat) == registry.VILLAGE]
            powers.take_powers(game, village)
            game.emit("elder_revenge", EVERYONE, now, seat=seat)


ROLE = registry.register(Role(
    ID, emoji="👴", camp=registry.VILLAGE,
    hooks={"deal": _deal, "night_deaths": (15, _night_deaths), "night_summary": (30, _summary),
           "died": (10, _revenge)},
    events=(Event("elder_revenge", {"seat": "seat"}, says=(Say("ev.elder_revenge", args={"name": "seat"}),),
                  timeline=(Say("tl.elder_revenge", args={"name": "seat"}),), moment=True),),
    public_events=("elder_revenge",),
))
