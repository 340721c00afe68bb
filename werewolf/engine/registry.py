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

# The two phases a step belongs to (Step.phase), night first (GET /api/catalog `phases`).
NIGHT, DAY = "night", "day"
PHASES = (NIGHT, DAY)

RHYTHMS = ("rapide", "classique", "lent")   # A7.4; the index into Step.limits

# Who wins (the view's `winner.camp`, API.md): a camp of cards (CAMPS) wins under its own
# name, except the wolves' camp, which wins as "werewolves" (the card camp is "wolves": the
# camp Seer's « Loup », A6.1); a solitary card wins as its own id (A4), see winner_camps().
WINNER_VILLAGE, WINNER_WEREWOLVES, WINNER_LOVERS, WINNER_NONE = "village", "werewolves", "lovers", "none"
CAMP_WINNER = {VILLAGE: WINNER_VILLAGE, WOLVES: WINNER_WEREWOLVES}
WINNER_REASONS = ("stopped", "idle", "stalemate")   # a winner `none` without a win: why the game ended

# How a card shows (the pages, GET /api/catalog, the OpenAPI description): the type of each
# field it adds to the view's `me` or puts in its events. A type ending in "?" may be null;
# a dict is an object of such fields. The pages write each value by its type (a seat as its
# player's name, a role as the card's name); they know no field or card by name.
FIELD_TYPES = ("seat", "seats", "role", "roles", "camp", "bool", "int", "text", "card",
               "deaths", "counts", "ballots", "winner", "object")


def check_field_type(owner: str, spec) -> None:
    if isinstance(spec, dict):
        for sub in spec.values():
            check_field_type(owner, sub)
    elif not (isinstance(spec, str) and spec.rstrip("?") in FIELD_TYPES):
        raise ValueError(f"{owner}: unknown field type {spec!r}")


@dataclass(frozen=True)
class Say:
    """One way an event reads: the words under ``key`` (in the card's words file,
    werewolf/web/words/<module>.py), chosen when every condition of ``when`` holds.

    ``when``: {field: value}; value None: the field is null (or absent), True / False:
    the field is set (not null, not empty, not false) or not, "@me": the field is the
    reader's seat, any other value: equal. ``args``: {placeholder: field} filling the
    words' ``{placeholder}`` by the field's type ("targets.0": an item of a list); a field
    with a type of its own here: {placeholder: (field, type)}, types: those of FIELD_TYPES
    and "role_a" (a role inside a sentence, with its article), or (card id, "holder"): the
    seat holding that card (once the end shows every card); a part of the sentence said
    only sometimes: {placeholder: (Say, ...)}, the first that holds, else nothing.
    ``lines``: a field shown as lines after the words (a death each, a target's ballots
    each); ``key`` "": the lines alone."""
    key: str
    when: dict = field(default_factory=dict)
    args: dict = field(default_factory=dict)
    lines: str | None = None


@dataclass(frozen=True)
class Event:
    """An event kind as a module declares it: its fields (name -> type, see FIELD_TYPES)
    beside the kernel's (seq, kind, at, audience), how it reads to whom it is told
    (``says``: the first Say whose conditions hold; none holding: not told in words), how
    the end's timeline tells it in the third person (``timeline``: None: as ``says``; ():
    left out), and whether it is a ``moment``: it takes the top of the phone when it happens
    (a secret one only while the card is turned over, or at night); the room's screen tells
    every public kind with words big."""
    kind: str
    fields: dict = field(default_factory=dict)
    says: tuple = ()
    timeline: tuple | None = None
    moment: bool | tuple = False  # True, or the Says titling the moment (the first that holds)
    each: bool = False            # every Say that holds, one after the other (not only the first)
    on_card: bool = False         # also told on its reader's card, when turned over (the other Freemason)


def _split_events(part) -> None:
    """``events`` may hold Event values: kept as their kinds (what the kernel reads), the
    declarations in ``shapes``."""
    shapes = tuple(e for e in part.events if isinstance(e, Event))
    object.__setattr__(part, "events", tuple(e.kind if isinstance(e, Event) else e for e in part.events))
    object.__setattr__(part, "shapes", (*part.shapes, *shapes))
    for shape in part.shapes:
        check_field_type(f"{part.id} {shape.kind}", shape.fields)

# The named points where modules hook into the kernel, and what each hook receives.
HOOK_POINTS = {
    "deal": "(game) once the cards are dealt: set up the module's state",
    "night_begins": "(game) a new night opens: reset what the night gathers",
    "night_attack": "(game, victim) -> victim or None: may spare the wolves' choice (also asked "
                    "when the choice is settled, for a bite: no side effects)",
    "night_deaths": "(game, deaths, now): append the seats that die this night",
    "night_summary": "(game, data): add fields to the end-only night summary",
    "grief": "(game, died): append (seat, cause) for who dies with the dead",
    "queue_follow_ups": "(game, died): remember what these deaths call for",
    "follow_up": "(game, now) -> bool: start a follow-up step, True if one started",
    "step_begins": "(game, kind, now) -> bool: the kernel is about to start its next step (flow.GAME_OPENS: "
                   "the first once the cards are dealt, True: a day 0 first; flow.DAY_OPENS: the day's "
                   "first; flow.TALK_OPENS: the debate); True if the hook started another (or ended the game)",
    "vote_weight": "(game) -> function(voter) -> weight, or None",
    "vote_tie": "(game, leaders, step id, now) -> bool: settle a tied elimination round (the step it"
                " was held in: vote, revote, runoff, stake), True if handled",
    # Elimination rounds (day.py: vote, revote, runoff, stake) and the day's talk.
    "ballot_audience": "(game, voter) -> audience or None: who sees a ballot of a round (default everyone)",
    "step_ends": "(game, kind, now) -> bool: the current step ends (flow.TIME_OUT: its limit ran out; "
                 "flow.BALLOTS_IN: a round closes, every ballot in or its time out); True if the hook "
                 "takes it over (a testament settles the time-out, a secret ballot holds the sentence)",
    "village_writers": "(game) -> seats allowed to write in `village` now, or None (every living player)",
    # Options narrowing the rules of a step (prompt, refusal, time-out, end check).
    "prompt": "(game, seat, specs) -> specs: narrow what a seat is offered (remove or filter choices: "
              "the partner a lover may not vote for, the Owl-Man's nominee in the vote)",
    "refusal": "(game, seat, action id) -> IllegalAction or None: why an action is not offered",
    "seer_look": "(game, target, data): what a Seer's look teaches (data: the seer_look event's fields)",
    "mixed_couple": "(game) -> set of seats who play only for their couple",
    "wolves_choice": "(game, now): the wolves' choice of the night is settled (game.victim; A2.3 step 1, "
                     "at the end of `werewolves`, or of a fixed `night`): a bite may act on it",
    "night_end": "(game, now) -> bool: after the night's deaths and their end check, before `dawn` "
                 "(A2.3 steps 5-6); True if the game ended",
    "end_check": "(game, check: flow.EndCheck) at every end check: fill check.winner with a card's own "
                 "win among the living (A4 rules 1 and 3: a solitary's), or check.all_dead with who "
                 "wins when nobody is alive (rule 2; `hunter_vote_shot_first`)",
    "known_roles": "(game, seat, known): add the cards this seat knows",
    "view": "(game, seat, view): add fields to a seat's view, its private ones to view['me'] (declared in "
            "the module's `me`; at priority 1-5, before the hooks that also change the chat or the players). "
            "A view's chat lines and events may be shared with other seats' views (views_for): replace "
            "such a list, never change it in place",
    "night_plan": "(game) -> list of step ids or None: tonight's steps, each lasting its whole limit "
                  "(an action only closes its player's prompt), instead of the sequential night",
    "channels": "(game) -> channel ids this game has besides village, werewolves and dead",
    "step_starts": "(game, now) a step has just started (its `step` event emitted): draws, announcements",
    "chat_posted": "(game, message) a message was just stored in game.chat (its readers' versions moved)",
    "channel_readers": "(game, channel, seats): append the living seats who also read this channel",
    "writable_channels": "(game, seat, channels): append the channels this seat may also write in now",
    # The lifecycle seams of RULES-BOX (B0.5, B2.3, B4, B5.2, B5.3): a card of the box adds no hook point.
    "died": "(game, died, now): a batch of deaths was just announced (`deaths`); died: [(seat, cause)] "
            "(night, vote, hunter, grief...); what follows in the same moment (a revenge, a turn, a rust)",
    "vote_elimination": "(game, seat, died, now) -> bool: a vote elimination takes seat; asked before "
                        "the deaths (died None): True if a card takes it over (the Idiot's pardon: he "
                        "lives), then after them (died: the seats): True if the end check waits for "
                        "their follow-ups (`hunter_vote_shot_first`: the Hunter shoots first)",
    "voters": "(game, seats) -> seats: who votes in the village's rounds now (less a pardoned Idiot, "
              "those the Scapegoat left out); players[].voter: false for the others",
    "seat_side": "(game, seat, side) -> side: who this seat plays with now (camps.side_of; the Angel "
                 "before day 1)",
    "round_counted": "(game, count: day.Count, now) -> bool: a round is counted (or its ballots published "
                     "before the count, the secret ballot's: count.tally None): add votes to count.tally "
                     "(the Raven's two, at 20), fields to its event (count.fields: the Scapegoat taking the "
                     "tie), or take its outcome over, True (the Owl-Man's stake, at 60)",
    "game_ends": "(game, now) the game is over (a win, a draw or a stop), just before `game_end`: emit what "
                 "only the end reveals and no event has told yet",
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
    # How its button looks in a prompt whose layout lists actions as buttons (Step.layout
    # "menu"): a picture before its words ("btn.<action id>") and a style (primary, danger).
    icon: str = ""
    style: str = ""


@dataclass(frozen=True)
class Step:
    id: str
    phase: str                    # one of PHASES: NIGHT | DAY
    limits: tuple                 # seconds for (rapide, classique, lent); classique is the default
    time_out: Callable            # (game, now): what the step's limit running out does
    actors: Callable | None = nobody  # (game, living) -> seats who may act now; None: every living player
    prompt: Callable = no_prompt  # (game, seat, living) -> action specs for one actor
    actions: tuple = ()           # Action values
    night_order: int | None = None    # place in the sequential night (A2.1), None: not in it
    runs: Callable | None = None  # night steps: (game) -> whether it runs tonight
    on_start: Callable | None = None  # (game, now) after the step event
    shows: tuple = ()             # extra view fields: step "actor", "tied", "round", "candidates"; "votes" (public)
    role: str | None = None       # the role whose card acts in it, if any
    ballots: bool = False         # its ballots are in the view's `votes` (election, elimination rounds)
    order: int | None = None      # where lists show it (limits, catalog); night steps: night_order
    # Its place in a fixed night (A7.1): "inside" the one `night` step where every night role
    # acts at once (the default: a new role's step joins it by itself), its own step on
    # the "first_night" before it (thief, cupid), or its own step "after" it (witch).
    fixed_night: str = "inside"
    # A step that gathers others (the fixed night's `night`): (game) -> their ids, whose
    # actors, prompts and actions are this step's while it runs.
    gathers: Callable | None = None
    # The nights it may run, from the night's number only (public): (night) -> bool, None: every
    # night. A fixed night plans by it (the White Werewolf's even nights, the Sisters' odd ones).
    nights: Callable | None = None
    # How the pages lay its prompt out (GET /api/catalog), one of LAYOUTS; None: by its
    # actions' choice kinds (tap seats, take a card, confirm). See LAYOUTS.
    layout: str | None = None
    # Whether its end may eliminate someone by the village's ballots (a round: vote, revote,
    # runoff, stake): its ballots are weighed (the view's `weights`), one may abstain in it.
    eliminates: bool = False
    tied_sit_out: bool = False    # the tied do not vote in it (a run-off): nobody waits for them
    heading: bool = True          # the end's timeline opens a new night or day at it (not dawn: the night's news)
    # Its prompt's words besides its title, over the reader's view['me'] (the Witch's potions;
    # the type "available": a potion's yes or no), after the words of the latest events of
    # these kinds this night or day (the Witch learns the wolves' victim).
    info: tuple = ()
    info_events: tuple = ()

    @property
    def limit(self) -> int:
        return self.limits[1]

    @property
    def rank(self) -> int:
        return self.order if self.order is not None else self.night_order


# Prompt layouts (Step.layout): "menu": each action a button (an action with seats to
# choose opens the choice; the Witch's two potions), "one_button": the one action as a big
# button (the debate's request to vote).
LAYOUTS = ("menu", "one_button")


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
    events: tuple = ()            # the event kinds it emits (the catalog lists them); an Event: with its shape
    public_events: tuple = ()     # those of them told to everyone as they happen (RULES-VARIANTS A9)
    end_events: tuple = ()        # those told to nobody until the end; the others: secret (some seats)
    me: dict = field(default_factory=dict)   # the fields its view hook adds to view['me']: name -> type
    shapes: tuple = ()            # Event values: its events as the pages show them (filled from events)

    def __post_init__(self):
        _split_events(self)
        check_field_type(self.id, self.me)


@dataclass(frozen=True)
class Role(Module):
    """A card. ``pack``: a werewolf (acts in `werewolves`, reads its channel, is bitten by nobody).
    The hooks and side actions of a card that is not ``base`` are called only in games that
    dealt it (see in_play): elsewhere they must do nothing."""
    camp: str = VILLAGE
    pack: bool = False
    optional: bool = True         # the host may take it out (or put it in)
    default: bool = False         # in the deck unless the host says otherwise
    cards: int = 1                # cards in the deck when enabled
    base: bool = False            # a card of RULES.md: always listed in the composition
    middle_cards: int = 0         # extra cards that lie in the middle when enabled (the Thief: 2)
    emoji: str = ""               # the card's picture on the pages
    # Takes a wolf's place in the deck (RULES-BOX B1.2: the Wolf-Father): the table's wolves
    # count it, one `werewolf` card fewer.
    wolf_place: bool = False
    # Categories a card declares, read by other cards' rules through registry.tagged(tag)
    # rather than by naming it: TAG_PACK ("counts as a wolf": set by pack=True), TAG_SOLITARY
    # (set by camp=SOLITARY), and any a card defines for others to ask.
    tags: tuple = ()


OPTION_GROUPS = ("votes", "roles", "night", "table")   # how the host's screen groups the options


@dataclass(frozen=True)
class Option:
    """A table option (A5-A7): a value with a check and its own hooks.

    ``group`` and ``values`` are for the pages (GET /api/catalog): where the host's screen
    lists it, and the allowed values of a choice (``tie``); a bool option needs none, an
    integer one gives ``bounds``. Its hooks are called only in games where its value
    differs from its default (see in_play): at the default they must do nothing."""
    id: str
    default: object
    check: Callable               # (value) -> bool
    hooks: dict = field(default_factory=dict)
    group: str = "table"          # one of OPTION_GROUPS
    values: tuple = ()            # a choice's values, the default first
    bounds: tuple | None = None   # (min, max) of an integer option
    steps: tuple = ()             # steps that exist only while the option is on (a fixed night's `night`)
    actions: tuple = ()           # StandingAction values it brings
    events: tuple = ()            # the event kinds it emits (the catalog lists them); an Event: with its shape
    public_events: tuple = ()     # those of them told to everyone as they happen (RULES-VARIANTS A9)
    end_events: tuple = ()        # those told to nobody until the end; the others: secret (some seats)
    me: dict = field(default_factory=dict)   # the fields its view hook adds to view['me']: name -> type
    shapes: tuple = ()            # Event values: its events as the pages show them (filled from events)
    # The cards it is about: the host's screen offers it only while all of them are in the deck.
    roles: tuple = ()

    def __post_init__(self):
        _split_events(self)
        check_field_type(self.id, self.me)


@dataclass(frozen=True)
class StandingAction:
    """An action open in any step, never listed in a prompt (a testament, A13)."""
    id: str
    apply: Callable               # (game, seat, target, now); the target already checked
    choices: Callable             # (game, seat) -> the seats it may name now, or None: not open to him
    kind: str = SEAT              # a seat or null
    nullable: bool = True
    # Who may set it, for the pages: the holder of this card, or the living Captain; and its
    # key in view['me'][<option id>] (the testament's "hunter", "succession").
    role: str | None = None
    captain: bool = False
    slot: str = ""


@dataclass(frozen=True)
class Preset:
    """A ready-made table (A7.5), as data: ``rules.preset_composition(preset, n)`` reads it."""
    id: str
    sizes: tuple                  # (min, max) players: a start outside is bad_player_count
    brackets: tuple               # ((first size, last size, wolves or None for the table, (role ids)), ...)
    captain: bool = True
    options: dict = field(default_factory=dict)
    rhythm: str = "classique"

    def roles(self) -> set:
        return {role for *_, cards in self.brackets for role in cards}

    def bracket(self, players: int) -> tuple:
        """The bracket for this many seated (the nearest one outside the sizes: a lobby
        still filling shows the smallest table's composition)."""
        players = min(max(players, self.sizes[0]), self.sizes[1])
        return next(b for b in self.brackets if b[0] <= players <= b[1])


MODULES: dict[str, Module] = {}
ROLES: dict[str, Role] = {}       # in registration order: the deck's order
STEPS: dict[str, Step] = {}
ACTIONS: dict[str, Action] = {}
ACTION_STEP: dict[str, str] = {}   # action -> its step (a side action: the first of its steps)
ACTION_STEPS: dict[str, tuple] = {}  # action -> every step where it may be offered
SIDES: dict[str, tuple] = {}      # step id -> the Side values offered during it
_side_owners: dict[str, tuple] = {}  # step id -> ((owner module id, Side), ...) in SIDES' order
OPTIONS: dict[str, Option] = {}
PRESETS: dict[str, Preset] = {}
STANDING: dict[str, StandingAction] = {}
STEP_OPTION: dict[str, str] = {}  # step id -> the option it exists for
PACK: set = set()                 # role ids that are werewolves
TAGS: dict[str, set] = {}         # tag -> role ids that declare it (see Role.tags)
TAG_PACK, TAG_SOLITARY = "pack", "solitary"
_hooks: dict[str, tuple] = {}    # point -> ((priority, owner, fn), ...)
_hook_fns: dict[str, tuple] = {}  # point -> (fn, ...) in that order
_in_play: dict = {}               # (cards, options set) -> InPlay: see in_play()
_night: list = []                 # night steps in order
_night_index: dict[str, int] = {}
_step_ids: list = []              # every step in step_ids()'s order (settings ask it for every table)


def _add_steps(steps) -> None:
    for step in steps:
        if step.id in STEPS:
            raise ValueError(f"step {step.id} registered twice")
        if step.layout is not None and step.layout not in LAYOUTS:
            raise ValueError(f"step {step.id}: unknown layout {step.layout}")
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
    _step_ids[:] = [s.id for s in sorted(STEPS.values(), key=lambda s: (s.phase != NIGHT, s.rank))]


def _add_hooks(owner: str, hooks: dict) -> None:
    for point, hook in hooks.items():
        if point not in HOOK_POINTS:
            raise ValueError(f"{owner}: unknown hook point {point}")
        priority, fn = hook if isinstance(hook, tuple) else (50, hook)
        entries = [*_hooks.get(point, ()), (priority, owner, fn)]
        entries.sort(key=lambda entry: entry[:2])
        _hooks[point] = tuple(entries)
        _hook_fns[point] = tuple(entry[2] for entry in entries)
    _in_play.clear()


def register(module: Module) -> Module:
    if module.id in MODULES or module.id in OPTIONS:
        raise ValueError(f"{module.id} registered twice")
    _check_event_audiences(module)
    MODULES[module.id] = module
    if isinstance(module, Role):
        if module.camp not in CAMPS:
            raise ValueError(f"{module.id}: unknown camp {module.camp}")
        ROLES[module.id] = module
        tags = set(module.tags) | ({TAG_PACK} if module.pack else set()) | (
            {TAG_SOLITARY} if module.camp == SOLITARY else set())
        for tag in tags:
            TAGS.setdefault(tag, set()).add(module.id)
        if TAG_PACK in tags:
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
            _side_owners[step_id] = (*_side_owners.get(step_id, ()), (module.id, side))
    _in_play.clear()
    _add_hooks(module.id, module.hooks)
    return module


def _check_event_audiences(part) -> None:
    told = set(part.public_events) | set(part.end_events)
    if not told <= set(part.events):
        raise ValueError(f"{part.id}: events it does not emit: {told - set(part.events)}")


def register_steps(*steps: Step) -> None:
    """Steps of the kernel itself (dawn, debate, vote): no module owns them."""
    _add_steps(steps)


def register_option(option: Option) -> Option:
    if option.id in OPTIONS or option.id in MODULES:
        raise ValueError(f"option {option.id} registered twice")
    if option.group not in OPTION_GROUPS:
        raise ValueError(f"option {option.id}: unknown group {option.group}")
    _check_event_audiences(option)
    OPTIONS[option.id] = option
    _add_steps(option.steps)
    STEP_OPTION.update({step.id: option.id for step in option.steps})
    for action in option.actions:
        STANDING[action.id] = action
        ACTION_STEP[action.id] = None   # any step
    _add_hooks(option.id, option.hooks)
    return option


def option_value(game, option_id: str):
    """The value of an option in this game (a game keeps only what differs from the default)."""
    value = game.settings.get("options", {}).get(option_id)
    return OPTIONS[option_id].default if value is None else value


def register_preset(preset: Preset) -> Preset:
    PRESETS[preset.id] = preset
    return preset


def preset_usable(preset: Preset) -> bool:
    """Every role and option the preset names is registered, with that value allowed (a
    preset waiting for a role being built is refused, never played without it)."""
    return (all(role in ROLES and ROLES[role].optional for role in preset.roles())
            and all(key in OPTIONS and OPTIONS[key].check(value) for key, value in preset.options.items()))


def usable_presets() -> list:
    return [p for p in PRESETS.values() if preset_usable(p)]


# --- lookups used by the kernel --------------------------------------------------
def hooks(point: str) -> tuple:
    """Every function at this point, in (priority, id) order. A game asks
    ``game.hooks(point)``: only those that may act in it (see in_play)."""
    return _hook_fns.get(point, ())


def sides(step_id: str | None) -> tuple:
    """Every side action offered during this step (see Side); a game asks ``game.sides()``."""
    return SIDES.get(step_id, ())


@dataclass(frozen=True)
class InPlay:
    hooks: dict                   # point -> (fn, ...) in (priority, id) order; no empty tuple
    sides: dict                   # step id -> (Side, ...); no empty tuple

    def __deepcopy__(self, memo):
        return self               # definitions, shared (a deep copy of a game keeps them)


def in_play(cards: list, settings: dict) -> InPlay:
    """The hooks and side actions that may act in a game with these cards and settings:
    a role's added with the registry (not ``base``) only if its card was dealt (in
    ``cards``: the seats' and the middle's), an option's only if its value differs from
    its default (as its steps), the others always (the base cards keep their state in
    Game's fields and write it in every game, e.g. the Witch's `saved` in the night
    summary; the Captain, the lovers). Each hook left out does nothing in such a game (it
    checks its card's state or its option first), so the game plays the same, in the
    same order, without calling it: the base game pays for no variant.

    Shared by every game with the same cards and options (definitions, like the
    registry); a game keeps its own in memory only (Game.hooks), never in its state."""
    options = settings.get("options") or {}
    key = (frozenset(cards), tuple(sorted(options.items())))
    found = _in_play.get(key)
    if found is None:
        if len(_in_play) >= 512:   # a bound on the memo, whatever the tables' combinations
            _in_play.clear()
        dealt = key[0]

        def acts(owner: str) -> bool:
            if owner in ROLES and not ROLES[owner].base:
                return owner in dealt
            option = OPTIONS.get(owner)
            return option is None or options.get(owner, option.default) != option.default

        hooks = {point: tuple(fn for _, owner, fn in entries if acts(owner)) for point, entries in _hooks.items()}
        sides = {step: tuple(side for owner, side in owned if acts(owner)) for step, owned in _side_owners.items()}
        # Only the points and steps with something in play: `point in hooks` says whether to look.
        found = _in_play[key] = InPlay(hooks={point: fns for point, fns in hooks.items() if fns},
                                       sides={step: owned for step, owned in sides.items() if owned})
    return found


def night_steps() -> list:
    return _night


def step_ids() -> list[str]:
    """Every step, the night's in their order, then the day's."""
    return list(_step_ids)


def night_steps_after(step_id: str | None) -> list:
    return _night[_night_index[step_id] + 1:] if step_id else _night


def tagged(tag: str) -> set:
    """The role ids that declare this category (an empty set for a tag nobody declares)."""
    return TAGS.get(tag, set())


def tags_of(role_id: str) -> set:
    return {tag for tag, roles in TAGS.items() if role_id in roles}


def is_pack(role_id: str) -> bool:
    return role_id in PACK


def camp(role_id: str) -> str:
    return ROLES[role_id].camp


def side(role_id: str) -> str:
    """Who a card plays with (A4): its camp, or for a solitary card its own id (two
    solitaries are two camps)."""
    role = ROLES[role_id]
    return role.id if role.camp == SOLITARY else role.camp


def winner_camps() -> list[str]:
    """Every `winner.camp` a game may end with: the camps', the lovers', nobody's, and each
    solitary card's own (A4)."""
    return [WINNER_VILLAGE, WINNER_WEREWOLVES, WINNER_LOVERS, WINNER_NONE,
            *(r.id for r in ROLES.values() if r.camp == SOLITARY)]


def event_shapes() -> dict:
    """kind -> Event, every module's and option's declared shape (the kernel's: catalog.py)."""
    return {shape.kind: shape for part in (*MODULES.values(), *OPTIONS.values()) for shape in part.shapes}


def optional_roles() -> list[str]:
    return [r.id for r in ROLES.values() if r.optional]
