"""Ties — `tie` (RULES-VARIANTS A5.2): what a tied elimination round leads to.

`captain` (default, base §5): the Captain's `tiebreak`. `none`: nobody, even with a
Captain. `revote`: a living Captain breaks it; else `defense` then `revote` among the
tied (everyone votes, the tied included), at most three re-votes in a day. `runoff`:
`defense` then one `runoff` among the tied where they do not vote; still tied: a living
Captain breaks it, else nobody.

The rounds themselves go through the kernel's one path (day.cast_ballot, close_round,
sentence), so a secret ballot, the Captain's double vote and the lovers' rule apply to
them as to the vote. A tie at any round (`vote`, `stake`...) comes here by `vote_tie`.
"""
from .. import day, flow, registry
from ..game import Game
from ..registry import CONFIRM, SEAT, Action, Option, Step

ID = "tie"
MODES = ("captain", "none", "revote", "runoff")
MAX_REVOTES = 3   # A5.2 (decision): so that a day ends


def _mode(game: Game) -> str:
    return registry.option_value(game, ID)


def _living_captain(game: Game) -> int | None:
    return game.captain if game.captain is not None and game.player(game.captain).alive else None


def _state(game: Game) -> dict:
    return game.extra.setdefault(ID, {"defended": []})


def _vote_tie(game: Game, leaders: list[int], step_id: str, now: float) -> bool:
    mode = _mode(game)
    if mode == "captain":
        return False                              # the Captain's hook (base)
    if mode == "none":
        flow.begin_night(game, now)
        return True
    if mode == "revote":
        if _living_captain(game) is not None:
            return False                          # 001: the Captain's vote decides
        if step_id == "revote" and day.round_number(game) >= MAX_REVOTES:
            flow.begin_night(game, now)
            return True
        _defense(game, leaders, step_id, now)
        return True
    # runoff: one run-off, then the Captain or nobody.
    if step_id == "runoff" or set(leaders) >= set(game.living()):
        return False                              # nobody left to vote: the tie persists
    _defense(game, leaders, step_id, now)
    return True


def _defense(game: Game, tied: list[int], step_id: str, now: float) -> None:
    # The re-vote that follows is the next round after a re-vote, else the first (A13).
    game.extra[ID] = {"defended": [], "round": day.round_number(game) + 1 if step_id == "revote" else 1}
    flow.start_step(game, "defense", now, tied=tied)


def _defense_prompt(game: Game, seat: int, living) -> list[dict]:
    return [] if seat in _state(game)["defended"] else [{"action": "defense.done"}]


def _defense_done(game: Game, seat: int, _, now: float) -> None:
    defended = _state(game)["defended"]
    defended.append(seat)
    game.touch(seat)   # his prompt closed; the others learn it only when the defense ends
    if all(s in defended for s in game.tied):
        _after_defense(game, now)


def _after_defense(game: Game, now: float) -> None:
    tied = list(game.tied)
    state = game.extra.pop(ID)
    if _mode(game) == "revote":
        game.extra["round"] = state["round"]
        flow.start_step(game, "revote", now, tied=tied)
    else:
        flow.start_step(game, "runoff", now, tied=tied)


def _night_begins(game: Game) -> None:
    game.extra.pop("round", None)   # at most three re-votes a day
    game.extra.pop(ID, None)


def _the_tied(game: Game, living) -> list[int]:
    return [s for s in game.tied if s in living]


def _not_tied(game: Game, living) -> list[int]:
    return [s for s in living if s not in game.tied]


def _village_writers(game: Game):
    return list(game.tied) if game.step == "defense" else None


DEFENSE = Step("defense", "day", (40, 60, 120), time_out=_after_defense, actors=_the_tied, prompt=_defense_prompt,
               actions=(Action("defense.done", CONFIRM, _defense_done),), shows=("tied",), order=162)
REVOTE = Step("revote", "day", (30, 45, 90), time_out=day.close_round, actors=flow.everyone_alive, eliminates=True,
              prompt=day.ballot_prompt("revote.cast"), ballots=True,
              actions=(Action("revote.cast", SEAT, day.cast_ballot, nullable=True),),
              shows=("tied", "round"), order=164)
RUNOFF = Step("runoff", "day", (30, 45, 90), time_out=day.close_round, actors=_not_tied, eliminates=True,
              tied_sit_out=True,
              prompt=day.ballot_prompt("runoff.cast"), ballots=True,
              actions=(Action("runoff.cast", SEAT, day.cast_ballot, nullable=True),),
              shows=("tied",), order=166)

OPTION = registry.register_option(Option(
    id=ID, default="captain", values=MODES, group="votes", check=lambda value: value in MODES,
    steps=(DEFENSE, REVOTE, RUNOFF),
    hooks={"vote_tie": (5, _vote_tie), "night_begins": _night_begins, "village_writers": _village_writers}))
