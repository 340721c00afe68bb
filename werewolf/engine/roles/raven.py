"""Raven — Corbeau (RULES-BOX B3.10): each night, last, he may mark a player, who is
announced at dawn and has two votes against him in that day's `vote`.

State (``game.extra["raven"]``, while his card is in the deck):
- ``marking``: tonight's mark (None: none), told to him alone (``raven_mark``);
- ``accused``: the player announced at dawn (``raven_accused``, never the Raven's seat), for
  that day only (the Owl-Man's nominee: the votes go to the stake).
The two votes are votes (hook ``vote_tally``): with no ballot at all he is eliminated;
not in `revote` or `runoff`. ``vote_result`` shows them as ``raven`` {target, votes}.
"""

from .. import day, flow, registry
from ..game import EVERYONE, Game
from ..registry import CONFIRM, SEAT, Action, Event, Role, Say, Step

ID = "raven"
VOTES = 2


def _state(game: Game) -> dict:
    return game.extra[ID]


def _prompt(game: Game, seat: int, living):
    return [{"action": "raven.mark", "choices": living}, {"action": "raven.done"}]


def _mark(game: Game, seat: int, target: int, now: float) -> None:
    _state(game)["marking"] = target
    game.emit("raven_mark", seat, now, night=game.night, target=target)
    flow.next_night_step(game, "raven", now)


def _done(game: Game, seat: int, _, now: float) -> None:
    flow.next_night_step(game, "raven", now)


def _deal(game: Game) -> None:
    if ID in game.cards:
        game.extra[ID] = {"marking": None, "accused": None}


def _night_begins(game: Game) -> None:
    state = game.extra.get(ID)
    if state is not None:
        state.update(marking=None, accused=None)


def _step_starts(game: Game, now: float) -> None:
    """At dawn, after the deaths and the Owl-Man's nominee: the marked player, if alive."""
    state = game.extra.get(ID)
    if state is None or game.step != "dawn" or state["marking"] is None:
        return
    if game.player(state["marking"]).alive:
        state["accused"] = state["marking"]
        game.emit("raven_accused", EVERYONE, now, day=game.day, target=state["accused"])


def _nominated(game: Game, seat: int) -> bool:
    """He is today's Owl-Man's nominee (public: `owl_nominee`), so no target of `vote`."""
    for event in reversed(game.events):
        if event["kind"] == "owl_nominee" and event["day"] == game.day:
            return event["target"] == seat
        if event["kind"] == "step" and event["step"] == "dawn":
            return False
    return False


def _applies(game: Game, step_id: str) -> int | None:
    """The accused, if his two votes count in this round: today's `vote`, or the `stake`
    when he is the Owl-Man's nominee; never in `revote` or `runoff`."""
    state = game.extra.get(ID)
    accused = state and state["accused"]
    if not accused or not game.player(accused).alive:
        return None
    if step_id == "vote":
        return None if _nominated(game, accused) else accused
    if step_id == "stake" and _nominated(game, accused) and accused in game.tied:
        return accused
    return None


def _counted(game: Game, count: day.Count, now: float) -> bool:
    """His two votes count in the round; `vote_result`, and `ballots` under a secret ballot
    (published before the count: tally None), show them."""
    accused = _applies(game, count.step)
    if accused is not None:
        if count.tally is not None:
            count.tally[accused] = count.tally.get(accused, 0) + VOTES
        count.fields["raven"] = {"target": accused, "votes": VOTES}
    return False


def _view_me(game: Game, seat: int, view: dict) -> None:
    me = view["me"]
    if game.player(seat).role == ID:
        me["mark"] = _state(game)["marking"]


STEP = Step(ID, "night", (20, 30, 60), time_out=lambda game, now: flow.next_night_step(game, ID, now),
            actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("raven.mark", SEAT, _mark), Action("raven.done", CONFIRM, _done)),
            night_order=90, runs=flow.holder_runs(ID), role=ID)   # last: after the piper (85)

ROLE = registry.register(Role(
    ID, emoji="🐦‍⬛", camp=registry.VILLAGE, steps=(STEP,),
    hooks={"deal": _deal, "night_begins": _night_begins, "step_starts": (60, _step_starts),
           "round_counted": (20, _counted), "view": (5, _view_me)},
    me={"mark": "seat?"},   # his only, tonight's (_view_me)
    events=(
        Event("raven_mark", {"night": "int", "target": "seat"},
              says=(Say("ev.raven_mark", args={"name": "target"}),),
              timeline=(Say("tl.raven_mark", args={"name": "target"}),)),
        Event("raven_accused", {"day": "int", "target": "seat"},
              says=(Say("ev.raven_accused", args={"name": "target"}),), moment=True),
    ),
    public_events=("raven_accused",),
))
