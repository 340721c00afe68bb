"""Seer — Voyante (RULES.md §3): each night she sees one player's card."""

from .. import flow, registry
from ..game import Game
from ..registry import SEAT, Action, Event, Role, Say, Step

ID = "seer"


def _prompt(game: Game, seat: int, living):
    return [{"action": "seer.look", "choices": [s for s in living if s != seat]}]


def _look(game: Game, seat: int, target: int, now: float) -> None:
    data = {"night": game.night, "target": target, "role": game.player(target).role}
    for hook in game.hooks("seer_look"):   # an option may teach the camp instead
        hook(game, target, data)
    game.emit("seer_look", seat, now, **data)
    flow.next_night_step(game, ID, now)


def _known(game: Game, seat: int, known: dict) -> None:
    if game.player(seat).role == ID:   # her looks, read back from the log
        for event in game.events:
            # The card as she saw it (a Cursed bitten since still reads « Maudit » to her, A3.12);
            # once the player is dead, his card as everyone sees it.
            if (event["kind"] == "seer_look" and event["audience"] == seat and "role" in event
                    and game.player(event["target"]).alive):
                known[event["target"]] = event["role"]


STEP = Step(ID, "night", (30, 45, 90), time_out=lambda game, now: flow.next_night_step(game, ID, now),
            actors=flow.alive_holder_acts(ID), prompt=_prompt, actions=(Action("seer.look", SEAT, _look),),
            night_order=30, runs=flow.holder_runs(ID), role=ID)

ROLE = registry.register(Role(ID, emoji="🔮", camp=registry.VILLAGE, default=True, base=True, steps=(STEP,),
                              hooks={"known_roles": (20, _known)}, events=(
    # `camp` instead of `role` under the option seer_camp (A6.1)
    Event("seer_look", {"night": "int", "target": "seat", "role": "role", "camp": "camp"},
          says=(Say("ev.seer_camp", when={"camp": True}, args={"name": "target", "camp": "camp"}),
                Say("ev.seer_look", args={"name": "target", "role": ("role", "role_a")})),
          timeline=(Say("tl.seer_camp", when={"camp": True}, args={"name": "target", "camp": "camp"}),
                    Say("tl.seer_look", args={"name": "target", "role": "role"})),
          # On her card's face, not at the top of her phone for the whole next step (issue 35).
          on_card=True),
)))
