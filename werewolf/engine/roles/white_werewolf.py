"""White Werewolf — Loup-Garou Blanc (RULES-BOX B3.5): he hunts with the pack, who take him
for one of theirs; every second night he wakes alone and may kill one of them; he wins if
he is the last one alive.

A wolf card (``pack=True``: he designates, reads the wolves' channel, counts for their
unanimity; the pack face shows him as `werewolf`) of his own side (``camp=SOLITARY``: a
blocking solitary while he lives). State (``game.extra["white_werewolf"]``): ``prey``
tonight's. The prey dies in the night's batch (``night_deaths`` at 30), past the Guard,
the Witch and the Elder's life: only the pack's attack goes through ``night_attack``.
"""

from .. import camps, flow, registry
from ..game import Game
from ..registry import CONFIRM, SEAT, Action, Event, Role, Say, Step

ID = "white_werewolf"


def _state(game: Game) -> dict:
    return game.extra[ID]


def _even(night: int) -> bool:
    return night % 2 == 0


def _runs(game: Game) -> bool:
    """Even nights only, whenever he is alive (with or without prey), or his card in the middle."""
    return _even(game.night) and (game.alive_holder(ID) is not None or ID in game.middle())


def _prompt(game: Game, seat: int, living):
    prey = [s for s in game.living_wolves() if s != seat]
    out = [{"action": "white_werewolf.devour", "choices": prey}] if prey else []
    return [*out, {"action": "white_werewolf.done"}]


def _devour(game: Game, seat: int, target: int, now: float) -> None:
    _state(game)["prey"] = target
    game.emit("white_werewolf_devour", seat, now, night=game.night, target=target)
    flow.next_night_step(game, ID, now)


def _done(game: Game, seat: int, _, now: float) -> None:
    flow.next_night_step(game, ID, now)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"prey": None}


def _night_begins(game: Game) -> None:
    state = game.extra.get(ID)
    if state is not None:
        state["prey"] = None


def _night_deaths(game: Game, deaths: list, now: float) -> None:
    state = game.extra.get(ID)
    if state is not None and state["prey"] is not None and state["prey"] not in deaths:
        deaths.append(state["prey"])


def _summary(game: Game, data: dict) -> None:
    state = game.extra.get(ID)
    if state is not None and state["prey"] is not None:
        data["white_werewolf_prey"] = state["prey"]


def _win(game: Game, check: flow.EndCheck) -> None:
    seat = game.alive_holder(ID)
    if seat is not None and check.living == [seat] and camps.side_of(game, seat) == ID:
        check.winner = {"camp": ID, "seats": [seat]}


STEP = Step(ID, "night", (20, 30, 60), time_out=lambda game, now: flow.next_night_step(game, ID, now),
            actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("white_werewolf.devour", SEAT, _devour), Action("white_werewolf.done", CONFIRM, _done)),
            night_order=75, runs=_runs, nights=_even, role=ID, fixed_night="after")   # after wolf_father (72), before the witch (80)

ROLE = registry.register(Role(
    ID, emoji="🐺", camp=registry.SOLITARY, pack=True, steps=(STEP,),
    hooks={"deal": _deal, "night_begins": _night_begins, "night_deaths": (30, _night_deaths),
           "night_summary": (40, _summary), "end_check": (40, _win)},
    events=(Event("white_werewolf_devour", {"night": "int", "target": "seat"},
                  says=(Say("ev.white_werewolf_devour", args={"name": "target"}),),
                  timeline=(Say("tl.white_werewolf_devour", args={"name": "target"}),)),),
))
