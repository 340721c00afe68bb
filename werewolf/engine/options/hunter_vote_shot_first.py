"""Hunter — `hunter_vote_shot_first` (RULES-VARIANTS A6.3, 003): a Hunter eliminated by a
vote shoots before the end check. If that shot kills the last living werewolf and leaves
nobody alive, the village wins; any other all-dead table: nobody. At night the base order
stands (RULES.md §4: the check first).

The kernel asks `vote_elimination` after a vote elimination's deaths; the check then runs here
once the Hunter's step is over (follow_up at 15: after his shot, before the succession).
"""
from .. import camps, flow, registry
from ..game import Game
from ..registry import Option

ID = "hunter_vote_shot_first"


def _on(game: Game) -> bool:
    return registry.option_value(game, ID) is True


def _wait(game: Game, seat: int, died: list[int] | None, now: float) -> bool:
    if died is None:
        return False   # the vote's deaths are not known yet
    hunters = [s for s in died if game.player(s).role == "hunter"]
    if not _on(game) or not hunters:
        return False
    game.extra[ID] = {"hunter": hunters[0]}
    return True


def _check_after_shot(game: Game, now: float) -> bool:
    if ID not in game.extra or game.pending_hunters:
        return False
    game.extra.pop(ID)
    return flow.check_end(game, now)   # ended: no follow-up left to run


def _all_dead(game: Game, check: flow.EndCheck) -> None:
    waiting = game.extra.get(ID)
    if check.living or waiting is None:
        return
    shots = [e for e in game.events if e["kind"] == "hunter_shot" and e["hunter"] == waiting["hunter"]]
    if shots and shots[-1]["target"] is not None and game.in_pack(shots[-1]["target"]):
        check.all_dead = {"camp": registry.WINNER_VILLAGE,
                          "seats": [p.seat for p in game.players if camps.side_of(game, p.seat) == registry.VILLAGE]}


OPTION = registry.register_option(Option(
    id=ID, default=False, group="roles", roles=("hunter",), check=lambda value: isinstance(value, bool),
    hooks={"vote_elimination": _wait, "follow_up": (15, _check_after_shot), "end_check": _all_dead}))
