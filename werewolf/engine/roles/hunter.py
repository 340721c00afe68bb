"""Hunter — Chasseur (RULES.md §4): when he dies, he shoots someone at once."""

from .. import flow, registry
from ..game import EVERYONE, Game
from ..registry import SEAT, Action, Event, Role, Say, Step

ID = "hunter"


def _prompt(game: Game, seat: int, living):
    return [{"action": "hunter.shoot", "choices": living}]


def _shoot(game: Game, seat: int, target: int, now: float, **extra) -> None:
    """``extra``: more fields for the event (``testament=True`` when his testament shoots)."""
    game.emit("hunter_shot", EVERYONE, now, hunter=seat, target=target, **extra)
    died = flow.kill(game, [target], "hunter", now)
    flow.after_deaths(game, died, now)


def _time_out(game: Game, now: float) -> None:
    game.emit("hunter_shot", EVERYONE, now, hunter=game.actor, target=None)
    flow.continue_follow_ups(game, now)


def _queue(game: Game, died: list[int]) -> None:
    for seat in died:
        if game.player(seat).role == ID:
            game.pending_hunters.append(seat)


def _follow_up(game: Game, now: float) -> bool:
    if not game.pending_hunters:
        return False
    flow.start_step(game, "hunter", now, actor=game.pending_hunters.pop(0))
    return True


STEP = Step(ID, "day", (30, 45, 90), time_out=_time_out, actors=flow.the_actor, prompt=_prompt,
            actions=(Action("hunter.shoot", SEAT, _shoot),), shows=("actor",), role=ID, order=110)

ROLE = registry.register(Role(ID, emoji="🏹", camp=registry.VILLAGE, default=True, base=True, steps=(STEP,),
                              hooks={"queue_follow_ups": (10, _queue), "follow_up": (10, _follow_up)},
                              events=(
    Event("hunter_shot", {"hunter": "seat", "target": "seat?", "testament": "bool"},
          says=(Say("ev.hunter_silent", when={"target": None}, args={"hunter": "hunter"}),
                Say("ev.hunter_testament", when={"testament": True}, args={"hunter": "hunter", "name": "target"}),
                Say("ev.hunter_shot", args={"hunter": "hunter", "name": "target"})), moment=True),
), public_events=("hunter_shot",)))
