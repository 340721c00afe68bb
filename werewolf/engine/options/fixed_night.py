"""Fixed-length night — `fixed_night` (RULES-VARIANTS A7.1).

The night is planned: on night 1 the "first_night" steps whose card is in the deck
(thief, cupid), then one `night` step where every "inside" step acts at once (the Seer,
the Guard, the wolves, and any role step added later, by default), then the "after"
steps whose card is in the deck (witch). The plan depends only on the deck (public) and
the night's number; the kernel runs each step to its whole limit (an action only closes
its player's prompt), and at the end of `night` every gathered step times out by its own
rule (the wolves' victim is settled then).
"""
from .. import flow, registry
from ..game import Game
from ..registry import Option, Step

ID = "fixed_night"


def _on(game: Game) -> bool:
    return bool(game.settings.get("options", {}).get(ID))


def _in_deck(game: Game, step) -> bool:
    """Its card is in the deck, and tonight is one of its nights (Step.nights). The pack's step
    (the plain Werewolf's, the one wolf card always in the deck) is every wolf card's (RULES-BOX
    B0.3): a lone Wolf-Father hunts with no Werewolf card dealt."""
    card = step.role
    packs = card is not None and registry.is_pack(card) and not registry.ROLES[card].optional
    in_deck = card is None or card in game.cards or (packs and any(registry.is_pack(c) for c in game.cards))
    return in_deck and (step.nights is None or step.nights(game.night))


def _gathered(game: Game) -> list[str]:
    return [s.id for s in registry.night_steps() if s.fixed_night == "inside" and _in_deck(game, s)]


def _plan(game: Game) -> list[str] | None:
    if not _on(game):
        return None
    steps = registry.night_steps()
    first = [s.id for s in steps if s.fixed_night == "first_night" and game.night == 1 and _in_deck(game, s)]
    after = [s.id for s in steps if s.fixed_night == "after" and _in_deck(game, s)]
    return [*first, NIGHT.id, *after]


NIGHT = Step("night", "night", (60, 90, 180), time_out=lambda game, now: None, gathers=_gathered, order=75,
             actors=flow.everyone_alive)   # the gathered steps say who acts; this is never asked

FIXED_NIGHT = registry.register_option(Option(
    ID, default=False, check=lambda value: isinstance(value, bool), group="night", steps=(NIGHT,),
    hooks={"night_plan": _plan}))
