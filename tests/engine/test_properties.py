"""Random legal play on every table size, with the rule book's invariants at every step.

A game is driven by a random.Random seeded by Hypothesis (a game takes a few hundred
draws: drawing each through Hypothesis overruns its buffer): legal actions drawn from
engine.legal_actions, time-outs at the deadline, chat in any channel, and random
(mostly illegal) actions that must be refused without changing anything. After every
input we check the game's invariants, every seat's view (what it may know, RULES.md §8)
and that each seat's version moves exactly when its view does.
"""
import json
import random

import pytest
from enginekit import T0
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from werewolf import engine
from werewolf.engine import flow

PUBLIC_KINDS = {"game_start", "step", "deaths", "election_result", "vote_cast", "vote_request",
                "vote_result", "tiebreak", "hunter_shot", "succession", "game_end"}
AT_END_KINDS = {"night_summary", "night_deaths", "cupid_silent"}
MAX_INPUTS = 3000

# The heavy check (every view after every input) costs; the light one plays more games.
HEAVY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LIGHT = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tables(draw):
    n = draw(st.integers(engine.MIN_PLAYERS, engine.MAX_PLAYERS))
    patch = {"roles": {role: draw(st.booleans()) for role in engine.OPTIONAL_ROLES},
             "captain": draw(st.booleans())}
    seed = draw(st.integers(0, 2**64 - 1))
    return [f"P{i}" for i in range(1, n + 1)], patch, seed


# --- driving a game ---------------------------------------------------------------
class Driver:
    """Plays one game with random inputs; `check` runs after every input."""

    def __init__(self, names, patch, seed, rnd, check):
        self.rnd, self.check = rnd, check
        self.now = T0
        self.game = engine.new_game(names, patch, seed, self.now)
        self.inputs = 0

    def play(self) -> int:
        self.check(self, None)
        while self.game.status == "running":
            self.inputs += 1
            assert self.inputs <= MAX_INPUTS, "the game did not end"
            roll = self.rnd.random()
            if roll < 0.12:
                self.time_out()
            elif roll < 0.20:
                self.chat()
            elif roll < 0.25:
                self.anything()
            else:
                self.legal()
        return self.inputs

    def time_out(self):
        self.now = self.game.deadline
        before = self.before()
        assert engine.advance(self.game, self.now)
        assert not engine.advance(self.game, self.now - 0.001) or self.game.status == "running"
        self.check(self, before)

    def legal(self):
        offers = [(seat, spec) for seat in range(1, self.game.n + 1)
                  for spec in engine.legal_actions(self.game, seat)]
        if not offers:
            return self.time_out()
        seat, spec = self.rnd.choice(offers)
        body = {"action": spec["action"], "step": self.game.step_seq}
        if "count" in spec:
            body["targets"] = self.rnd.sample(spec["choices"], spec["count"])
        elif "choices" in spec:
            body["target"] = self.rnd.choice(list(spec["choices"]) + ([None] if spec.get("nullable") else []))
        self.now += self.rnd.choice([0.0, 0.5, 3.0])
        before = self.before()
        engine.apply(self.game, seat, body, self.now)
        self.check(self, before)

    def anything(self):
        """A random action by a random seat: accepted exactly when the prompt offers it."""
        game = self.game
        seat = self.rnd.randint(0, game.n + 1)
        action = self.rnd.choice(sorted(engine.ACTION_STEP))
        target = self.rnd.choice([None, 0, *range(1, game.n + 1)])
        body = {"action": action, "target": target,
                "targets": self.rnd.sample(range(1, game.n + 1), 2)}
        offered = {spec["action"]: spec for spec in engine.legal_actions(game, seat)}
        spec = offered.get(action)
        ok = spec is not None and (
            "choices" not in spec
            or ("count" in spec and all(t in spec["choices"] for t in body["targets"]))
            or ("count" not in spec and (target in spec["choices"] or (target is None and spec.get("nullable")))))
        self.refusable(ok, lambda now: engine.apply(game, seat, body, now))

    def chat(self):
        game = self.game
        seat = self.rnd.randint(1, game.n)
        channel = self.rnd.choice(engine.CHANNELS)
        ok = engine.writable_channel(game, seat) == channel
        self.refusable(ok, lambda now: engine.post_chat(game, seat, channel, f"m{self.inputs}", now))

    def refusable(self, ok, attempt):
        before_state = json.dumps(self.game.to_dict(), sort_keys=True)
        before = self.before()
        self.now += 0.25
        try:
            attempt(self.now)
        except engine.IllegalAction:
            assert not ok, "a legal input was refused"
            assert json.dumps(self.game.to_dict(), sort_keys=True) == before_state
            self.check(self, before, refused=True)
        else:
            assert ok, "an illegal input was accepted"
            self.check(self, before)

    def before(self) -> dict:
        """What the checks need to know of the moment before an input."""
        return {"captain": self.captain_now(), "living": set(self.game.living())}

    def captain_now(self):
        c = self.game.captain
        return c if c is not None and self.game.player(c).alive else None


# --- invariants -------------------------------------------------------------------
def game_invariants(d: Driver, before, refused=False):
    game = d.game
    living = set(game.living())
    assert game.version_for(None) >= 0
    if game.status == "running":
        assert game.step in engine.STEPS and game.deadline is not None
        assert game.winner is None
    else:
        assert game.step is None and game.deadline is None and game.winner is not None
    # The game stops the moment a win condition holds, and not before.
    assert flow.outcome(game) == game.winner
    # The dead never act, except the Hunter's shot and the Captain's succession.
    for seat in range(1, game.n + 1):
        if engine.legal_actions(game, seat) and seat not in living:
            assert game.step in ("hunter", "succession") and seat == game.actor
    # Lovers die together.
    if game.lovers:
        a, b = game.lovers
        assert game.player(a).alive == game.player(b).alive
    # Ballots and designations come from the living, for the living.
    for voter, target in (game.votes.items() if game.status == "running" else ()):
        assert voter in living and (target is None or target in living)
    for wolf, target in game.designations.items():
        if game.step == "werewolves":
            assert wolf in game.living_wolves() and target in living
    # Every result counts the living voters' last ballots, the Captain's twice.
    if before is not None and not refused:
        for event in d.new_events:
            if event["kind"] in ("vote_result", "election_result"):
                check_tally(game, event, before["captain"] if event["kind"] == "vote_result" else None,
                            before["living"])


def check_tally(game, result, captain, living):
    step = "vote" if result["kind"] == "vote_result" else "election"
    ballots = {}
    for event in reversed(game.events[:game.events.index(result)]):
        if event["kind"] == "step":
            if event["step"] == step:
                break
        elif event["kind"] == "vote_cast" and event["step"] == step:
            ballots.setdefault(event["seat"], event["target"])
    tally = {}
    for voter, target in ballots.items():
        assert voter in living, "only the living vote"
        if target is not None:
            tally[str(target)] = tally.get(str(target), 0) + (2 if voter == captain else 1)
    assert result["tally"] == dict(sorted(tally.items(), key=lambda kv: int(kv[0])))


REGULAR_STEPS = {"cupid", "seer", "werewolves", "witch", "election", "debate", "vote", "tiebreak"}


def story_invariants(game):
    """Read back the finished game's log: deaths are followed by what RULES.md §3-§5 say."""
    events = game.events
    captain = None

    def until_regular(i):
        """Events after i up to the next regular step or the end (exclusive)."""
        out = []
        for e in events[i + 1:]:
            if e["kind"] == "game_end" or e["kind"] == "step" and e["step"] in REGULAR_STEPS:
                return out, e
            out.append(e)
        raise AssertionError("the log stops without an end")

    for i, e in enumerate(events):
        if e["kind"] in ("election_result", "succession"):
            captain = e["captain"]
        elif e["kind"] == "night_summary":
            nd = events[i + 1] if events[i + 1]["kind"] == "deaths" else None
            assert nd is not None and nd["moment"] == "night"
            causes = next((x["deaths"] for x in events[i + 1:i + 3] if x["kind"] == "night_deaths"), [])
            direct = {x["seat"] for x in causes if x["cause"] == "night"}
            expected = ({e["victim"]} if e["victim"] is not None and not e["saved"] else set()) \
                | ({e["poisoned"]} if e["poisoned"] is not None else set())
            assert direct == expected
            for x in causes:
                if x["cause"] == "grief":
                    assert game.lovers and x["seat"] in game.lovers
        elif e["kind"] == "vote_result":
            tally = e["tally"]
            top = max(tally.values(), default=0)
            leaders = sorted(int(k) for k, v in tally.items() if v == top)
            if len(leaders) == 1:
                assert e["eliminated"] == leaders[0] and e["tied"] == []
                nxt = events[i + 1]
                assert nxt["kind"] == "deaths" and nxt["deaths"][0] == {
                    "seat": leaders[0], "role": game.player(leaders[0]).role, "cause": "vote"}
            else:
                assert e["eliminated"] is None and e["tied"] == (leaders if len(leaders) > 1 else [])
                _, nxt = until_regular(i)
                if len(leaders) > 1 and captain is not None:
                    assert nxt["step"] == "tiebreak" and nxt["actor"] == captain
                else:
                    assert nxt["kind"] == "step" and nxt["step"] in ("seer", "werewolves")
        elif e["kind"] == "deaths":
            dead = [x["seat"] for x in e["deaths"]]
            between, nxt = until_regular(i)
            follow = [(x["step"], x["actor"]) for x in between if x["kind"] == "step"]
            ended = nxt["kind"] == "game_end"
            for seat in dead:
                if game.player(seat).role == "hunter" and not ended:
                    assert ("hunter", seat) in follow, f"the Hunter {seat} did not shoot"
                if seat == captain:
                    if ("succession", seat) in follow:
                        hunters = [k for k, (step, _) in enumerate(follow) if step == "hunter"]
                        assert all(k < follow.index(("succession", seat)) for k in hunters)
                    else:
                        assert ended, f"the dead Captain {seat} named no successor"
            if captain in dead:
                captain = None if ended else captain


def json_round_trip(d: Driver):
    assert engine.Game.from_dict(json.loads(json.dumps(d.game.to_dict()))) == d.game
    assert d.game.to_json() == json.dumps(d.game.to_dict(), separators=(",", ":"), ensure_ascii=False)


def comparable(view):
    out = dict(view)
    del out["version"]
    if out["step"] is not None:
        out["step"] = {k: v for k, v in out["step"].items() if k != "seconds_left"}
    return out


def view_invariants(d: Driver):
    game = d.game
    seats = [None, *range(1, game.n + 1)]
    views = {s: engine.view_for(game, s, d.now) for s in seats}
    for seat, view in views.items():
        # The version moves exactly when what this seat sees moves.
        seen, version = comparable(view), view["version"]
        if seat in d.last_views:
            old_seen, old_version = d.last_views[seat]
            assert (seen != old_seen) == (version != old_version), \
                f"seat {seat}: view {'changed' if seen != old_seen else 'unchanged'}, " \
                f"version {old_version} -> {version}"
        d.last_views[seat] = (seen, version)
        if game.status == "running":
            assert_private(game, seat, view)
        else:
            assert all(p["role"] == game.player(p["seat"]).role for p in view["players"])
            assert len(view["events"]) == len(game.events)
    if game.status == "running":
        assert_villagers_alike(game, views)


def assert_private(game, seat, view):
    me = game.player(seat) if seat is not None else None
    role = me.role if me else None
    living_wolf = me is not None and me.alive and role == "werewolf"
    looks = {e["target"] for e in game.events if e["kind"] == "seer_look" and e["audience"] == seat}
    # Cards: own, the dead's, fellow wolves for a wolf, the Seer's looks. Nothing else.
    for p, shown in zip(game.players, view["players"]):
        if not p.alive or p.seat == seat:
            assert shown.get("role") == p.role
        elif role == "werewolf" and p.role == "werewolf" or p.seat in looks:
            assert shown.get("role") == p.role
        else:
            assert "role" not in shown, f"seat {seat} sees the card of living seat {p.seat}"
    # Events: public ones and this seat's own night actions only.
    allowed = set(PUBLIC_KINDS)
    if role == "seer":
        allowed.add("seer_look")
    if role == "witch":
        allowed |= {"witch_victim", "witch_save", "witch_poison"}
    if role == "cupid":
        allowed.add("cupid_pair")
    if game.lovers and seat in game.lovers:
        allowed.add("lover")
    if living_wolf:
        allowed |= {"designation", "wolves_victim"}
    for event in view["events"]:
        assert event["kind"] in allowed, f"seat {seat} sees a {event['kind']} event"
        assert "audience" not in event
    assert [e["seq"] for e in view["events"]] == list(range(1, len(view["events"]) + 1))
    # Channels.
    expected = ["village"] + (["werewolves"] if living_wolf else []) + (["dead"] if me and not me.alive else [])
    assert sorted(view["chat"]) == sorted(expected) == sorted(view["channels"]["read"])
    assert ("designations" in view) == (living_wolf and game.step == "werewolves")
    if me is not None:
        assert ("potions" in view["me"]) == (role == "witch")
        assert ("lover" in view["me"]) == bool(game.lovers and seat in game.lovers)
        assert view["me"]["role"] == role


def assert_villagers_alike(game, views):
    """Two living villagers, neither lover nor Cupid, see the same thing but `me`."""
    lovers = set(game.lovers or [])
    plain = [p.seat for p in game.players
             if p.role == "villager" and p.alive and p.seat not in lovers]
    if len(plain) < 2:
        return
    def mine_removed(seat):
        # Each sees their own card in `players`: both are "villager", at different seats.
        view = dict(views[seat])
        view["players"] = [{k: v for k, v in p.items() if not (p["seat"] == seat and k == "role")}
                           for p in view["players"]]
        return view

    first = mine_removed(plain[0])
    for seat in plain[1:]:
        other = mine_removed(seat)
        assert set(other) == set(first)
        for key in first:
            if key not in ("me", "prompt"):
                assert other[key] == first[key], f"villagers {plain[0]} and {seat} differ in {key}"
        assert set(other["me"]) == set(first["me"])
        # Their own ballots and requests differ, and the Captain alone breaks a tie.
        acted = set(game.votes) | set(game.requests) | {game.actor}
        if plain[0] not in acted and seat not in acted:
            assert other["prompt"] == first["prompt"]


def full_check(d: Driver, before, refused=False):
    d.new_events = d.game.events[d.seen_events:]
    d.seen_events = len(d.game.events)
    game_invariants(d, before, refused)
    json_round_trip(d)
    view_invariants(d)


def light_check(d: Driver, before, refused=False):
    d.new_events = d.game.events[d.seen_events:]
    d.seen_events = len(d.game.events)
    game_invariants(d, before, refused)


def driver(table, rnd, check) -> Driver:
    names, patch, seed = table
    d = Driver(names, patch, seed, rnd, check)
    d.seen_events, d.new_events, d.last_views = 0, [], {}
    return d


# --- the properties -----------------------------------------------------------------
@HEAVY
@given(table=tables(), choices=st.integers(0, 2**32))
def test_random_play_keeps_every_invariant_and_every_secret(table, choices):
    d = driver(table, random.Random(choices), full_check)
    d.play()
    assert d.game.status == "ended"
    story_invariants(d.game)


@LIGHT
@given(table=tables(), choices=st.integers(0, 2**32))
def test_random_play_always_ends(table, choices):
    d = driver(table, random.Random(choices), light_check)
    d.play()
    assert d.game.status == "ended"
    story_invariants(d.game)
    assert d.game.winner["camp"] in ("village", "werewolves", "lovers", "none")


@pytest.mark.parametrize("players", range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1))
def test_every_table_size_plays_through_with_every_check(players):
    """Hypothesis picks sizes at random; this makes sure each size is played at least once."""
    names = [f"P{i}" for i in range(1, players + 1)]
    for captain, roles in ((True, {}), (False, {"cupid": False, "hunter": False})):
        d = driver((names, {"captain": captain, "roles": roles}, players), random.Random(players), full_check)
        d.play()
        story_invariants(d.game)
