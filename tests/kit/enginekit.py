"""Helpers for the engine tests: a table dealt with known cards and a clock.

    t = Table("W V seer witch hunter cupid")   # seat 1 is the wolf, seat 2 a villager...
    t.do(6, "cupid.pair", targets=[2, 3])
    t.timeout()                                # the current step runs out of time

Cards are placed by dealing a real game (engine.new_game) with the matching settings,
then rearranging the seats' cards before anyone has acted: the deck is the same
multiset, only who holds what changes.
"""
import json

from tests.kit.clock import START as T0  # a fixed "now": the engine never reads the clock
from werewolf import engine

CODES = {"W": "werewolf", "V": "villager", "seer": "seer", "witch": "witch",
         "hunter": "hunter", "cupid": "cupid"}


def settings_for(roles: list[str], captain: bool = True, limits: dict | None = None) -> dict:
    patch = {"roles": {r: r in roles for r in engine.OPTIONAL_ROLES}, "captain": captain}
    if limits:
        patch["limits"] = limits
    return engine.merge_settings(engine.default_settings(), patch)


def snapshot(game) -> str:
    """The whole state as canonical JSON (a copy that later play cannot alter)."""
    return json.dumps(game.to_dict(), sort_keys=True)


def versions(game) -> list[int]:
    return [game.version_for(s) for s in [None, *range(1, game.n + 1)]]


class Table:
    def __init__(self, cards: str, captain: bool = True, seed: int = 1, limits: dict | None = None):
        roles = [CODES[c] for c in cards.split()]
        settings = settings_for(roles, captain, limits)
        names = [f"P{i}" for i in range(1, len(roles) + 1)]
        self.now = T0
        self.game = engine.new_game(names, settings, seed, self.now)
        assert sorted(self.game.cards) == sorted(roles), "the wolf count must match the table size"
        assert all(e["audience"] == "all" for e in self.game.events), "nothing private yet"
        for player, role in zip(self.game.players, roles):
            player.role = role

    # --- reading ---------------------------------------------------------------
    @property
    def step(self):
        return self.game.step

    def alive(self, seat: int) -> bool:
        return self.game.player(seat).alive

    def dead(self) -> list[int]:
        return [p.seat for p in self.game.players if not p.alive]

    def view(self, seat):
        return engine.view_for(self.game, seat, self.now)

    def events(self, kind: str) -> list[dict]:
        return [e for e in self.game.events if e["kind"] == kind]

    def last(self, kind: str) -> dict:
        return self.events(kind)[-1]

    def actions(self, seat) -> dict:
        return {a["action"]: a for a in engine.legal_actions(self.game, seat)}

    # --- playing ---------------------------------------------------------------
    def tick(self, seconds: float = 1.0) -> None:
        self.now += seconds

    def do(self, seat, action: str, target=None, targets=None, **extra) -> None:
        body = {"action": action, **extra}
        if target is not None:
            body["target"] = target
        if targets is not None:
            body["targets"] = targets
        self.tick()
        engine.apply(self.game, seat, body, self.now)

    def refuse(self, seat, body, code: str, chat: bool = False) -> None:
        """The action is refused with this code, and nothing at all changes."""
        before, before_versions = snapshot(self.game), versions(self.game)
        self.tick()
        try:
            if chat:
                engine.post_chat(self.game, seat, body[0], body[1], self.now)
            else:
                engine.apply(self.game, seat, body, self.now)
        except engine.IllegalAction as refused:
            assert refused.code == code, f"expected {code}, got {refused.code}: {refused.message}"
        else:
            raise AssertionError(f"expected IllegalAction({code}), the action was accepted")
        assert snapshot(self.game) == before
        assert versions(self.game) == before_versions

    def say(self, seat, channel: str, text: str) -> None:
        self.tick()
        engine.post_chat(self.game, seat, channel, text, self.now)

    def timeout(self) -> None:
        """Let the current step run out of time."""
        self.now = self.game.deadline
        assert engine.advance(self.game, self.now)

    def until(self, step: str) -> None:
        """Let steps time out until `step` begins (fails if the game ends first)."""
        for _ in range(50):
            if self.game.step == step:
                return
            assert self.game.status == "running", f"the game ended before {step}"
            self.timeout()
        raise AssertionError(f"never reached {step}")

    def wolves_kill(self, target) -> None:
        """Every living wolf designates `target` (ends the wolves' step at once)."""
        assert self.step == "werewolves"
        for wolf in self.game.living_wolves():
            self.do(wolf, "werewolves.designate", target)
        assert self.step != "werewolves"

    def vote_all(self, ballots: dict) -> None:
        """Living players vote (seat -> target, None = abstain); the rest abstain."""
        assert self.step == "vote"
        for seat in self.game.living():
            if self.step != "vote":
                break
            self.do(seat, "vote.cast", ballots.get(seat))

    def to_vote(self) -> None:
        """Let every step time out until the vote (an election then gives no Captain)."""
        self.until("debate")
        self.timeout()
        assert self.step == "vote"
