"""What a seat may do now (the prompt) and applying it: legality lives in one place.

`legal_actions` builds the prompt; `apply` accepts an action only if the prompt for
that seat offers it with that target, so what the page shows and what the server
accepts can never disagree.
"""

from . import flow, registry
from .errors import IllegalAction
from .game import Game
from .registry import ACTION_STEP, ACTION_STEPS, CARD, SEAT, SEATS

_STEPS = registry.STEPS
_VOTERS = flow.voters   # a voting round's actors: every living player unless one left or a card takes votes away


def _step_actors(game: Game, step, living: list[int]) -> list[int]:
    """The step's actors; asked for every seat at every poll, so the common cases are read first."""
    acts = step.actors
    if acts is None or (acts is _VOTERS and "voters" not in game.in_play.hooks and not game.left):
        return living
    return acts(game, living)


def _open_parts(game: Game) -> tuple:
    """The steps acting now whose prompts are still open (a step gathers others in a fixed night)."""
    step = _STEPS[game.step]
    if step.gathers is None:   # every step but a fixed night's
        closed = game.extra.get("closed")
        return (step,) if not closed or step.id not in closed else ()
    return tuple(part for part in flow.step_parts(game) if not flow.is_closed(game, part.id))


def actors(game: Game) -> list[int]:
    """The seats that may act in the current step."""
    if game.status != "running":
        return []
    living = game.living()
    step = _STEPS[game.step]
    sides = game.in_play.sides   # e.g. the Little Girl during `werewolves` or `night`
    if step.gathers is None and "closed" not in game.extra and game.step not in sides:
        # Most steps: one step, its actors (asked for at every move and every poll).
        return sorted(set(_step_actors(game, step, living)))
    seats: set = set()
    for step in _open_parts(game):
        seats.update(living if step.actors is None else step.actors(game, living))
    for side in sides.get(game.step, ()):
        seats.update(side.actors(game, living))
    return sorted(seats)


def legal_actions(game: Game, seat: int | None) -> list[dict]:
    if seat is None or game.status != "running":
        return []
    living = game.living()   # once: the prompt is built for every seat of every view
    in_play = game.in_play
    step = _STEPS[game.step]
    specs: list[dict] = []
    if step.gathers is None and "closed" not in game.extra:   # most steps: asked for every seat at every poll
        if seat in _step_actors(game, step, living):
            specs += step.prompt(game, seat, living)
    else:
        for step in _open_parts(game):
            if seat in (living if step.actors is None else step.actors(game, living)):
                specs += step.prompt(game, seat, living)
    if game.step in in_play.sides:
        for side in in_play.sides[game.step]:
            if seat in side.actors(game, living):
                specs += side.prompt(game, seat, living)
    if specs and "prompt" in in_play.hooks:   # options narrowing a prompt (none in the base game)
        for hook in in_play.hooks["prompt"]:
            specs = hook(game, seat, specs)
    return specs


def _is_seat_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse_missing(game: Game, seat: int, action: str) -> IllegalAction:
    """Why an action of the current step is not offered to an actor of that step."""
    for hook in game.hooks("refusal"):
        refused = hook(game, seat, action)
        if refused is not None:
            return refused
    refusal = registry.ACTIONS[action].refusal
    if refusal is not None:
        return refusal(game, seat)
    return IllegalAction("already_done", "already done in this step")


def apply(game: Game, seat: int, body: dict, now: float) -> None:
    """Check then apply one player's action. Raises IllegalAction and changes nothing if refused."""
    check_request(game, seat, body)
    action = body["action"]
    if action in registry.STANDING:
        _apply_standing(game, seat, registry.STANDING[action], body, now)
        return
    steps = ACTION_STEPS[action]
    if game.step not in steps and not any(step in steps for step in flow.active_steps(game)):
        raise IllegalAction("wrong_step", "this action is not possible in the current step")
    if seat not in actors(game):
        if not game.player(seat).alive:
            raise IllegalAction("not_alive", "the dead do not act")
        raise IllegalAction("not_your_turn", "it is not your turn")
    offered = {spec["action"]: spec for spec in legal_actions(game, seat)}
    if action not in offered:
        raise _refuse_missing(game, seat, action)
    handler = registry.ACTIONS[action]
    handler.apply(game, seat, CHOSEN[handler.kind](offered[action], body), now)


def _apply_standing(game: Game, seat: int, action, body: dict, now: float) -> None:
    """An action open in any step (a testament): the seats it may name, or not open to him."""
    choices = action.choices(game, seat)
    if choices is None:
        raise IllegalAction("not_your_turn", "you cannot do this")
    target = _seat({"choices": choices, "nullable": action.nullable}, body)
    action.apply(game, seat, target, now)


def check_request(game: Game, seat: int, body: dict, past_only: bool = False) -> None:
    """apply's first checks, in its order; reads the game only.

    With ``past_only``, only refusals that no later state of the game can lift (a
    step that already ended, a game that is over, a malformed body), so that a copy
    of the game that may be a little behind can refuse a move for good.
    """
    if not isinstance(body, dict) or not isinstance(body.get("action"), str):
        raise IllegalAction("bad_request", "the body must be an object with an 'action' string")
    action = body["action"]
    if game.status != "running":
        raise IllegalAction("game_over", "the game is over")
    if action not in ACTION_STEP:
        raise IllegalAction("unknown_action", "unknown action")
    if not _is_seat_number(seat) or not 1 <= seat <= game.n:
        raise IllegalAction("not_your_turn", "you are not seated in this game")
    if "step" in body and body["step"] is not None:
        if not _is_seat_number(body["step"]):
            raise IllegalAction("bad_request", "'step' must be the step number")
        if body["step"] < game.step_seq or (body["step"] != game.step_seq and not past_only):
            raise IllegalAction("stale_step", "that step is over")


# --- what the body chose, one reader per choice kind (registry.CHOICE_KINDS) -----------
def _seat(spec: dict, body: dict):
    target = body.get("target")
    if target is None and spec.get("nullable"):
        return None
    if not _is_seat_number(target) or target not in spec["choices"]:
        raise IllegalAction("invalid_target", "this player cannot be chosen")
    return target


def _seats(spec: dict, body: dict) -> list[int]:
    """Exactly ``count`` different seats among the choices, or from ``min`` to ``max`` of them."""
    targets, choices = body.get("targets"), spec["choices"]
    low, high = (spec["count"], spec["count"]) if "count" in spec else (spec["min"], spec["max"])
    if (not isinstance(targets, list) or not low <= len(targets) <= high
            or not all(_is_seat_number(t) for t in targets)
            or len(set(targets)) != len(targets) or not all(t in choices for t in targets)):
        many = str(low) if low == high else f"{low} to {high}"
        raise IllegalAction("invalid_target", f"choose {many} different living players")
    return sorted(targets)


def _card(spec: dict, body: dict) -> int:
    card = body.get("card")
    if not _is_seat_number(card) or card not in spec["choices"]:
        raise IllegalAction("invalid_target", "choose card 1 or 2")
    return card


CHOSEN = {SEAT: _seat, SEATS: _seats, CARD: _card, registry.CONFIRM: lambda spec, body: None}
