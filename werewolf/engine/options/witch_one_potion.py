"""Witch — `witch_one_potion` (RULES-VARIANTS A6.2, 003): never both potions the same
night; once one is used, the other is not offered that night (`one_potion_per_night`)."""
from .. import registry
from ..errors import IllegalAction
from ..game import Game
from ..registry import Option

ID = "witch_one_potion"
OTHER = {"witch.save": "witch.poison", "witch.poison": "witch.save"}


def _used_tonight(game: Game) -> set[str]:
    return ({"witch.save"} if game.saved else set()) | ({"witch.poison"} if game.poisoned is not None else set())


def _held(game: Game, action: str) -> bool:
    return game.potions["life" if action == "witch.save" else "death"]


def _prompt(game: Game, seat: int, specs: list) -> list:
    if game.step != "witch" or not registry.option_value(game, ID):
        return specs
    used = _used_tonight(game)
    return [s for s in specs if not (s["action"] in OTHER and OTHER[s["action"]] in used)]


def _refusal(game: Game, seat: int, action: str):
    if (action in OTHER and registry.option_value(game, ID) and _held(game, action)
            and OTHER[action] in _used_tonight(game)):
        return IllegalAction("one_potion_per_night", "only one potion per night")
    return None


OPTION = registry.register_option(Option(
    id=ID, default=False, group="roles", roles=("witch",), check=lambda value: isinstance(value, bool),
    hooks={"prompt": _prompt, "refusal": _refusal}))
