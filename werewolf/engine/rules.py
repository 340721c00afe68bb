"""The rule book's constants: roles, steps, limits, the wolf table, host settings."""

from .errors import IllegalAction

WEREWOLF, VILLAGER, SEER, WITCH, HUNTER, CUPID = "werewolf", "villager", "seer", "witch", "hunter", "cupid"
ROLES = (WEREWOLF, VILLAGER, SEER, WITCH, HUNTER, CUPID)
OPTIONAL_ROLES = (SEER, WITCH, HUNTER, CUPID)

STEPS = ("cupid", "seer", "werewolves", "witch", "dawn", "hunter",
         "succession", "election", "debate", "vote", "tiebreak")
NIGHT_STEPS = ("cupid", "seer", "werewolves", "witch")

DEFAULT_LIMITS = {
    "cupid": 45, "seer": 45, "werewolves": 90, "witch": 45, "dawn": 8, "hunter": 45,
    "succession": 45, "election": 120, "debate": 180, "vote": 60, "tiebreak": 45,
}
MIN_LIMIT, MAX_LIMIT = 1, 3600

# Table options (RULES-VARIANTS A1.1); each built one is listed here with its default.
DEFAULT_OPTIONS = {"spectators": False}

MIN_PLAYERS, MAX_PLAYERS = 6, 18
CHANNELS = ("village", "werewolves", "dead")
MAX_CHAT_LENGTH = 500


def wolf_count(players: int) -> int:
    """RULES.md §1: 1 wolf for 6-7 players, 2 for 8-11, 3 for 12-15, 4 for 16-18."""
    if players < 8:
        return 1
    if players < 12:
        return 2
    if players < 16:
        return 3
    return 4


def default_settings() -> dict:
    return {
        "roles": {role: True for role in OPTIONAL_ROLES},
        "captain": True,
        "limits": dict(DEFAULT_LIMITS),
        "options": dict(DEFAULT_OPTIONS),
    }


def _invalid(message: str) -> IllegalAction:
    return IllegalAction("invalid_settings", message)


def merge_settings(current: dict, patch: object) -> dict:
    """Validate a settings patch (any subset) and return the merged settings.

    Anything unknown or of the wrong type is refused whole: nothing is half-applied.
    """
    if not isinstance(patch, dict):
        raise _invalid("settings must be an object")
    merged = {
        "roles": dict(current.get("roles", {})),
        "captain": current.get("captain", True),
        "limits": dict(current.get("limits", {})),
        "options": {**DEFAULT_OPTIONS, **current.get("options", {})},
    }
    for key, value in patch.items():
        if key == "roles":
            if not isinstance(value, dict):
                raise _invalid("roles must be an object")
            for role, on in value.items():
                if role not in OPTIONAL_ROLES:
                    raise _invalid(f"unknown optional role: {str(role)[:40]}")
                if not isinstance(on, bool):
                    raise _invalid(f"roles.{role} must be true or false")
                merged["roles"][role] = on
        elif key == "captain":
            if not isinstance(value, bool):
                raise _invalid("captain must be true or false")
            merged["captain"] = value
        elif key == "limits":
            if not isinstance(value, dict):
                raise _invalid("limits must be an object")
            for step, seconds in value.items():
                if step not in STEPS:
                    raise _invalid(f"unknown step: {str(step)[:40]}")
                if isinstance(seconds, bool) or not isinstance(seconds, int):
                    raise _invalid(f"limits.{step} must be a whole number of seconds")
                if not MIN_LIMIT <= seconds <= MAX_LIMIT:
                    raise _invalid(f"limits.{step} must be between {MIN_LIMIT} and {MAX_LIMIT}")
                merged["limits"][step] = seconds
        elif key == "options":
            if not isinstance(value, dict):
                raise _invalid("options must be an object")
            for option, on in value.items():
                if option not in DEFAULT_OPTIONS:
                    raise _invalid(f"unknown option: {str(option)[:40]}")
                if not isinstance(on, bool):
                    raise _invalid(f"options.{option} must be true or false")
                merged["options"][option] = on
        else:
            raise _invalid(f"unknown setting: {str(key)[:40]}")
    return merged


def deck(players: int, settings: dict) -> list[str]:
    """The cards for a table: wolves by size, each enabled special role once, villagers."""
    cards = [WEREWOLF] * wolf_count(players)
    cards += [role for role in OPTIONAL_ROLES if settings["roles"].get(role, True)]
    cards += [VILLAGER] * (players - len(cards))
    return cards


def composition(cards: list[str]) -> dict:
    return {role: cards.count(role) for role in ROLES}
