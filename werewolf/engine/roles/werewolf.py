"""Werewolf — Loup-Garou (RULES.md §3): the pack chooses a victim every night."""

from .. import flow, registry
from ..game import WOLVES, Game
from ..registry import SEAT, Action, Event, Role, Say, Step

ID = "werewolf"


def _actors(game: Game, living):
    return game.living_wolves()


def _prompt(game: Game, seat: int, living):
    return [{"action": "werewolves.designate", "choices": living, "nullable": True,
             "current": game.designations.get(seat)}]


def _designate(game: Game, seat: int, target, now: float) -> None:
    if game.designations.get(seat) == target:
        return   # the same designation again (null: none) changes nothing
    if target is None:
        game.designations.pop(seat, None)
    else:
        game.designations[seat] = target
    game.emit_choice("designation", WOLVES, now, night=game.night, seat=seat, target=target)
    chosen = {game.designations.get(w) for w in game.living_wolves()}
    if len(chosen) == 1 and None not in chosen and flow.ends_early(game):   # never in a fixed night
        resolve(game, now)


def resolve(game: Game, now: float) -> None:
    """Plurality of the designations, ties drawn at random, nobody if nobody is designated."""
    _, leaders = flow.plurality(game, game.designations)
    game.victim = leaders[game.draw(len(leaders))] if leaders else None
    game.emit("wolves_victim", WOLVES, now, night=game.night, target=game.victim)
    for hook in game.hooks("wolves_choice"):   # a bite (A2.3 step 1)
        hook(game, now)
    flow.next_night_step(game, "werewolves", now)


def _runs(game: Game) -> bool:
    return bool(game.living_wolves()) or ID in game.middle()


def _night_begins(game: Game) -> None:
    game.designations = {}
    game.victim = None


def _night_deaths(game: Game, deaths: list, now: float) -> None:
    victim = flow.night_attack_victim(game, game.victim)
    if victim is not None:
        deaths.append(victim)


def _summary(game: Game, data: dict) -> None:
    data["victim"] = game.victim


def _known(game: Game, seat: int, known: dict) -> None:
    if game.player(seat).role in registry.PACK:   # the pack knows the pack
        known.update({p.seat: p.role for p in game.players if p.role in registry.PACK})


def _view(game: Game, seat: int, view: dict) -> None:
    me = game.player(seat)
    if me.alive and me.role in registry.PACK and STEP.id in flow.active_steps(game):
        view["designations"] = {str(w): t for w, t in sorted(game.designations.items())}


STEP = Step("werewolves", "night", (60, 90, 180), time_out=resolve, actors=_actors, prompt=_prompt,
            actions=(Action("werewolves.designate", SEAT, _designate, nullable=True),),
            night_order=70, runs=_runs, role=ID)

ROLE = registry.register(Role(
    ID, emoji="🐺", camp=registry.WOLVES, pack=True, optional=False, default=True, base=True, steps=(STEP,),
    hooks={"night_begins": (10, _night_begins), "night_deaths": (10, _night_deaths),
           "night_summary": (10, _summary), "known_roles": (10, _known), "view": (10, _view)},
    events=(
        Event("designation", {"night": "int", "seat": "seat", "target": "seat?"},
              says=(Say("ev.designation_none", when={"target": None}, args={"name": "seat"}),
                    Say("ev.designation", args={"name": "seat", "target": "target"}))),
        Event("wolves_victim", {"night": "int", "target": "seat?"},
              says=(Say("ev.wolves_no_victim", when={"target": None}), Say("ev.wolves_victim", args={"name": "target"})),
              timeline=(Say("tl.wolves_no_victim", when={"target": None}),
                        Say("tl.wolves_victim", args={"name": "target"}))),
    ),
))
