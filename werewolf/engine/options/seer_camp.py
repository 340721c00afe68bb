"""Seer sees the camp — `seer_camp` (RULES-VARIANTS A6.1): a look teaches the camp
(`wolves`, `village`, `solitary`) at that moment, never the card; never herself, never
the dead, never a seat she has already looked at."""
from .. import camps, flow, registry
from ..errors import IllegalAction
from ..game import Game
from ..registry import Option

ID = "seer_camp"


def _on(game: Game) -> bool:
    return registry.option_value(game, ID) is True


def _looks(game: Game, seat: int) -> dict[int, str]:
    """The camps this Seer learned, by seat (read back from her events)."""
    return {e["target"]: e["camp"] for e in game.events
            if e["kind"] == "seer_look" and e["audience"] == seat and "camp" in e}


def _teach_camp(game: Game, target: int, data: dict) -> None:
    if _on(game):
        data.pop("role")
        data["camp"] = camps.camp_of(game, target)   # the camp now (RULES-BOX B6.2)


def _prompt(game: Game, seat: int, specs: list) -> list:
    if not _on(game):
        return specs
    out = []
    for spec in specs:
        if spec["action"] == "seer.look":
            seen = _looks(game, seat)
            spec = {**spec, "choices": [s for s in spec["choices"] if s not in seen]}
            if not spec["choices"]:
                continue   # every living player was looked at: nothing to offer
        out.append(spec)
    return out


def _refusal(game: Game, seat: int, action: str):
    """Her prompt is open yet offers no look: every living player was looked at already."""
    if action == "seer.look" and _on(game) and not flow.is_closed(game, "seer"):
        return IllegalAction("invalid_target", "every living player was looked at already")
    return None


def _view(game: Game, seat: int, view: dict) -> None:
    if _on(game):
        for target, camp in _looks(game, seat).items():
            view["players"][target - 1]["camp"] = camp


OPTION = registry.register_option(Option(
    id=ID, default=False, group="roles", roles=("seer",), check=lambda value: isinstance(value, bool),
    hooks={"seer_look": _teach_camp, "prompt": _prompt, "refusal": _refusal, "view": _view}))
