"""Raven — Corbeau (RULES-BOX B3.10): each night, last, he may mark a player, who is
announced at dawn and has two votes against him in that day's `vote`.

State (``game.extra["raven"]``, while his card is in the deck):
- ``marking``: tonight's mark (None: none), told to him alone (``raven_mark``);
- ``accused``: the player announced at dawn (``raven_accused``, never the Raven's seat), for
  that day only; ``to_stake``: he was the Owl-Man's nominee, so the votes go to the stake.
The two votes are votes (hook ``vote_tally``): with no ballot at all he is eliminated;
not in `revote` or `runoff`. ``vote_result`` shows them as ``raven`` {target, votes}.
"""

from .. import flow, registry
from ..game import EVERYONE, Game
from ..registry import CONFIRM, SEAT, Action, Role, Step

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
        game.extra[ID] = {"marking": None, "accused": None, "to_stake": False, "counted": None}


def _night_begins(game: Game) -> None:
    state = game.extra.get(ID)
    if state is not None:
        state.update(marking=None, accused=None, to_stake=False, counted=None)


def _step_starts(game: Game, now: float) -> None:
    """At dawn, after the deaths and the Owl-Man's nominee: the marked player, if alive."""
    state = game.extra.get(ID)
    if state is None or game.step != "dawn" or state["marking"] is None:
        return
    if game.player(state["marking"]).alive:
        state["accused"] = state["marking"]
        game.emit("raven_accused", EVERYONE, now, day=game.day, target=state["accused"])


def _vote_targets(game: Game) -> list[int]:
    """Whom `vote` may name (the Owl-Man's nominee is no target of it)."""
    choices = game.living()
    for hook in game.hooks("vote_choices"):
        choices = hook(game, choices)
    return choices


def _tally(game: Game, step_id: str, tally: dict) -> None:
    state = game.extra.get(ID)
    if state is None or state["accused"] is None or not game.player(state["accused"]).alive:
        return
    accused = state["accused"]
    if step_id == "vote":
        if accused not in _vote_targets(game):
            state["to_stake"] = True   # the nominee: his two votes wait for the stake
            return
    elif not (step_id == "stake" and state["to_stake"] and accused in game.tied):
        return
    tally[accused] = tally.get(accused, 0) + VOTES
    state["counted"] = step_id


def _result(game: Game, step_id: str, leaders: list, data: dict) -> None:
    state = game.extra.get(ID)
    if state is not None and state["counted"] == step_id:
        data["raven"] = {"target": state["accused"], "votes": VOTES}


def _view_me(game: Game, seat: int, me: dict) -> None:
    if game.player(seat).role == ID:
        me["mark"] = _state(game)["marking"]


STEP = Step(ID, "night", (20, 30, 60), time_out=lambda game, now: flow.next_night_step(game, ID, now),
            actors=flow.alive_holder_acts(ID), prompt=_prompt,
            actions=(Action("raven.mark", SEAT, _mark), Action("raven.done", CONFIRM, _done)),
            night_order=90, runs=flow.holder_runs(ID), role=ID)   # last: after the piper (85)

ROLE = registry.register(Role(
    ID, emoji="🐦‍⬛", camp=registry.VILLAGE, steps=(STEP,),
    hooks={"deal": _deal, "night_begins": _night_begins, "step_starts": (60, _step_starts),
           "vote_tally": _tally, "vote_result": _result, "view_me": _view_me},
    events=("raven_mark", "raven_accused"),
    public_events=("raven_accused",),
))
