"""Accursed Wolf-Father — Infect Père des Loups (RULES-BOX B3.11): a werewolf who, once in
the game, may infect the pack's victim instead of letting him die: the victim lives and
joins the pack, keeping his card and its powers.

His card takes a wolf's place in the deck (B1.2). Step `wolf_father` every night after
`werewolves`, before the White Werewolf and the Witch, while he lives, whatever he has
left (its length tells nothing). The infection is judged when he gives it (B2.3 step 2):
if the pack's victim V is still marked (no Guard, no bite), V joins the pack at once
(``pack.join``: ``wolves_joined`` to the pack) and is told ``infected``; he does not die
(hook ``night_attack`` at 15: after the Guard's 10, before the Witch's 20). The Witch still
learns V: her save does nothing and spends the potion. A protected V: the infection is
spent on nothing, and nobody joins.

State (``game.extra["wolf_father"]``, while his card is in the deck): ``used`` (bool),
``infected`` {seat, night} once it landed.
"""

from .. import flow, pack, registry
from ..errors import IllegalAction
from ..game import Game
from ..registry import CONFIRM, Action, Event, Role, Say, Step

ID = "wolf_father"


def _state(game: Game) -> dict:
    return game.extra[ID]


def _may_infect(game: Game) -> bool:
    victim = game.victim
    return not _state(game)["used"] and victim is not None and not game.in_pack(victim)


def _prompt(game: Game, seat: int, living):
    out = [{"action": "wolf_father.infect", "target": game.victim}] if _may_infect(game) else []
    return [*out, {"action": "wolf_father.done"}]


def _infect(game: Game, seat: int, _, now: float) -> None:
    state, victim = _state(game), game.victim
    state["used"] = True
    game.emit("wolf_father_infect", seat, now, night=game.night, target=victim)
    if flow.night_attack_victim(game, victim) is not None:   # still marked: no protection, no bite
        state["infected"] = {"seat": victim, "night": game.night}
        game.emit("infected", victim, now, night=game.night)
        pack.join(game, victim, now)
    flow.next_night_step(game, ID, now)


def _infect_refusal(game: Game, seat: int) -> IllegalAction:
    if _state(game)["used"]:
        return IllegalAction("already_done", "the infection is already used")
    if game.victim is None:
        return IllegalAction("no_victim", "nobody was devoured tonight")
    return IllegalAction("invalid_target", "the victim is already of the pack")


def _done(game: Game, seat: int, _, now: float) -> None:
    flow.next_night_step(game, ID, now)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"used": False, "infected": None}


def _attack(game: Game, victim: int) -> int | None:
    """The infected does not die of the attack."""
    state = game.extra.get(ID)
    infected = state and state["infected"]
    return None if infected and infected["seat"] == victim and infected["night"] == game.night else victim


def _summary(game: Game, data: dict) -> None:
    state = game.extra.get(ID)
    if state is not None and state["infected"] and state["infected"]["night"] == game.night:
        data["infected"] = state["infected"]["seat"]


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    if game.player(seat).role == ID:
        me["infection"] = not _state(game)["used"]


STEP = Step(ID, "night", (20, 30, 60), time_out=lambda game, now: flow.next_night_step(game, ID, now),
            actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("wolf_father.infect", CONFIRM, _infect, _infect_refusal, icon="🩸", style="danger"),
                     Action("wolf_father.done", CONFIRM, _done)),
            layout="menu",
            night_order=72, runs=flow.holder_runs(ID), role=ID, fixed_night="after")   # werewolves 70, witch 80

ROLE = registry.register(Role(
    ID, emoji="🐺", camp=registry.WOLVES, pack=True, wolf_place=True, steps=(STEP,),
    hooks={"deal": _deal, "night_attack": (15, _attack), "night_summary": _summary, "view": (5, _view_me)},
    me={"infection": "bool"},   # his only: the infection unused (_view_me)
    events=(
        Event("wolf_father_infect", {"night": "int", "target": "seat"},
              says=(Say("ev.wolf_father_infect", args={"name": "target"}),),
              timeline=(Say("tl.wolf_father_infect", args={"name": "target"}),)),
        Event("infected", {"night": "int"}, says=(Say("ev.infected"),), timeline=(), moment=True),
    ),
))
