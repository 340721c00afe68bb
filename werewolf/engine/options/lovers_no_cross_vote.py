"""Lovers may not vote for each other — `lovers_no_cross_vote` (RULES-VARIANTS A5.4, 004):
in every elimination round (vote, revote, runoff, stake) a lover's choices exclude his
partner (refused `invalid_target`). Not in `election`, not in `tiebreak` (decision A5.4)."""
from .. import registry
from ..game import Game
from ..registry import Option

ID = "lovers_no_cross_vote"


def _prompt(game: Game, seat: int, specs: list) -> list:
    if not game.lovers or seat not in game.lovers or not registry.option_value(game, ID):
        return specs
    step = registry.STEPS[game.step]
    if not step.ballots or game.step == "election":
        return specs
    partner = game.lovers[0] if game.lovers[1] == seat else game.lovers[1]
    return [{**spec, "choices": [s for s in spec["choices"] if s != partner]} if "choices" in spec else spec
            for spec in specs]


OPTION = registry.register_option(Option(
    id=ID, default=False, group="votes", roles=("cupid",), check=lambda value: isinstance(value, bool), hooks={"prompt": _prompt}))
