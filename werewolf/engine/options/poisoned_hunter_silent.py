"""Hunter — `poisoned_hunter_silent` (RULES-VARIANTS A6.3, 003): a Hunter who dies of
the Witch's poison does not shoot (nor does his testament). His `hunter` step still runs
to its limit with no prompt and ends as a time-out: skipping it would tell the table
he was poisoned (night causes stay secret)."""
from .. import registry
from ..errors import IllegalAction
from ..game import Game
from ..registry import Option

ID = "poisoned_hunter_silent"


def silenced(game: Game, seat: int) -> bool:
    # The Hunter's step follows the night he died in; game.poisoned is that night's.
    return game.step == "hunter" and game.poisoned == seat and registry.option_value(game, ID) is True


def _prompt(game: Game, seat: int, specs: list) -> list:
    return [s for s in specs if s["action"] != "hunter.shoot"] if silenced(game, seat) else specs


def _refusal(game: Game, seat: int, action: str):
    if action == "hunter.shoot" and silenced(game, seat):
        return IllegalAction("not_your_turn", "the Hunter does not shoot")
    return None


OPTION = registry.register_option(Option(
    id=ID, default=False, group="roles", roles=("witch", "hunter"), check=lambda value: isinstance(value, bool),
    hooks={"prompt": _prompt, "refusal": _refusal}))
