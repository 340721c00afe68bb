"""The game state: plain data that serializes to JSON and back unchanged.

Every change a player could notice is recorded as an event with an audience; each
seat's `version` moves only when something that seat may see is appended, so the
version itself reveals nothing (no count of hidden events).
"""

import json
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone

from .rules import WEREWOLF

# Audiences of events and chat: everyone, the living wolves, the dead, one seat (an int),
# or nobody until the end (details the rules keep secret during play, e.g. night causes).
EVERYONE, WOLVES, DEAD, AT_END = "all", "wolves", "dead", "end"
CHANNEL_AUDIENCE = {"village": EVERYONE, "werewolves": WOLVES, "dead": DEAD}


def iso(now: float) -> str:
    return datetime.fromtimestamp(now, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _copy(value):
    """A deep copy of plain JSON-like data (dicts, lists, scalars): copy.deepcopy, but faster."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


@dataclass
class Player:
    seat: int
    name: str
    role: str
    alive: bool = True


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

    # --- reading -------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.players)

    def player(self, seat: int) -> Player:
        return self.players[seat - 1]

    def living(self) -> list[int]:
        return [p.seat for p in self.players if p.alive]

    def seats_with(self, role: str) -> list[int]:
        return [p.seat for p in self.players if p.role == role]

    def living_wolves(self) -> list[int]:
        return [p.seat for p in self.players if p.alive and p.role == WEREWOLF]

    def holder(self, role: str) -> int | None:
        """The seat holding a unique special role, or None if it is not in play."""
        seats = self.seats_with(role)
        return seats[0] if seats else None

    def alive_holder(self, role: str) -> int | None:
        seat = self.holder(role)
        return seat if seat is not None and self.player(seat).alive else None

    def is_night(self) -> bool:
        return self.step in ("cupid", "seer", "werewolves", "witch")

    def can_see(self, audience, seat: int | None) -> bool:
        """Whether an event or message of this audience is in this seat's view right now."""
        if self.status == "ended":
            return True
        if audience == EVERYONE:
            return True
        if seat is None:
            return False
        if audience == seat:
            return True
        me = self.player(seat)
        if audience == WOLVES:
            return me.alive and me.role == WEREWOLF
        if audience == DEAD:
            return not me.alive
        return False

    def version_for(self, seat: int | None) -> int:
        return self.versions[seat or 0]

    # --- writing -------------------------------------------------------------
    def touch(self, audience) -> None:
        """Move the version of every seat that can see something of this audience.

        The same seats as `can_see(audience, seat)` for each seat (index 0 = spectators),
        found directly rather than by asking every seat: this runs for every event.
        """
        if audience == EVERYONE or self.status == "ended":
            self.touch_all()
            return
        if audience == WOLVES:
            seats = self.living_wolves()
        elif audience == DEAD:
            seats = [p.seat for p in self.players if not p.alive]
        elif isinstance(audience, int):
            seats = [audience]
        else:
            return   # AT_END: nobody sees it during play
        for seat in seats:
            self.versions[seat] += 1

    def touch_all(self) -> None:
        self.versions = [v + 1 for v in self.versions]

    def emit(self, kind: str, audience, now: float, **data) -> dict:
        event = {"kind": kind, "audience": audience, "at": iso(now), **data}
        self.events.append(event)
        self.touch(audience)
        return event

    def draw(self, n: int) -> int:
        from .rng import below
        self.rng, value = below(self.rng, n)
        return value

    # --- JSON ----------------------------------------------------------------
    def to_dict(self) -> dict:
        """A snapshot: later play does not change it, and changing it does not change the game."""
        out = {f.name: _copy(getattr(self, f.name)) for f in fields(self)}
        out["players"] = [vars(p).copy() for p in self.players]
        # JSON object keys are strings; the maps below are keyed by seat.
        out["designations"] = {str(k): v for k, v in self.designations.items()}
        out["votes"] = {str(k): v for k, v in self.votes.items()}
        return out

    def to_json(self) -> str:
        """``json.dumps(self.to_dict())`` (compact, UTF-8 kept), without copying first.

        JSON turns the seat-keyed maps' int keys into strings as to_dict does; the copy
        is what costs most when a game is saved after every move.
        """
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["players"] = [vars(p) for p in self.players]
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        """The game of a to_dict() snapshot; the game takes over `data`'s lists and dicts,
        so pass a fresh snapshot (json.loads or to_dict), not one still in use."""
        data = dict(data)
        data["players"] = [Player(**p) for p in data["players"]]
        data["designations"] = {int(k): v for k, v in data["designations"].items()}
        data["votes"] = {int(k): v for k, v in data["votes"].items()}
        return cls(**data)
