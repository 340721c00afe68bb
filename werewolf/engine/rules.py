"""The table: players, the wolf table, host settings (v2, RULES-VARIANTS A1.1, A13), the deck.

The lists of roles, steps, options and presets come from the registry.
"""

import functools

from . import registry
from .errors import IllegalAction
from .registry import RHYTHMS

MIN_LIMIT, MAX_LIMIT = 1, 3600
MIN_PLAYERS, MAX_PLAYERS = 6, 18
MAX_WOLVES = 6            # what a settings patch accepts; the start checks ⌊n/3⌋ (A13)
CHANNELS = ("village", "werewolves", "dead")
MAX_CHAT_LENGTH = 500
SETTING_KEYS = ("roles", "captain", "limits", "wolves", "options", "rhythm", "preset")
# A patch of these leaves the preset ("composition personnalisée", A1.1, A13).
COMPOSING_KEYS = ("roles", "wolves", "captain")
# Options that adjust a preset without leaving it (A13).
PRESET_NEUTRAL_OPTIONS = ("spectators",)


def wolf_count(players: int) -> int:
    """RULES.md §1: 1 wolf for 6-7 players, 2 for 8-11, 3 for 12-15, 4 for 16-18."""
    if players < 8:
        return 1
    if players < 12:
        return 2
    if players < 16:
        return 3
    return 4


def _card(pack: bool) -> str:
    """The base card the deck counts (pack) or fills with (village)."""
    return next(r.id for r in registry.ROLES.values() if not r.optional and r.pack == pack)


def _base_step(step) -> bool:
    return step.id not in registry.STEP_OPTION and (step.role is None or registry.ROLES[step.role].base)


def _step_in_game(step, settings: dict, in_deck: set) -> bool:
    """A step a game with these settings and cards may run (its limit is kept in the game).
    An option's step only while the option differs from its default, so that a base
    game's state stays the very state of before."""
    option = registry.STEP_OPTION.get(step.id)
    if option is not None:
        default = registry.OPTIONS[option].default
        return settings.get("options", {}).get(option, default) != default
    return step.role is None or registry.ROLES[step.role].base or step.role in in_deck


def rhythm_limits(rhythm: str, every_step: bool = True) -> dict:
    column = RHYTHMS.index(rhythm)
    return {step: registry.STEPS[step].limits[column] for step in registry.step_ids()
            if every_step or _base_step(registry.STEPS[step])}


def default_settings() -> dict:
    """The base game's settings. A role or step absent from ``roles`` or ``limits`` has
    its default (new roles: off), as in tables stored before they existed."""
    found = _defaults(len(registry.ROLES), len(registry.STEPS), len(registry.OPTIONS))
    return {key: dict(value) if isinstance(value, dict) else value for key, value in found.items()}


@functools.lru_cache(maxsize=4)
def _defaults(*registered) -> dict:
    """default_settings() for the registry as it is (``registered``: its sizes, which
    only grow); every new game and settings check asks for them, a few times."""
    return {
        "roles": {role.id: role.default for role in registry.ROLES.values() if role.optional and role.base},
        "captain": True,
        "limits": rhythm_limits("classique", every_step=False),
        "wolves": None,
        "options": {option.id: option.default for option in registry.OPTIONS.values()},
        "rhythm": "classique",
        "preset": None,
    }


def _invalid(message: str) -> IllegalAction:
    return IllegalAction("invalid_settings", message)


def normalized(settings: dict) -> dict:
    """Every key of v2, from settings of any age (an absent entry is the default; an
    absent new role is off)."""
    out = default_settings()
    out["roles"].update({k: v for k, v in settings.get("roles", {}).items() if k in registry.ROLES})
    out["limits"].update({k: v for k, v in settings.get("limits", {}).items() if k in registry.STEPS})
    out["options"].update(settings.get("options", {}))
    for key in ("captain", "wolves", "rhythm", "preset"):
        if key in settings:
            out[key] = settings[key]
    return out


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def merge_settings(current: dict, patch: object) -> dict:
    """Validate a settings patch (any subset) and return the merged settings.

    Anything unknown or of the wrong type is refused whole: nothing is half-applied.
    Order inside one patch: preset, rhythm, limits, then the rest (A13).
    """
    if not isinstance(patch, dict):
        raise _invalid("settings must be an object")
    for key in patch:
        if key not in SETTING_KEYS:
            raise _invalid(f"unknown setting: {str(key)[:40]}")
    merged = normalized(current)
    if "preset" in patch:
        preset = patch["preset"]
        if preset is not None and (not isinstance(preset, str) or preset not in registry.PRESETS
                                   or not registry.preset_usable(registry.PRESETS[preset])):
            # A preset naming a role or option not built yet is refused like an unknown one.
            raise _invalid(f"unknown preset: {str(preset)[:40]}")
        merged["preset"] = preset
        if preset is not None and "rhythm" not in patch:
            merged["rhythm"] = registry.PRESETS[preset].rhythm
            merged["limits"] = rhythm_limits(merged["rhythm"])
    if "rhythm" in patch:
        if patch["rhythm"] not in RHYTHMS:
            raise _invalid(f"rhythm must be one of {', '.join(RHYTHMS)}")
        merged["rhythm"] = patch["rhythm"]
        merged["limits"] = rhythm_limits(patch["rhythm"])
    if "limits" in patch:
        value = patch["limits"]
        if not isinstance(value, dict):
            raise _invalid("limits must be an object")
        for step, seconds in value.items():
            if step not in registry.STEPS:
                raise _invalid(f"unknown step: {str(step)[:40]}")
            if not _is_int(seconds):
                raise _invalid(f"limits.{step} must be a whole number of seconds")
            if not MIN_LIMIT <= seconds <= MAX_LIMIT:
                raise _invalid(f"limits.{step} must be between {MIN_LIMIT} and {MAX_LIMIT}")
            merged["limits"][step] = seconds
    if "roles" in patch:
        value = patch["roles"]
        if not isinstance(value, dict):
            raise _invalid("roles must be an object")
        optional = set(registry.optional_roles())
        for role, on in value.items():
            if role not in optional:
                # A role whose rules are not built yet is refused, never a setting that does nothing.
                raise _invalid(f"unknown optional role: {str(role)[:40]}")
            if not isinstance(on, bool):
                raise _invalid(f"roles.{role} must be true or false")
            merged["roles"][role] = on
    if "captain" in patch:
        if not isinstance(patch["captain"], bool):
            raise _invalid("captain must be true or false")
        merged["captain"] = patch["captain"]
    if "wolves" in patch:
        wolves = patch["wolves"]
        if wolves is not None and not (_is_int(wolves) and 1 <= wolves <= MAX_WOLVES):
            raise _invalid(f"wolves must be null or a whole number from 1 to {MAX_WOLVES}")
        merged["wolves"] = wolves
    composing = any(key in patch for key in COMPOSING_KEYS)
    if "options" in patch:
        value = patch["options"]
        if not isinstance(value, dict):
            raise _invalid("options must be an object")
        for key, option_value in value.items():
            option = registry.OPTIONS.get(key)
            if option is None:
                raise _invalid(f"unknown option: {str(key)[:40]}")
            if not option.check(option_value):
                raise _invalid(f"options.{key}: value not allowed")
            merged["options"][key] = option_value
            composing = composing or key not in PRESET_NEUTRAL_OPTIONS
    if composing and "preset" not in patch:
        merged["preset"] = None
    return merged


def effective_settings(settings: dict, players: int) -> dict:
    """The settings in force for this many seated players: a preset fixes the roles,
    wolves, Captain and options by the table's size (A7.5, A13)."""
    out = normalized(settings)
    preset = registry.PRESETS.get(out["preset"])
    if preset is not None:
        composed = preset_composition(preset, players)
        out["roles"] = {role: role in composed["roles"] for role in {*out["roles"], *composed["roles"]}}
        out["wolves"] = composed["wolves"]
        out["captain"] = composed["captain"]
        out["options"] = {**{option.id: option.default for option in registry.OPTIONS.values()},
                          **{k: v for k, v in out["options"].items() if k in PRESET_NEUTRAL_OPTIONS},
                          **composed["options"]}
    return out


def preset_composition(preset, players: int) -> dict:
    """What a preset gives for this many seated: {roles, wolves, captain, options} (the
    wolves as a number: the table's when the preset says "w")."""
    _, _, wolves, cards = preset.bracket(players)
    size = min(max(players, preset.sizes[0]), preset.sizes[1])
    return {"roles": set(cards), "wolves": wolves or wolf_count(size), "captain": preset.captain,
            "options": dict(preset.options)}


def shown_settings(settings: dict, players: int) -> dict:
    """What the table shows (A13): the effective values for the number seated, every
    optional role and every step's limit listed."""
    out = effective_settings(settings, players)
    out["roles"] = {role: out["roles"].get(role, registry.ROLES[role].default) for role in registry.optional_roles()}
    out["limits"] = {**rhythm_limits(out["rhythm"]), **out["limits"]}
    # The steps whose limit is not the rhythm's: a rhythm changed by hand no longer reads
    # as plain "Classique" (issue 35).
    rhythm = rhythm_limits(out["rhythm"])
    out["limits_changed"] = sorted(step for step, seconds in out["limits"].items() if rhythm.get(step) != seconds)
    return out


def check_start(settings: dict, players: int) -> None:
    """The start's checks against the number seated (A1.2, A7.5): raises, changes nothing."""
    preset = registry.PRESETS.get(settings.get("preset"))
    if preset is not None and not preset.sizes[0] <= players <= preset.sizes[1]:
        raise IllegalAction("bad_player_count",
                            f"this preset is for {preset.sizes[0]} to {preset.sizes[1]} players")
    deck(players, settings)


def deck_check(settings: dict, players: int) -> dict:
    """The waiting room's card counter (issue 35): the cards chosen (wolves and specials)
    against the seats, and what the start would refuse now (its error code), or None.
    ``settings``: a table's stored settings; the same checks as the start's, nothing changed."""
    effective = effective_settings(merge_settings(default_settings(), settings), players)
    wolves = effective.get("wolves") or wolf_count(players)
    chosen = wolves + sum(role.cards for role in registry.ROLES.values()
                          if role.optional and effective["roles"].get(role.id, role.default))
    error = None
    if players < MIN_PLAYERS or players > MAX_PLAYERS:
        error = "bad_player_count"
    else:
        try:
            check_start(effective, players)
        except IllegalAction as refused:
            error = refused.code
    return {"cards": chosen, "seats": players, "error": error}


def game_settings(settings: dict, cards: list[str]) -> dict:
    """What a game keeps of its table's settings: the base keys as always, and the new
    ones only when they differ from the default (so a base game's state is unchanged)."""
    in_deck = set(cards)
    options = {k: v for k, v in settings.get("options", {}).items() if v != registry.OPTIONS[k].default}
    roles = {role.id: settings["roles"].get(role.id, role.default) for role in registry.ROLES.values()
             if role.optional and (role.base or settings["roles"].get(role.id))}
    limits = {step.id: settings["limits"].get(step.id, step.limit) for step in registry.STEPS.values()
              if _step_in_game(step, settings, in_deck)}
    out = {"roles": roles, "captain": settings["captain"], "limits": limits}
    if settings.get("wolves") is not None:
        out["wolves"] = settings["wolves"]
    if options:
        out["options"] = options
    return out


def deck(players: int, settings: dict) -> list[str]:
    """The cards for a table: wolves, each enabled special, Villagers to fill the seats,
    and the cards that lie in the middle (the Thief's two Villagers). Never more cards
    for the seats than seats: ``bad_composition`` (A1.2)."""
    wolves = settings.get("wolves") or wolf_count(players)
    if not 1 <= wolves <= players // 3:
        raise IllegalAction("bad_composition", f"between 1 and {players // 3} wolves for {players} players")
    cards = [_card(pack=True)] * wolves
    middle = 0
    for role in registry.ROLES.values():
        if role.optional and settings["roles"].get(role.id, role.default):
            if role.wolf_place:   # a wolf's place (RULES-BOX B1.2: the Wolf-Father), one werewolf fewer
                cards.remove(_card(pack=True))
            cards += [role.id] * role.cards
            middle += role.middle_cards
    if len(cards) > players:
        raise IllegalAction("bad_composition", f"{len(cards)} cards for {players} seats")
    cards += [_card(pack=False)] * (players - len(cards) + middle)
    return cards


def composition(cards: list[str]) -> dict:
    """What everyone is told: every card's count (the base cards always), and how many
    lie in the middle."""
    return dict(_composition(tuple(cards)))


@functools.lru_cache(maxsize=1024)
def _composition(cards: tuple) -> dict:
    out = {role.id: cards.count(role.id) for role in registry.ROLES.values() if role.base or role.id in cards}
    middle = sum(registry.ROLES[role].middle_cards for role in set(cards))
    if middle:
        out["middle"] = middle
    return out
