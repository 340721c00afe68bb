"""What a seat may do now (the prompt) and applying it: legality lives in one place.

`legal_actions` builds the prompt; `apply` accepts an action only if the prompt for
that seat offers it with that target, so what the page shows and what the server
accepts can never disagree.
"""

from . import flow
from .errors import IllegalAction
from .game import EVERYONE, WOLVES, Game
from .rules import CUPID, SEER, WEREWOLF, WITCH

ACTION_STEP = {
    "cupid.pair": "cupid",
    "seer.look": "seer",
    "werewolves.designate": "werewolves",
    "witch.save": "witch",
    "witch.poison": "witch",
    "witch.done": "witch",
    "hunter.shoot": "hunter",
    "succession.name": "succession",
    "election.vote": "election",
    "debate.request_vote": "debate",
    "vote.cast": "vote",
    "tiebreak.choose": "tiebreak",
}


def actors(game: Game) -> list[int]:
    """The seats that may act in the current step."""
    return _actors(game, game.living())


def _actors(game: Game, living: list[int]) -> list[int]:
    step = game.step
    if game.status != "running" or step == "dawn":
        return []
    if step in ("cupid", "seer", "witch"):
        seat = game.alive_holder({"cupid": CUPID, "seer": SEER, "witch": WITCH}[step])
        return [seat] if seat is not None else []
    if step == "werewolves":
        return game.living_wolves()
    if step in ("hunter", "succession", "tiebreak"):
        return [game.actor]
    return living


def legal_actions(game: Game, seat: int | None) -> list[dict]:
    if seat is None or game.status != "running":
        return []
    living = game.living()   # once: the prompt is built for every seat of every view
    if seat not in _actors(game, living):
        return []
    step = game.step
    if step == "cupid":
        return [{"action": "cupid.pair", "choices": living, "count": 2}]
    if step == "seer":
        return [{"action": "seer.look", "choices": [s for s in living if s != seat]}]
    if step == "werewolves":
        return [{"action": "werewolves.designate", "choices": living, "nullable": True,
                 "current": game.designations.get(seat)}]
    if step == "witch":
        out = []
        if game.potions["life"] and game.victim is not None and not game.saved:
            out.append({"action": "witch.save", "target": game.victim})
        if game.potions["death"] and game.poisoned is None:
            out.append({"action": "witch.poison", "choices": living})
        out.append({"action": "witch.done"})
        return out
    if step == "hunter":
        return [{"action": "hunter.shoot", "choices": living}]
    if step == "succession":
        return [{"action": "succession.name", "choices": living}]
    if step == "tiebreak":
        return [{"action": "tiebreak.choose", "choices": list(game.tied)}]
    if step == "election":
        return [{"action": "election.vote", "choices": living, "nullable": True,
                 "current": game.votes.get(seat)}]
    if step == "debate":
        return [] if seat in game.requests else [{"action": "debate.request_vote"}]
    if step == "vote":
        spec = {"action": "vote.cast", "choices": living, "nullable": True, "voted": seat in game.votes}
        if seat in game.votes:
            spec["current"] = game.votes[seat]
        return [spec]
    return []


def _is_seat_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse_missing(game: Game, seat: int, action: str) -> IllegalAction:
    """Why an action of the current step is not offered to an actor of that step."""
    if action == "witch.save":
        if not game.potions["life"]:
            return IllegalAction("potion_used", "the life potion is already used")
        if game.victim is None:
            return IllegalAction("no_victim", "nobody was devoured tonight")
        return IllegalAction("already_done", "the victim is already saved")
    if action == "witch.poison":
        if not game.potions["death"]:
            return IllegalAction("potion_used", "the death potion is already used")
        return IllegalAction("already_done", "a player is already poisoned tonight")
    return IllegalAction("already_done", "already done in this step")


def apply(game: Game, seat: int, body: dict, now: float) -> None:
    """Check then apply one player's action. Raises IllegalAction and changes nothing if refused."""
    check_request(game, seat, body)
    action = body["action"]
    if ACTION_STEP[action] != game.step:
        raise IllegalAction("wrong_step", "this action is not possible in the current step")
    if seat not in actors(game):
        if not game.player(seat).alive:
            raise IllegalAction("not_alive", "the dead do not act")
        raise IllegalAction("not_your_turn", "it is not your turn")
    offered = {spec["action"]: spec for spec in legal_actions(game, seat)}
    if action not in offered:
        raise _refuse_missing(game, seat, action)
    spec = offered[action]
    HANDLERS[action](game, seat, _chosen(spec, body), now)


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


def _chosen(spec: dict, body: dict):
    """The target(s) of the body, checked against the prompt's choices."""
    if "choices" not in spec:
        return None
    choices = spec["choices"]
    if spec.get("count"):
        targets = body.get("targets")
        if (not isinstance(targets, list) or len(targets) != spec["count"]
                or not all(_is_seat_number(t) for t in targets)
                or len(set(targets)) != len(targets) or not all(t in choices for t in targets)):
            raise IllegalAction("invalid_target", f"choose {spec['count']} different living players")
        return sorted(targets)
    target = body.get("target")
    if target is None and spec.get("nullable"):
        return None
    if not _is_seat_number(target) or target not in choices:
        raise IllegalAction("invalid_target", "this player cannot be chosen")
    return target


# --- handlers: the action is legal, apply it -----------------------------------
def _cupid_pair(game, seat, targets, now):
    game.lovers = targets
    game.emit("cupid_pair", seat, now, targets=targets)
    for lover in targets:
        partner = targets[0] if targets[1] == lover else targets[1]
        game.emit("lover", lover, now, partner=partner)
    flow.next_night_step(game, "cupid", now)


def _seer_look(game, seat, target, now):
    game.emit("seer_look", seat, now, night=game.night, target=target, role=game.player(target).role)
    flow.next_night_step(game, "seer", now)


def _designate(game, seat, target, now):
    if target is None:
        game.designations.pop(seat, None)
    else:
        game.designations[seat] = target
    game.emit("designation", WOLVES, now, night=game.night, seat=seat, target=target)
    wolves = game.living_wolves()
    chosen = {game.designations.get(w) for w in wolves}
    if len(chosen) == 1 and None not in chosen:
        flow.resolve_wolves(game, now)


def _witch_save(game, seat, _, now):
    game.saved = True
    game.potions["life"] = False
    game.emit("witch_save", seat, now, night=game.night, target=game.victim)


def _witch_poison(game, seat, target, now):
    game.poisoned = target
    game.potions["death"] = False
    game.emit("witch_poison", seat, now, night=game.night, target=target)


def _witch_done(game, seat, _, now):
    flow.next_night_step(game, "witch", now)


def _hunter_shoot(game, seat, target, now):
    game.emit("hunter_shot", EVERYONE, now, hunter=seat, target=target)
    died = flow.kill(game, [target], "hunter", now)
    flow.after_deaths(game, died, now)


def _succession_name(game, seat, target, now):
    game.captain = target
    game.emit("succession", EVERYONE, now, previous=seat, captain=target)
    flow.continue_follow_ups(game, now)


def _election_vote(game, seat, target, now):
    if target is None:
        game.votes.pop(seat, None)
    else:
        game.votes[seat] = target
    game.emit("vote_cast", EVERYONE, now, step="election", seat=seat, target=target)
    living = game.living()
    if all(game.votes.get(s) is not None for s in living):
        flow.resolve_election(game, now)


def _request_vote(game, seat, _, now):
    game.requests.append(seat)
    game.emit("vote_request", EVERYONE, now, seat=seat, count=len(game.requests))
    if 2 * len(game.requests) > len(game.living()):
        flow.start_step(game, "vote", now)


def _vote_cast(game, seat, target, now):
    game.votes[seat] = target
    game.emit("vote_cast", EVERYONE, now, step="vote", seat=seat, target=target)
    if all(s in game.votes for s in game.living()):
        flow.resolve_vote(game, now)


def _tiebreak(game, seat, target, now):
    game.emit("tiebreak", EVERYONE, now, captain=seat, target=target)
    flow.eliminate(game, target, now)


HANDLERS = {
    "cupid.pair": _cupid_pair,
    "seer.look": _seer_look,
    "werewolves.designate": _designate,
    "witch.save": _witch_save,
    "witch.poison": _witch_poison,
    "witch.done": _witch_done,
    "hunter.shoot": _hunter_shoot,
    "succession.name": _succession_name,
    "election.vote": _election_vote,
    "debate.request_vote": _request_vote,
    "vote.cast": _vote_cast,
    "tiebreak.choose": _tiebreak,
}
