"""The game state: plain data that serializes to JSON and back unchanged.

Every change a player could notice is recorded as an event with an audience; each
seat's `version` moves only when something that seat may see is appended, so the
version itself reveals nothing (no count of hidden events).
"""

import functools
import json
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone

from . import registry

# Audiences of events and chat: everyone, the living wolves, the dead, one seat (an int),
# or nobody until the end (details the rules keep secret during play, e.g. night causes).
# Modules may name more audiences in AUDIENCES (a function of the game -> its seats), and
# more channels in CHANNEL_AUDIENCE (opened in a game through the hook `channels`).
EVERYONE, WOLVES, DEAD, AT_END = "all", "wolves", "dead", "end"
CHANNEL_AUDIENCE = {"village": EVERYONE, "werewolves": WOLVES, "dead": DEAD}


def _dead_channel_readers(game) -> list[int]:
    """The dead, and the living a module lets read them (the Medium)."""
    seats = [p.seat for p in game.players if not p.alive]
    for hook in game.hooks("channel_readers"):
        hook(game, "dead", seats)
    return seats


AUDIENCES = {
    WOLVES: lambda game: game.living_wolves(),
    DEAD: _dead_channel_readers,
    AT_END: lambda game: [],
}

# The stored game's format (the store writes it beside the state, see store.encode).
# 1: before the registry (no "extra"); 2: "extra" holds the state of the roles added
# since (absent when empty). See upgrade().
STATE_VERSION = 2


@functools.lru_cache(maxsize=64)   # an action's events share its `now`
def iso(now: float) -> str:
    return datetime.fromtimestamp(now, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _copy(value):
    """A deep copy of plain JSON-like data (dicts, lists, scalars): copy.deepcopy, but faster."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


@dataclass(init=False)
class Player:
    seat: int
    name: str
    role: str
    alive: bool = True

    def __init__(self, seat: int, name: str, role: str, alive: bool = True):
        # Straight into the instance's dict: a new player has no memo to empty (every
        # game builds its players at every load).
        self.__dict__.update(seat=seat, name=name, role=role, alive=alive)

    def __setattr__(self, name, value):
        # Whoever writes `alive` (a death, wherever its rule lives) or `role` (a bite,
        # the Thief's swap) empties the game's memo of seats, so Game.living(),
        # living_wolves() and seats_with() can never answer from before it.
        if name == "alive" or name == "role":
            memo = getattr(self, "_seats_memo", None)
            if memo:
                memo.clear()
        object.__setattr__(self, name, value)

    def as_dict(self) -> dict:
        return {"seat": self.seat, "name": self.name, "role": self.role, "alive": self.alive}


@dataclass
class Game:
    players: list[Player]
    settings: dict
    time_scale: float
    rng: int
    cards: list[str]
    status: str = "running"
    step: str | None = None
    step_seq: int = 0
    deadline: float | None = None
    night: int = 0
    day: int = 0
    captain: int | None = None
    captaincy_over: bool = False      # a Captain died without successor, or none was elected
    lovers: list[int] | None = None
    potions: dict = field(default_factory=lambda: {"life": True, "death": True})
    # What the current step has gathered so far.
    actor: int | None = None          # the one seat that acts in hunter/succession/tiebreak
    designations: dict = field(default_factory=dict)   # wolf seat -> target
    votes: dict = field(default_factory=dict)          # voter seat -> target or None
    requests: list = field(default_factory=list)       # seats asking for the vote
    tied: list = field(default_factory=list)
    victim: int | None = None         # the wolves' choice of the night
    saved: bool = False
    poisoned: int | None = None
    # Deaths waiting for their follow-up (RULES.md §4 order).
    pending_hunters: list = field(default_factory=list)
    pending_succession: int | None = None
    then: str = "day"                 # what comes when the follow-ups are done: "day" or "night"
    winner: dict | None = None
    active_night: int = 0             # the night (or the day after it) of the last living act
    left: list = field(default_factory=list)           # seats whose players left the game
    events: list = field(default_factory=list)
    chat: list = field(default_factory=list)
    versions: list = field(default_factory=list)       # index 0 = spectators, i = seat i
    # The state of the roles and options added with the registry, by module id (and
    # "middle": the cards no seat holds). Absent from the JSON while empty, so a base
    # game's state is the very state of before.
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        # The living seats, the living wolves and each card's seats, computed once per
        # death or card change: every prompt and actor check asks.
        memo: dict = {}
        self._seats_memo = memo
        for player in self.players:
            player.__dict__["_seats_memo"] = memo
        # The hooks and side actions in play (registry.in_play): the game's cards and
        # settings are fixed once dealt, so they are found once, when the game is built
        # (new_game, from_dict). Not a field: never in to_dict/to_json.
        self.in_play: registry.InPlay = registry.in_play(self.cards, self.settings)

    # --- the rules in play ---------------------------------------------------
    def hooks(self, point: str) -> tuple:
        """The functions at this hook point that may act in this game, in (priority, id) order."""
        return self.in_play.hooks.get(point, ())

    # --- reading -------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.players)

    def player(self, seat: int) -> Player:
        return self.players[seat - 1]

    # The memo of seats is read with [] (no call): every prompt asks it, for every seat.
    def living(self) -> list[int]:
        try:
            return list(self._seats_memo["living"])
        except KeyError:
            seats = self._seats_memo["living"] = tuple(p.seat for p in self.players if p.alive)
            return list(seats)

    def seats_with(self, role: str) -> list[int]:
        try:
            return list(self._seats_memo[("role", role)])
        except KeyError:
            seats = self._seats_memo[("role", role)] = tuple(p.seat for p in self.players if p.role == role)
            return list(seats)

    def living_wolves(self) -> list[int]:
        """The living pack (RULES-BOX B0.3): the wolf cards' holders and those who joined."""
        try:
            return list(self._seats_memo["wolves"])
        except KeyError:
            pack, joined = registry.PACK, self.extra.get("pack", ())
            seats = self._seats_memo["wolves"] = tuple(
                p.seat for p in self.players if p.alive and (p.role in pack or p.seat in joined))
            return list(seats)

    def in_pack(self, seat: int) -> bool:
        """Whether this seat is of the pack, dead or alive (a wolf card, or joined: engine/pack.py)."""
        return self.players[seat - 1].role in registry.PACK or seat in self.extra.get("pack", ())

    def forget_seats(self) -> None:
        """Empty the memo of seats: a seat joined the pack (pack.join), not a card change."""
        self._seats_memo.clear()

    def holder(self, role: str) -> int | None:
        """The seat holding a unique special role, or None if it is not in play."""
        seats = self.seats_with(role)
        return seats[0] if seats else None

    def alive_holder(self, role: str) -> int | None:
        seat = self.holder(role)
        return seat if seat is not None and self.player(seat).alive else None

    def middle(self) -> list[str]:
        """The cards no seat holds (the Thief's two), positions 1 and 2."""
        return self.extra.get("middle", [])

    def is_night(self) -> bool:
        step = registry.STEPS.get(self.step)
        return step is not None and step.phase == registry.NIGHT

    def audience_seats(self, audience) -> list[int]:
        """THE rule of who sees what: the seats that see an event or message of this
        audience right now (0 = spectators). Views and version bumps both ask it."""
        if audience == EVERYONE or self.status == "ended":
            return list(range(len(self.versions) or self.n + 1))
        if isinstance(audience, int):
            return [audience]
        return AUDIENCES[audience](self)

    def can_see(self, audience, seat: int | None) -> bool:
        """Whether an event or message of this audience is in this seat's view right now."""
        if audience == EVERYONE or self.status == "ended":
            return True
        return (seat or 0) in self.audience_seats(audience)

    def version_for(self, seat: int | None) -> int:
        return self.versions[seat or 0]

    # --- writing -------------------------------------------------------------
    def touch(self, audience) -> None:
        """Move the version of every seat that can see something of this audience."""
        if audience == EVERYONE or self.status == "ended":
            self.touch_all()
            return
        versions = self.versions
        for seat in self.audience_seats(audience):
            versions[seat] += 1

    def touch_all(self) -> None:
        self.versions = [v + 1 for v in self.versions]

    def emit(self, kind: str, audience, now: float, **data) -> dict:
        event = {"kind": kind, "audience": audience, "at": iso(now), **data}
        self.events.append(event)
        self.touch(audience)
        return event

    def emit_choice(self, kind: str, audience, now: float, **data) -> None:
        """A choice one may change during the current step (a ballot, a designation, a
        protection): it takes the place of the chooser's previous one of the step in the
        log (same kind, audience and ``seat``, for a private one its audience), so a mind
        changed many times leaves one event and the views never grow with it."""
        events = self.events
        for i in range(len(events) - 1, -1, -1):
            event = events[i]
            if event["kind"] == "step":
                break
            if event["kind"] == kind and event["audience"] == audience and event.get("seat") == data.get("seat"):
                del events[i]
                break
        self.emit(kind, audience, now, **data)

    def draw(self, n: int) -> int:
        from .rng import below
        self.rng, value = below(self.rng, n)
        return value

    # --- JSON ----------------------------------------------------------------
    def to_dict(self) -> dict:
        """A snapshot: later play does not change it, and changing it does not change the game."""
        out = {f.name: _copy(getattr(self, f.name)) for f in fields(self)}
        if not self.extra:
            del out["extra"]
        out["players"] = [p.as_dict() for p in self.players]
        # JSON object keys are strings; the maps below are keyed by seat.
        out["designations"] = {str(k): v for k, v in self.designations.items()}
        out["votes"] = {str(k): v for k, v in self.votes.items()}
        return out

    def to_json(self) -> str:
        """``json.dumps(self.to_dict())`` (compact, UTF-8 kept), without copying first."""
        return json.dumps(self.json_data(), separators=(",", ":"), ensure_ascii=False)

    def json_data(self) -> dict:
        """What to_json writes: to_dict() but for the int keys of the seat-keyed maps (JSON
        makes them strings) and without copying, as the copy is what costs most when a game
        is saved after every move. It shares the game's lists and dicts: serialize it at once."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        if not self.extra:
            del data["extra"]
        data["players"] = [p.as_dict() for p in self.players]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        """The game of a to_dict() snapshot; the game takes over `data`'s lists and dicts,
        so pass a fresh snapshot (json.loads or to_dict), not one still in use."""
        data = upgrade(dict(data))
        data["players"] = [Player(**p) for p in data["players"]]
        data["designations"] = {int(k): v for k, v in data["designations"].items()}
        data["votes"] = {int(k): v for k, v in data["votes"].items()}
        return cls(**data)


def upgrade(data: dict) -> dict:
    """A stored game of any earlier format, in today's (a game running when the
    server is upgraded goes on after the restart). ``data`` is a fresh dict; without
    ``state_version`` it is a to_dict() snapshot or a game stored before versions (1),
    which upgrade alike."""
    version = data.pop("state_version", 1)
    if version > STATE_VERSION:
        raise ValueError(f"game state version {version} is newer than this server's {STATE_VERSION}")
    if version < 2:
        # Version 1 had no per-module state, and settings without the v2 keys: an
        # absent key means the default (roles off, no options, the table's wolves).
        data.setdefault("extra", {})
    return data
