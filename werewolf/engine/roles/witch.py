"""Witch — Sorcière (RULES.md §3): learns the wolves' choice; one life potion, one death potion."""

from .. import flow, powers, registry
from ..errors import IllegalAction
from ..game import Game
from ..registry import CONFIRM, SEAT, Action, Event, Role, Say, Step

ID = "witch"


def _on_start(game: Game, now: float) -> None:
    # She learns the wolves' choice whatever protects it (A3.3): refusing her the potion would tell.
    seat = game.alive_holder(ID)
    if seat is not None and powers.has_power(game, seat):   # a ghost step (her card in the middle, powerless) shows nothing
        game.emit("witch_victim", seat, now, night=game.night, target=game.victim)


def _prompt(game: Game, seat: int, living):
    out = []
    if game.potions["life"] and game.victim is not None and not game.saved:
        out.append({"action": "witch.save", "target": game.victim})
    if game.potions["death"] and game.poisoned is None:
        out.append({"action": "witch.poison", "choices": living})
    out.append({"action": "witch.done"})
    return out


def _save(game: Game, seat: int, _, now: float) -> None:
    game.saved = True
    game.potions["life"] = False
    game.emit("witch_save", seat, now, night=game.night, target=game.victim)


def _save_refusal(game: Game, seat: int) -> IllegalAction:
    if not game.potions["life"]:
        return IllegalAction("potion_used", "the life potion is already used")
    if game.victim is None:
        return IllegalAction("no_victim", "nobody was devoured tonight")
    return IllegalAction("already_done", "the victim is already saved")


def _poison(game: Game, seat: int, target: int, now: float) -> None:
    game.poisoned = target
    game.potions["death"] = False
    game.emit("witch_poison", seat, now, night=game.night, target=target)


def _poison_refusal(game: Game, seat: int) -> IllegalAction:
    if not game.potions["death"]:
        return IllegalAction("potion_used", "the death potion is already used")
    return IllegalAction("already_done", "a player is already poisoned tonight")


def _done(game: Game, seat: int, _, now: float) -> None:
    flow.next_night_step(game, ID, now)


def _night_begins(game: Game) -> None:
    game.saved = False
    game.poisoned = None


def _attack(game: Game, victim: int) -> int | None:
    return None if game.saved else victim


def _night_deaths(game: Game, deaths: list, now: float) -> None:
    if game.poisoned is not None and game.poisoned not in deaths:
        deaths.append(game.poisoned)


def _summary(game: Game, data: dict) -> None:
    data["saved"] = game.saved
    data["poisoned"] = game.poisoned


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    if game.player(seat).role == ID:
        me["potions"] = dict(game.potions) if powers.has_power(game, seat) else {"life": False, "death": False}


STEP = Step(ID, "night", (30, 45, 90), time_out=lambda game, now: flow.next_night_step(game, ID, now),
            actors=flow.alive_holder_acts(ID), prompt=_prompt, on_start=_on_start,
            actions=(Action("witch.save", CONFIRM, _save, _save_refusal, icon="🧪", style="primary"),
                     Action("witch.poison", SEAT, _poison, _poison_refusal, icon="☠️", style="danger"),
                     Action("witch.done", CONFIRM, _done)),
            # her two potions: a button each, the poison opening its choice (registry.LAYOUTS)
            layout="menu", info_events=("witch_victim",),
            info=(Say("witch.potions", args={"life": ("potions.life", "available"),
                                             "death": ("potions.death", "available")}),),
            night_order=80, runs=flow.holder_runs(ID), role=ID, fixed_night="after")  # even with no potion left

ROLE = registry.register(Role(
    ID, emoji="🧪", camp=registry.VILLAGE, default=True, base=True, steps=(STEP,),
    hooks={"night_begins": (20, _night_begins), "night_attack": (20, _attack),
           "night_deaths": (20, _night_deaths), "night_summary": (20, _summary), "view": (2, _view_me)},
    events=(
        Event("witch_victim", {"night": "int", "target": "seat?"},
              says=(Say("witch.no_victim", when={"target": None}), Say("witch.victim", args={"name": "target"})),
              timeline=()),
        Event("witch_save", {"night": "int", "target": "seat"}, says=(Say("ev.witch_save", args={"name": "target"}),),
              timeline=(Say("tl.witch_save", args={"name": "target"}),)),
        Event("witch_poison", {"night": "int", "target": "seat"}, says=(Say("ev.witch_poison", args={"name": "target"}),),
              timeline=(Say("tl.witch_poison", args={"name": "target"}),)),
    ),
))
