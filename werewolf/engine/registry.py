"""Roles, steps, actions, options and presets as values, looked up by id.

A role module (``engine/roles/<id>.py``) builds its ``Role`` with its ``Step``s and
hooks and calls ``register``; the kernel (``flow``) only asks this registry, never a
role by name. Hooks are functions attached to named points; at each point they run in
the order (priority, module id), so a game replays the same whatever the import order.

Everything here is a definition, shared by every game: a role's state for one game
lives in that game (``game.extra[<role id>]``, or a field of ``Game`` for the base
roles), never in a module global.
"""

from dataclasses import dataclass, field
from typing import Callable

# Camps of cards (RULES-VARIANTS A4).
VILLAGE, WOLVES, SOLITARY = "village", "wolves", "solitary"
CAMPS = (VILLAGE, WOLVES, SOLITARY)

# What a prompt action asks for; the API body field each kind reads is in BODY_FIELDS.
SEAT, SEATS, CARD, CONFIRM = "seat", "seats", "card", "confirm"
CHOICE_KINDS = (SEAT, SEATS, CARD, CONFIRM)
BODY_FIELDS = {SEAT: "target", SEATS: "targets", CARD: "card", CONFIRM: None}

RHYTHMS = ("rapide", "classique", "lent")   # A7.4; the index into Step.limits

# The named points where modules hook into the kernel, and what each hook receives.
HOOK_POINTS = {
    "deal": "(game) once the cards are dealt: set up the module's state",
    "night_begins": "(game) a new night opens: reset what the night gathers",
    "night_attack": "(game, victim) -> victim or None: may spare the wolves' choice",
    "night_deaths": "(game, deaths, now): append the seats that die this night",
    "night_summary": "(game, data): add fields to the end-only night summary",
    "grief": "(game, died): append (seat, cause) for who dies with the dead",
    "queue_follow_ups": "(game, died): remember what these deaths call for",
    "follow_up": "(game, now) -> bool: start a follow-up step, True if one started",
    "day_start": "(game, now) -> bool: start the day's first step, True if one started",
    "vote_weight": "(game) -> function(voter) -> weight, or None",
    "vote_tie": "(game, leaders, now) -> bool: settle a tied vote, True if handled",
    "mixed_couple": "(game) -> set of seats who play only for their couple",
    "known_roles": "(game, seat, known): add the cards this seat knows",
    "view_me": "(game, seat, me): add this seat's private fields to view['me']",
    "view": "(game, seat, view): add fields to the view",
    "step_starts": "(game, now) a step has just started (its `step` event emitted): draws, announcements",
    "chat_posted": "(game, message) a message was just stored in game.chat (its readers' versions moved)",
    "channel_readers": "(game, channel, seats): append the living seats who also read this channel",
    "writable_channels": "(game, seat, channels): append the channels this seat may also write in now",
    "vote_choices": "(game, choices) -> choices: whom the village's `vote` may target",
    "vote_counted": "(game, tally, leaders, now) -> bool: take over the vote's outcome, True if handled",
}


def nobody(game, living) -> list[int]:
    return []


def no_prompt(game, seat, living) -> list[dict]:
    return []


@dataclass(frozen=True)
class Action:
    id: str                       # "role.verb"
    kind: str                     # one of CHOICE_KINDS
    apply: Callable               # (game, seat, choice, now); the choice is already checked
    refusal: Callable | None = None   # (game, seat) -> IllegalAction when an actor is not offered it
    nullable: bool = False        # a seat choice that may be null


@dataclass(frozen=True)
class Step:
    id: str
    phase: str                    # "night" | "day"
    limits: tuple                 # seconds for (rapide, classique, lent); classique is the default
    time_out: Callable            # (game, now): what the step's limit running out does
    actors: Callable | None = nobody  # (game, living) -> seats who may act now; None: every living player
    prompt: Callable = no_prompt  # (game, seat, living) -> action specs for one actor
    actions: tuple = ()           # Action values
    night_order: int | None = None    # place in the sequential night (A2.1), None: not in it
    runs: Callable | None = None  # night steps: (game) -> whether it runs tonight
    on_start: Callable | None = None  # (game, now) after the step event
    shows: tuple = ()             # extra view fields: step "actor", "tied", "candidates"; "votes" (public)
    role: str | None = None       # the role whose card acts in it, if any
    order: int | None = None      # where lists show it (limits, catalog); night steps: night_order

    @property
    def limit(self) -> int:
        return self.limits[1]

    @property
    def rank(self) -> int:
        return self.order if self.order is not None else self.night_order


@dataclass(frozen=True)
class Side:
    """Actions a module offers during steps it does not own (the Little Girl spies during
    `werewolves`): its actors join the step's, its prompt is added to theirs. They never
    end the step: the step's own actions and time-out decide that."""
    steps: tuple                  # step ids (one not registered yet is simply never current)
    actors: Callable              # (game, living) -> seats who may act now
    prompt: Callable              # (game, seat, living) -> action specs for one of them
    actions: tuple = ()           # Action values


@dataclass(frozen=True)
class Module:
    """A part of the rules with steps and hooks: a role, the Captain, the lovers."""
    id: str
    steps: tuple = ()
    side: tuple = ()              # Side values
    hooks: dict = field(default_factory=dict)   # point -> function or (priority, function)
    events: tuple = ()            # the event kinds it emits (the catalog lists them)


@dataclass(frozen=True)
class Role(Module):
    """A card. ``pack``: a werewolf (acts in `werewolves`, reads its channel, is bitten by nobody)."""
    camp: str = VILLAGE
    pack: bool = False
    optional: bool = True         # the host may take it out (or put it in)
    default: bool = False         # in the deck unless the host says otherwise
    cards: int = 1                # cards in the deck when enabled
    base: bool = False            # a card of RULES.md: always listed in the composition
    middle_cards: int = 0         # extra cards that lie in the middle when enabled (the Thief: 2)
    emoji: str = ""               # the card's picture on the pages


@dataclass(frozen=True)
class Option:
    """A table option (A5-A7): a value with a check and its own hooks."""
    id: str
    default: object
    check: Callable               # (value) -> bool
    hooks: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Preset:
    """A ready-made table (A7.5): ``compose(n)`` -> {roles, wolves, captain, options}."""
    id: str
    sizes: tuple                  # (min, max) players
    compose: Callable
    rhythm: str = "classique"


MODULES: dict[str, Module] = {}
ROLES: dict[str, Role] = {}       # in registration order: the deck's order
STEPS: dict[str, Step] = {}
ACTIONS: dict[str, Action] = {}
ACTION_STEP: dict[str, str] = {}   # action -> its step (a side action: the first of its steps)
ACTION_STEPS: dict[str, tuple] = {}  # action -> every step where it may be offered
SIDES: dict[str, tuple] = {}      # step id -> the Side values offered during it
OPTIONS: dict[str, Option] = {}
PRESETS: dict[str, Preset] = {}
PACK: set = set()                 # role ids that are werewolves
_hooks: dict[str, tuple] = {}    # point -> ((priority, owner, fn), ...)
_hook_fns: dict[str, tuple] = {}  # point -> (fn, ...) in that order
_night: list = []                 # night steps in order
_night_index: dict[str, int] = {}


def _add_steps(steps) -> None:
    for step in steps:
        if step.id in STEPS:
            raise ValueError(f"step {step.id} registered twice")
        STEPS[step.id] = step
        for action in step.actions:
            if action.kind not in CHOICE_KINDS:
                raise ValueError(f"{action.id}: unknown choice kind {action.kind}")
            ACTIONS[action.id] = action
            ACTION_STEP[action.id] = step.id
            ACTION_STEPS[action.id] = (step.id,)
    _night[:] = sorted((s for s in STEPS.values() if s.night_order is not None), key=lambda s: s.night_order)
    _night_index.clear()
    _night_index.update({s.id: i for i, s in enumerate(_night)})


def _add_hooks(owner: str, hooks: dict) -> None:
    for point, hook in hooks.items():
        if point not in HOOK_POINTS:
            raise ValueError(f"{owner}: unknown hook point {point}")
        priority, fn = hook if isinstance(hook, tuple) else (50, hook)
        entries = [*_hooks.get(point, ()), (priority, owner, fn)]
        entries.sort(key=lambda entry: entry[:2])
        _hooks[point] = tuple(entries)
        _hook_fns[point] = tuple(entry[2] for entry in entries)


def register(module: Module) -> Module:
    if module.id in MODULES or module.id in OPTIONS:
        raise ValueError(f"{module.id} registered twice")
    MODULES[module.id] = module
    if isinstance(module, Role):
        if module.camp not in CAMPS:
            raise ValueError(f"{module.id}: unknown camp {module.camp}")
        ROLES[module.id] = module
        if module.pack:
            PACK.add(module.id)
    _add_steps(module.steps)
    for side in module.side:
        for action in side.actions:
            if action.id in ACTIONS or action.kind not in CHOICE_KINDS:
                raise ValueError(f"{module.id}: side action {action.id} registered twice or of unknown kind")
            ACTIONS[action.id] = action
            ACTION_STEP[action.id] = side.steps[0]
            ACTION_STEPS[action.id] = tuple(side.steps)
        for step_id in side.steps:
            SIDES[step_id] = (*SIDES.get(step_id, ()), side)
    _add_hooks(module.id, module.hooks)
    return module


def register_steps(*steps: Step) -> None:
    """Steps of the kernel itself (dawn, debate, vote): no module owns them."""
    _add_steps(steps)


def register_option(option: Option) -> Option:
    if option.id in OPTIONS or option.id in MODULES:
        raise ValueError(f"option {option.id} registered twice")
    OPTIONS[option.id] = option
    _add_hooks(option.id, option.hooks)
    return option


def register_preset(preset: Preset) -> Preset:
    PRESETS[preset.id] = preset
    return preset


# --- lookups used by the kernel --------------------------------------------------
def hooks(point: str) -> tuple:
    """The functions at this point, in (priority, id) order."""
    return _hook_fns.get(point, ())


def sides(step_id: str | None) -> tuple:
    """The side actions offered during this step (see Side)."""
    return SIDES.get(step_id, ())


def night_steps() -> list:
    return _night


def step_ids() -> list[str]:
    """Every step, the night's in their order, then the day's."""
    return [s.id for s in sorted(STEPS.values(), key=lambda s: (s.phase != "night", s.rank))]


def night_steps_after(step_id: str | None) -> list:
    return _night[_night_index[step_id] + 1:] if step_id else _night


def is_pack(role_id: str) -> bool:
    return role_id in PACK


def camp(role_id: str) -> str:
    return ROLES[role_id].camp


def optional_roles() -> list[str]:
    return [r.id for r in ROLES.values() if r.optional]
