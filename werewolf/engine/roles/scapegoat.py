"""Scapegoat — Bouc émissaire (RULES-BOX B3.3): on a tied elimination round he is
eliminated instead of the tied; dead, he names who votes at the next day's vote.

State (``game.extra["scapegoat"]``): ``pending`` his seat while his own step waits for the
follow-ups of his death, ``voters`` {``day``, ``seats``} his choice for that day. His tie
comes before every tie rule (hook ``vote_tie`` at priority 1: no tiebreak, defense, runoff
or revote), in `vote`, `revote`, `runoff` and `stake` (a Captain's `tiebreak` is no round).
"""

from .. import day, flow, powers, registry
from ..game import EVERYONE, Game
from ..registry import SEATS, Action, Event, Role, Say, Step

ID = "scapegoat"
ROUNDS = ("vote", "revote", "runoff", "stake")


def _state(game: Game) -> dict | None:
    return game.extra.get(ID)


def _takes_the_tie(game: Game, step_id: str, leaders) -> int | None:
    """The living Scapegoat with his power, when this round ends with several leaders."""
    if _state(game) is None or step_id not in ROUNDS or leaders is None or len(leaders) < 2:
        return None
    seat = game.alive_holder(ID)
    return seat if seat is not None and powers.has_power(game, seat) else None


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"pending": None, "voters": None}


def _counted(game: Game, count: day.Count, now: float) -> bool:
    """The round's `vote_result` names him when he takes its tie."""
    seat = _takes_the_tie(game, count.step, count.leaders)
    if seat is not None:
        count.fields["scapegoat"] = seat
    return False


def _vote_tie(game: Game, leaders: list[int], step_id: str, now: float) -> bool:
    seat = _takes_the_tie(game, step_id, leaders)
    if seat is None:
        return False
    _state(game)["pending"] = seat
    flow.eliminate(game, seat, now)   # a vote elimination: card shown, grief, succession
    return True


def _follow_up(game: Game, now: float) -> bool:
    """After the follow-ups of his death (the Hunter, the succession), before night."""
    state = _state(game)
    if state is None or state["pending"] is None:
        return False
    seat, state["pending"] = state["pending"], None
    flow.start_step(game, "scapegoat", now, actor=seat)
    return True


def _prompt(game: Game, seat: int, living):
    return [{"action": "scapegoat.voters", "choices": living, "min": 0, "max": len(living)}]


def _choose(game: Game, seat: int, targets: list[int], now: float) -> None:
    day = game.day + 1
    _state(game)["voters"] = {"day": day, "seats": targets}
    game.emit("scapegoat_voters", EVERYONE, now, day=day, seats=targets)
    flow.continue_follow_ups(game, now)


def _time_out(game: Game, now: float) -> None:
    flow.continue_follow_ups(game, now)   # (decision) nothing is decided for him: the next day votes as usual


def _voters(game: Game, seats: list[int]) -> list[int]:
    """That day's elimination rounds (not the Captain's election): only the seats he named."""
    state = _state(game)
    chosen = state["voters"] if state is not None else None
    if chosen is None or chosen["day"] != game.day or game.is_night() or game.step == "election":
        return seats
    return [s for s in seats if s in chosen["seats"]]


STEP = Step(ID, "day", (30, 45, 90), time_out=_time_out, actors=flow.the_actor, prompt=_prompt,
            actions=(Action("scapegoat.voters", SEATS, _choose),), shows=("actor",), role=ID, order=125)

ROLE = registry.register(Role(
    ID, emoji="🐐", camp=registry.VILLAGE, steps=(STEP,),
    hooks={"deal": _deal, "round_counted": _counted, "vote_tie": (1, _vote_tie), "follow_up": (40, _follow_up),
           "voters": _voters},
    events=(Event("scapegoat_voters", {"day": "int", "seats": "seats"},
                  says=(Say("ev.scapegoat_voters_none", when={"seats": False}),
                        Say("ev.scapegoat_voters", args={"names": "seats"})),
                  timeline=(Say("tl.scapegoat_voters_none", when={"seats": False}),
                            Say("tl.scapegoat_voters", args={"names": "seats"})), moment=True),),
    public_events=("scapegoat_voters",),
))
