"""Witch — `witch_no_self_save` (RULES-VARIANTS A6.2, 004): when the wolves' choice is
the Witch, `witch.save` is not offered (`cannot_save_self`); she still learns she is
the choice, and may still poison herself."""
from .. import registry
from ..errors import IllegalAction
from ..game import Game
from ..registry import Option

ID = "witch_no_self_save"


def _applies(game: Game, seat: int) -> bool:
    return game.step == "witch" and game.victim == seat and registry.option_value(game, ID)


def _prompt(game: Game, seat: int, specs: list) -> list:
    return [s for s in specs if s["action"] != "witch.save"] if _applies(game, seat) else specs


def _refusal(game: Game, seat: int, action: str):
    if action == "witch.save" and _applies(game, seat) and game.potions["life"]:
        return IllegalAction("cannot_save_self", "the Witch cannot save herself")
    return None


OPTION = registry.register_option(Option(
    id=ID, default=False, group="roles", roles=("witch",), check=lambda value: isinstance(value, bool),
    hooks={"prompt": _prompt, "refusal": _refusal}))
