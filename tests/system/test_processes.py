"""Real gunicorn processes on 127.0.0.1 over a temporary SQLite file (or the database of
WEREWOLF_TEST_DATABASE_URI): SIGKILL at random moments of running games, and several workers
whose schedulers race for the same deadlines.

Every test is bounded in time and kills the process groups it started, whatever happens.
"""
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import sqlalchemy

from tests.conftest import TEST_DATABASE_URI, empty_test_database
from tests.kit.audit import random_move

requests = pytest.importorskip("requests")

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _is_limits_timer_race(lines: list[str]) -> bool:
    """The rate limiter's in-memory store (limits 5.8, MemoryStorage) restarts its expiry
    Timer without a lock: two requests at once can start the same Timer twice, and the
    second thread dies at birth with ``KeyError`` in ``del _limbo[self]``. Harmless (the
    first thread expires the entries) and not ours; any other traceback still fails."""
    text = "\n".join(lines)
    return "<Timer(" in text and "del _limbo[self]" in text and "KeyError: <Timer(" in text


class Server:
    """gunicorn in its own process group; ``kill()`` is SIGKILL to the whole group."""

    def __init__(self, tmp: Path, workers: int, time_scale: float, database_uri: str, name: str = "server",
                 options: tuple[str, ...] = ()):
        """``options``: gunicorn's command-line settings over gunicorn.conf.py's (its worker class too)."""
        self.tmp, self.workers, self.time_scale = tmp, workers, time_scale
        self.database_uri, self.name, self.options = database_uri, name, options
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None
        self.starts = 0

    def start(self, timeout: float = 30.0) -> None:
        env = {**os.environ,
               "WEREWOLF_INSTANCE_PATH": str(self.tmp / f"{self.name}-instance"),
               "WEREWOLF_SQLALCHEMY_DATABASE_URI": self.database_uri,
               "WEREWOLF_SECRET_KEY": "processes-test",
               "WEREWOLF_TIME_SCALE": str(self.time_scale),
               "WEREWOLF_PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
               "WEREWOLF_CHAT_RATE_LIMIT": "100000 per minute",
               "WEREWOLF_ACT_RATE_LIMIT": "100000 per minute",  # the racing threads act non-stop
               "WEREWOLF_REGISTRATION_RATE_LIMIT": "100000 per minute"}
        log = open(self.log_path(self.starts), "wb")
        self.proc = subprocess.Popen(
            [str(GUNICORN), "--bind", f"127.0.0.1:{self.port}", "--workers", str(self.workers),
             "--timeout", "30", "--graceful-timeout", "2", "--no-control-socket", *self.options,
             "app:app"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log_path(self.starts - 1).read_text()[-2000:]}")
            try:
                if requests.get(self.url + "/api/me", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                time.sleep(0.05)
        raise RuntimeError("gunicorn did not answer in time")

    def log_path(self, start: int) -> Path:
        return self.tmp / f"{self.name}-{start}.log"

    def logged_errors(self) -> list[str]:
        """Tracebacks in the logs of every start (the app logs one with each 500)."""
        found = []
        for start in range(self.starts):
            lines = self.log_path(start).read_text(errors="replace").splitlines()
            found += ["\n".join(lines[max(0, i - 2):i + 30]) for i, line in enumerate(lines)
                      if "Traceback" in line and not _is_limits_timer_race(lines[i:i + 8])]
        return found

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=10)
        # Workers are in the same group: make sure none outlives the master.
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        self.kill()

    # --- the durable truth, read straight from the database (a file while no server runs)
    def games(self) -> list[dict]:
        return saved_games(self.database_uri)


def saved_games(database_uri: str) -> list[dict]:
    """Every game row as committed, its state decoded (and SQLite's file checked)."""
    if database_uri.startswith("sqlite:///"):
        con = sqlite3.connect(database_uri.removeprefix("sqlite:///"))
        try:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            rows = con.execute("SELECT id, status, deadline, rev, state, moves FROM games ORDER BY id").fetchall()
        finally:
            con.close()
    else:
        engine = sqlalchemy.create_engine(database_uri, poolclass=sqlalchemy.pool.NullPool)
        with engine.connect() as connection:
            rows = connection.exec_driver_sql(
                "SELECT id, status, deadline, rev, state, moves FROM games ORDER BY id").fetchall()
    out = []
    for game_id, status, deadline, rev, state, moves in rows:
        state = json.loads(state)
        assert state["status"] == status and state["deadline"] == deadline
        out.append({"id": game_id, "rev": rev, "state": state,
                    "moves": [json.loads(line) for line in moves.splitlines()]})
    return out


@pytest.fixture
def server_factory(tmp_path):
    """``make(workers, time_scale, name, options=...)``: a server; all of a test's servers share one database."""
    servers = []
    database_uri = empty_test_database(tmp_path)

    def make(workers: int, time_scale: float, name: str = "server", **options) -> Server:
        server = Server(tmp_path, workers, time_scale, database_uri, name, **options)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()
    errors = [error for server in servers for error in server.logged_errors()]
    assert not errors, f"{len(errors)} tracebacks in the servers' logs, the first:\n{errors[0]}"


class Http:
    """One player: a requests session with its CSRF token; survives server restarts."""

    def __init__(self, server: Server, name: str):
        self.server, self.name = server, name
        self.session = requests.Session()
        self.token = None

    def refresh_token(self):
        self.token = self.session.get(self.server.url + "/api/me", timeout=20).json()["csrf_token"]

    def call(self, method, path, body=None, timeout=20):
        if self.token is None:
            self.refresh_token()
        return self.session.request(method, self.server.url + path, json=body, timeout=timeout,
                                    headers={"X-CSRFToken": self.token})

    def register(self):
        r = self.call("POST", "/api/auth/register", {"name": self.name, "password": "Lune pleine 42"})
        assert r.status_code == 201, r.text
        self.refresh_token()  # the token is bound to the new session
        return self


def seat_table(server: Server, n: int, settings: dict, prefix: str = "P") -> tuple[str, dict[int, Http]]:
    players = [Http(server, f"{prefix}{i}").register() for i in range(n)]
    r = players[0].call("POST", "/api/tables", {"name": "Processes"})
    table_id = r.json()["table"]["id"]
    for p in players[1:]:
        assert p.call("POST", f"/api/tables/{table_id}/join").status_code == 200
    assert players[0].call("PATCH", f"/api/tables/{table_id}/settings", settings).status_code == 200
    assert players[0].call("POST", f"/api/tables/{table_id}/start").status_code == 200
    seats = {p.call("GET", f"/api/tables/{table_id}/state").json()["me"]["seat"]: p for p in players}
    return table_id, seats


# ---------------------------------------------------------------- SIGKILL and restart

ACT_EVENT = {  # what an accepted action leaves in the log: (kind, fields from the request)
    "cupid.pair": lambda s, b: ("cupid_pair", {"targets": sorted(b["targets"])}),
    "seer.look": lambda s, b: ("seer_look", {"target": b["target"]}),
    "werewolves.designate": lambda s, b: ("designation", {"seat": s, "target": b.get("target")}),
    "witch.save": lambda s, b: ("witch_save", {}),
    "witch.poison": lambda s, b: ("witch_poison", {"target": b["target"]}),
    "hunter.shoot": lambda s, b: ("hunter_shot", {"hunter": s, "target": b["target"]}),
    "succession.name": lambda s, b: ("succession", {"previous": s, "captain": b["target"]}),
    "election.vote": lambda s, b: ("vote_cast", {"step": "election", "seat": s, "target": b.get("target")}),
    "debate.request_vote": lambda s, b: ("vote_request", {"seat": s}),
    "vote.cast": lambda s, b: ("vote_cast", {"step": "vote", "seat": s, "target": b.get("target")}),
    "tiebreak.choose": lambda s, b: ("tiebreak", {"captain": s, "target": b["target"]}),
}


CHANGEABLE = {"werewolves.designate", "election.vote", "vote.cast"}


class Activity:
    """Players polling, acting and chatting from threads until told to stop; every 2xx kept,
    and every act whose answer never came (the server killed meanwhile, or too slow): the
    server may or may not have played it."""

    def __init__(self, table_id: str, seats: dict[int, Http], rng: random.Random):
        self.table_id, self.seats, self.rng = table_id, seats, rng
        self.accepted_acts: list[tuple[int, dict]] = []
        self.unanswered_acts: list[tuple[int, dict]] = []
        self.accepted_chats: list[str] = []
        self.counter = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.requests = 0

    def run_player(self, seat: int, seed: int) -> None:
        rng = random.Random(seed)
        player = self.seats[seat]
        while not self.stop.is_set():
            try:
                view = player.call("GET", f"/api/tables/{self.table_id}/state", timeout=2).json()
                self.requests += 1
                if view.get("status") != "running":
                    time.sleep(0.02)
                    continue
                if view["prompt"] and rng.random() < 0.6:
                    body = random_move(view["prompt"], rng)
                    try:
                        r = player.call("POST", f"/api/tables/{self.table_id}/act", body, timeout=2)
                    except requests.RequestException:
                        with self.lock:
                            self.unanswered_acts.append((seat, body))
                        raise
                    if 200 <= r.status_code < 300:
                        with self.lock:
                            self.accepted_acts.append((seat, body))
                channel = view["channels"]["write"]
                if channel and rng.random() < 0.3:
                    with self.lock:
                        self.counter += 1
                        text = f"msg-{seat}-{self.counter}-{rng.getrandbits(32):08x}"
                    r = player.call("POST", f"/api/tables/{self.table_id}/chat",
                                    {"channel": channel, "text": text}, timeout=2)
                    if 200 <= r.status_code < 300:
                        with self.lock:
                            self.accepted_chats.append(text)
            except (requests.RequestException, ValueError, KeyError):
                time.sleep(0.02)  # the server is down or restarting

    def start(self):
        self.stop.clear()
        self.threads = [threading.Thread(target=self.run_player, args=(s, self.rng.getrandbits(32)), daemon=True)
                        for s in self.seats]
        for t in self.threads:
            t.start()

    def join(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=10)


def _act_key(seat: int, body: dict) -> tuple[int, str]:
    return seat, json.dumps(body, sort_keys=True)


def check_durable(games: list[dict], activity: Activity, every_move_sent: bool = False) -> dict:
    """Every action and message that got a 2xx is in the saved state: each act in its game's
    record of moves (``games.moves``: what the server played, in order), and every move
    recorded left its event in the log. An act whose answer was lost may have been played
    or not: the record says which, and the log must follow the record. ``every_move_sent``:
    every move played came from ``activity`` (no other player acted), none of them refused.
    Returns counts."""
    messages = {m["text"] for g in games for m in g["state"]["chat"]}
    lost = [t for t in activity.accepted_chats if t not in messages]
    assert not lost, f"{len(lost)} accepted messages lost: {lost[:5]}"
    played = Counter(_act_key(m["seat"], m["body"]) for g in games for m in g["moves"] if "body" in m)
    answered = Counter(_act_key(seat, body) for seat, body in activity.accepted_acts)
    uncommitted = answered - played
    assert not uncommitted, f"acts answered 2xx but in no game's record: {list(uncommitted.items())[:5]}"
    if every_move_sent:  # and nothing played that the server refused
        sent = answered + Counter(_act_key(seat, body) for seat, body in activity.unanswered_acts)
        unsent = played - sent
        assert not unsent, f"acts played that were refused or never sent: {list(unsent.items())[:5]}"
    answered_choices, unanswered_choices = {}, {}
    for acts, choices in ((activity.accepted_acts, answered_choices), (activity.unanswered_acts, unanswered_choices)):
        for seat, body in acts:
            choices.setdefault((seat, body["action"], body["step"]), []).append(body)
    replaced = 0
    for g in games:
        moves = [(m["seat"], m["body"]) for m in g["moves"] if "body" in m]
        # A choice one may change replaces the seat's last of its step (Game.emit_choice): the
        # log keeps each seat's last played; a withdrawal of nothing (null, never designated) leaves nothing.
        last = {(seat, body["action"], body["step"]): body for seat, body in moves if body["action"] in CHANGEABLE}
        kept = [(seat, body) for seat, body in moves if body["action"] not in CHANGEABLE]
        kept += [(seat, body) for (seat, _, _), body in last.items()
                 if body.get("target") is not None or body["action"] == "vote.cast"]
        wanted = Counter()
        for seat, body in kept:
            if body["action"] in ACT_EVENT:
                kind, fields = ACT_EVENT[body["action"]](seat, body)
                wanted[(kind, json.dumps(fields, sort_keys=True))] += 1
        found = Counter()
        for e in g["state"]["events"]:
            for kind, fields in wanted:
                if e["kind"] == kind and all(e.get(k) == v for k, v in json.loads(fields).items()):
                    found[(kind, fields)] += 1
        missing = {k: n - found[k] for k, n in wanted.items() if found[k] < n}
        assert not missing, f"played actions missing from game {g['id']}'s log: {list(missing.items())[:5]}"
        # How often the old check (each seat's last 2xx choice of a step in the log) was wrong:
        # a later choice of theirs was played, its answer lost in the kill.
        choices = {}
        for seat, body in moves:
            choices.setdefault((seat, body["action"], body["step"]), []).append(body)
        replaced += sum(1 for key, body in last.items() if body in unanswered_choices.get(key, [])
                        and any(b != body and b in choices[key][:-1] for b in answered_choices.get(key, [])))
    unanswered = Counter(_act_key(seat, body) for seat, body in activity.unanswered_acts)
    return {"unanswered acts": len(activity.unanswered_acts),
            "of them played": sum(min(n, played[key]) for key, n in unanswered.items()),
            "last 2xx choices then replaced by an unanswered one": replaced}


def step_of(state: dict) -> tuple:
    return state["status"], state["step_seq"], state["step"], state["deadline"]


def test_sigkill_at_random_moments_and_restart(server_factory):
    rng = random.Random(int(os.environ.get("WEREWOLF_KILL_SEED", "20261130")))
    kills = int(os.environ.get("WEREWOLF_KILLS", "22"))
    # Steps of about 0.4-1 s: deadlines pass while the server is down in many rounds.
    server = server_factory(workers=2, time_scale=0.02)
    server.start()
    limits = {step: 40 for step in ("cupid", "seer", "werewolves", "witch", "hunter", "succession",
                                    "election", "tiebreak")}
    limits.update({"dawn": 20, "debate": 50, "vote": 50})
    table_id, seats = seat_table(server, 8, {"limits": limits})
    host = next(p for p in seats.values() if p.name == "P0")
    activity = Activity(table_id, seats, rng)
    started = time.monotonic()
    survived = advanced_once = same_step = games_played = 0
    try:
        for round_no in range(kills):
            activity.start()
            time.sleep(rng.uniform(0.05, 0.8))  # a random moment of votes, chat, step changes
            server.kill()
            activity.join()
            games = server.games()
            counts = check_durable(games, activity, every_move_sent=True)
            current = games[-1]["state"]
            before = step_of(current)
            down = rng.choice([0.0, 0.2, 1.5, 2.5])  # sometimes longer than a step
            time.sleep(down)
            restart_at = time.time()
            server.start()
            survived += 1
            # Before any player acts again: what did the server do with the step it had?
            view = server_games_live(host, table_id)
            status, seq, step, deadline = before
            if status == "running":
                kind = check_resumed(view, seq, deadline, restart_at, current["settings"]["limits"],
                                     server.time_scale)
                same_step += kind == "same"
                advanced_once += kind == "advanced"
            after_games = view
            if after_games["status"] == "ended":
                games_played += 1
                r = host.call("POST", f"/api/tables/{table_id}/reopen")
                assert r.status_code == 200, r.text
                assert host.call("POST", f"/api/tables/{table_id}/start").status_code == 200
            assert time.monotonic() - started < 240, "the kill test takes too long"
        server.kill()
        counts = check_durable(server.games(), activity, every_move_sent=True)
    finally:
        activity.stop.set()
    print(f"SIGKILL: {survived} restarts survived, {len(activity.accepted_acts)} accepted actions and "
          f"{len(activity.accepted_chats)} messages all kept, {same_step} resumed the same step, "
          f"{advanced_once} overdue steps advanced once, {games_played} games ended; {counts}")
    assert survived == kills and activity.accepted_acts and activity.accepted_chats


def server_games_live(player: Http, table_id: str) -> dict:
    """The state as a seated player sees it right after a restart."""
    for _ in range(50):
        try:
            r = player.call("GET", f"/api/tables/{table_id}/state", timeout=2)
            if r.status_code == 200:
                return r.json()
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise AssertionError("no state after the restart")


def check_resumed(view: dict, seq: int, deadline: float, restart_at: float, limits: dict,
                  scale: float) -> str:
    """The step saved at the kill resumes: if its deadline passed while the server was down it
    is advanced once, at the restart (not earlier, and the next step gets its whole limit);
    otherwise it goes on until its own deadline."""
    steps = [e for e in view["events"] if e["kind"] == "step"]
    assert [e["step_seq"] for e in steps] == list(range(1, len(steps) + 1)), "a step number skipped"
    later = [e for e in steps if e["step_seq"] > seq]
    starts = [iso_seconds(e["at"]) for e in later]
    if later:
        # The first new step began when the old deadline had passed, and not before the restart.
        assert starts[0] >= max(deadline, restart_at) - 0.05, (deadline, restart_at, later[0])
        for e, t, t_next in zip(later, starts, starts[1:]):  # nobody acted: each lasted its limit
            assert t_next - t >= limits[e["step"]] * scale - 0.02, ("a step skipped", e, t_next - t)
    if view["status"] == "running":
        began = starts[-1] if later else None
        current = view["step"]
        if began is not None:
            expected = began + limits[current["id"]] * scale
            assert abs(iso_seconds(current["deadline"]) - expected) < 0.05, (current, expected)
        else:
            assert current["seq"] == seq and abs(iso_seconds(current["deadline"]) - deadline) < 0.01
    if not later:
        return "same"
    return "advanced" if deadline <= restart_at else "later"


def iso_seconds(text: str) -> float:
    from datetime import datetime
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


# ---------------------------------------------------------------- listening sockets

def listening_sockets(port: int) -> int:
    """The TCP sockets in LISTEN state on 127.0.0.1:``port`` (/proc/net/tcp)."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        if state == "0A" and int(local.partition(":")[2], 16) == port:
            count += 1
    return count


@pytest.mark.skipif(not hasattr(socket, "SO_REUSEPORT") or not Path("/proc/net/tcp").exists(),
                    reason="SO_REUSEPORT and /proc/net/tcp are Linux's")
def test_each_worker_listens_on_its_own_socket_and_the_kernel_spreads_connections(server_factory):
    """gunicorn.conf.py's reuse_port: one socket per worker. With one shared socket the
    worker that woke first took most of the phones' long-lived connections and ran out
    of its core while the other idled (bench/NOTEBOOK.md, third session)."""
    server = server_factory(workers=2, time_scale=1.0)
    server.start()
    assert listening_sockets(server.port) == 2
    # 40 keep-alive connections, opened one after the other: both workers get some.
    sessions = [requests.Session() for _ in range(40)]
    try:
        for session in sessions:
            assert session.get(server.url + "/api/me", timeout=20).status_code == 200
        workers = worker_pids(server)
        assert len(workers) == 2
        held = [established_on(server.port, pid) for pid in workers]
        assert sum(held) == 40 and min(held) >= 5, held
    finally:
        for session in sessions:
            session.close()


def worker_pids(server: Server) -> list[int]:
    return sorted(int(pid) for pid in subprocess.run(
        ["pgrep", "-P", str(server.proc.pid)], capture_output=True, text=True).stdout.split())


needs_two_cores = pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                                     reason="pinning is Linux's, and needs two cores")


@needs_two_cores
def established_on(port: int, pid: int) -> int:
    """Established connections to ``port`` whose server end is held by process ``pid``."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "01" and int(fields[1].partition(":")[2], 16) == port:
            inodes.add(fields[9])
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            count += 1
    return count


# ---------------------------------------------------------------- racing workers

def test_four_workers_advance_each_deadline_once_and_count_every_vote(server_factory):
    server = server_factory(workers=4, time_scale=0.01)
    server.start()
    # Night and dawn time out in 0.3 s each; the debate in 1 s; the vote waits 20 s for the votes.
    limits = {step: 30 for step in ("seer", "werewolves", "witch", "dawn", "hunter", "succession",
                                    "tiebreak", "cupid", "election")}
    limits.update({"debate": 100, "vote": 2000})
    table_id, seats = seat_table(server, 18, {"limits": limits, "captain": False,
                                              "roles": {"hunter": False, "cupid": False}}, prefix="R")
    view = wait_for_step(seats[1], table_id, "vote")
    step_seq = view["step"]["seq"]
    living = [p["seat"] for p in view["players"] if p["alive"]]
    target = living[0]
    everyone_votes_at_once(seats, table_id, living, target, step_seq)

    # Let the night run out by itself with four schedulers racing, then read the log.
    time.sleep(2.5)
    late = {}
    # Actions for the vote step that has ended: refused, never applied to a later step.
    for seat in living[1:4]:
        late[seat] = seats[seat].call("POST", f"/api/tables/{table_id}/act",
                                      {"action": "vote.cast", "target": target, "step": step_seq})
    assert all(r.status_code == 409 and r.json()["error"]["code"] in ("stale_step", "wrong_step", "game_over")
               for r in late.values()), [r.text for r in late.values()]
    server.stop()
    (game,) = server.games()
    check_steps_advanced_once(game["state"], 0.01)
    votes = [e for e in game["state"]["events"] if e["kind"] == "vote_cast"]
    assert len(votes) == len(living)  # the late ones were not applied anywhere


def wait_for_step(player: Http, table_id: str, step: str, timeout: float = 30) -> dict:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        view = player.call("GET", f"/api/tables/{table_id}/state").json()
        if view["step"] and view["step"]["id"] == step:
            return view
        time.sleep(0.05)
    raise AssertionError(f"no {step} step within {timeout} s: {view['step']}")


def everyone_votes_at_once(seats: dict[int, Http], table_id: str, living: list[int], target: int,
                           step_seq: int) -> None:
    """The living all vote for ``target`` at the same moment: every vote accepted and counted."""
    barrier = threading.Barrier(len(living))
    results = {}

    def vote(seat):
        barrier.wait()
        results[seat] = seats[seat].call("POST", f"/api/tables/{table_id}/act",
                                         {"action": "vote.cast", "target": target, "step": step_seq})

    threads = [threading.Thread(target=vote, args=(s,)) for s in living]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(r.status_code for r in results.values()) == [200] * len(living), \
        [r.text for r in results.values() if r.status_code != 200]
    final = seats[living[0]].call("GET", f"/api/tables/{table_id}/state").json()
    result = [e for e in final["events"] if e["kind"] == "vote_result"][-1]
    assert result["tally"] == {str(target): len(living)} and result["eliminated"] == target


def check_steps_advanced_once(state: dict, scale: float, nobody_acted_before: int | None = None) -> None:
    """Step events are numbered 1, 2, 3... and each timed-out step lasted its full limit
    (the steps before ``nobody_acted_before``, when given, else all of them)."""
    from datetime import datetime
    steps = [e for e in state["events"] if e["kind"] == "step"]
    assert [e["step_seq"] for e in steps] == list(range(1, len(steps) + 1))
    limits = state["settings"]["limits"]
    times = [datetime.fromisoformat(e["at"].replace("Z", "+00:00")).timestamp() for e in steps]
    for (e, t), t_next in zip(zip(steps, times), times[1:]):
        if nobody_acted_before is not None and e["step_seq"] >= nobody_acted_before:
            break
        if e["step"] in ("seer", "werewolves", "witch", "dawn", "debate"):  # nobody acted: time-outs
            assert t_next - t >= limits[e["step"]] * scale - 0.01, (e, t_next - t)


def test_actions_racing_a_deadline_are_applied_in_their_step_or_refused(server_factory):
    server = server_factory(workers=4, time_scale=0.01)
    server.start()
    limits = {step: 20 for step in ("seer", "werewolves", "witch", "dawn", "hunter", "succession",
                                    "tiebreak", "cupid", "debate")}
    limits.update({"election": 150})
    table_id, seats = seat_table(server, 12, {"limits": limits, "captain": True,
                                              "roles": {"cupid": False}}, prefix="S")
    started = time.monotonic()
    while time.monotonic() - started < 30:
        view = seats[1].call("GET", f"/api/tables/{table_id}/state").json()
        if view["step"] and view["step"]["id"] == "election":
            break
        time.sleep(0.02)
    assert view["step"]["id"] == "election"
    seq = view["step"]["seq"]
    living = [p["seat"] for p in view["players"] if p["alive"]]
    stop_at = time.time() + view["step"]["seconds_left"] + 0.5
    outcomes = Counter()
    accepted = []
    lock = threading.Lock()

    def hammer(seat):
        rng = random.Random(seat)
        while time.time() < stop_at:
            target = rng.choice(living)
            try:
                r = seats[seat].call("POST", f"/api/tables/{table_id}/act",
                                     {"action": "election.vote", "target": target, "step": seq}, timeout=5)
            except requests.RequestException:
                continue
            with lock:
                if r.status_code == 200:
                    accepted.append((seat, target))
                    outcomes[200] += 1
                else:
                    outcomes[(r.status_code, r.json()["error"]["code"])] += 1

    # One player never votes, so the election ends by its deadline, raced by four schedulers.
    threads = [threading.Thread(target=hammer, args=(s,)) for s in living[1:]]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    server.stop()
    (game,) = server.games()
    state = game["state"]
    assert set(outcomes) <= {200, (409, "stale_step")}, outcomes
    assert outcomes[200] > 0 and outcomes[(409, "stale_step")] > 0, outcomes
    events = state["events"]
    end = next(i for i, e in enumerate(events) if e["kind"] == "election_result")
    in_step = [(e["seat"], e["target"]) for e in events[:end] if e["kind"] == "vote_cast"]
    after = [e for e in events[end:] if e["kind"] == "vote_cast"]
    # Each voter's last accepted ballot is in its own step, once (a changed one replaces the last).
    assert sorted(in_step) == sorted(dict(accepted).items())
    assert not after  # nothing applied to a later step
    steps = [e["step_seq"] for e in events if e["kind"] == "step"]
    assert steps == list(range(1, len(steps) + 1))
    print(f"deadline race: {dict(outcomes)}")


# ---------------------------------------------------------------- two app servers, one database

@pytest.mark.skipif(not TEST_DATABASE_URI, reason="two app servers share a server database (PostgreSQL)")
def test_two_servers_over_one_database_play_a_game_and_survive_losing_one(server_factory):
    """Two gunicorn instances (two app servers, each with its own scheduler) on two ports over
    one database, eight players split between them: an account name registered on both at
    once exists once; votes cast on both in the same second all count; each deadline moves
    its step once; one server SIGKILLed mid-step, its players go on on the other with the
    same session, and nothing either server acknowledged is lost."""
    scale = 0.02
    servers = [server_factory(workers=1, time_scale=scale, name=name) for name in ("a", "b")]
    for server in servers:
        server.start()
    a, b = servers

    twins = [Http(server, "Jumeau") for server in servers]
    barrier = threading.Barrier(2)
    codes = []

    def register(twin):
        twin.refresh_token()
        barrier.wait()
        codes.append(twin.call("POST", "/api/auth/register", {"name": "Jumeau", "password": "Deux jumeaux 22"}).status_code)

    threads = [threading.Thread(target=register, args=(t,)) for t in twins]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(codes) == [201, 409], codes

    # Night steps and the dawn time out in 0.4-0.6 s, the debate in 1 s; the vote waits 5 s.
    limits = {step: 30 for step in ("cupid", "seer", "werewolves", "witch", "hunter", "succession",
                                    "tiebreak", "election")}
    limits.update({"dawn": 20, "debate": 50, "vote": 250})
    players = [Http(servers[i % 2], f"D{i}").register() for i in range(8)]
    host = players[0]
    table_id = host.call("POST", "/api/tables", {"name": "Deux serveurs"}).json()["table"]["id"]
    for p in players[1:]:
        assert p.call("POST", f"/api/tables/{table_id}/join").status_code == 200
    r = host.call("PATCH", f"/api/tables/{table_id}/settings", {"limits": limits, "captain": False})
    assert r.status_code == 200, r.text
    assert host.call("POST", f"/api/tables/{table_id}/start").status_code == 200
    seats = {p.call("GET", f"/api/tables/{table_id}/state").json()["me"]["seat"]: p for p in players}

    # Nobody acts at night: both schedulers race for each deadline. Then everyone votes at once.
    view = wait_for_step(seats[1], table_id, "vote")
    vote_seq = view["step"]["seq"]
    living = [p["seat"] for p in view["players"] if p["alive"]]
    assert {seats[s].server for s in living} == {a, b}
    # A plain villager goes: with both wolves alive the game lasts well past the kill below.
    roles = {s: seats[s].call("GET", f"/api/tables/{table_id}/state").json()["me"]["role"] for s in living}
    everyone_votes_at_once(seats, table_id, living, next(s for s in living if roles[s] == "villager"),
                           vote_seq)

    # Everyone plays; server b dies in the middle of a step; its players carry on through a.
    rng = random.Random(20261201)
    activity = Activity(table_id, seats, rng)
    activity.start()
    time.sleep(rng.uniform(0.2, 0.6))  # early in the game: it must go on long after the move
    b.kill()
    killed_step = saved_games(b.database_uri)[-1]["state"]["step"]
    activity.join()
    check_durable(saved_games(a.database_uri), activity)
    assert saved_games(a.database_uri)[-1]["state"]["status"] == "running", "ended before the move"
    moved = {seat for seat, p in seats.items() if p.server is b}
    heard_before_move = len(activity.accepted_acts), len(activity.accepted_chats)
    for player in players:
        player.server = a  # the same session cookie and CSRF token, now on the other server
    activity.start()
    started = time.monotonic()
    try:
        while time.monotonic() - started < 120:
            if host.call("GET", f"/api/tables/{table_id}/state").json()["status"] == "ended":
                break
            time.sleep(0.2)
    finally:
        activity.join()
    a.stop()
    (game,) = saved_games(a.database_uri)
    state = game["state"]
    assert state["status"] == "ended", f"the game did not end on the remaining server: {state['step']}"
    check_durable([game], activity)
    heard = [seat for seat, _ in activity.accepted_acts[heard_before_move[0]:]] + \
        [int(text.split("-")[1]) for text in activity.accepted_chats[heard_before_move[1]:]]
    assert moved & set(heard), "b's players were not heard through a"
    check_steps_advanced_once(state, scale, nobody_acted_before=vote_seq)
    print(f"two servers: b killed during {killed_step!r}, {len(activity.accepted_acts)} accepted actions and "
          f"{len(activity.accepted_chats)} messages kept, {state['step_seq']} steps, each once")


# ---------------------------------------------------------------- over-long request lines

def test_an_overlong_request_line_gets_the_json_error_shape(server_factory):
    """gunicorn refused lines over 4,094 bytes with an HTML page of its own; it now takes up
    to its documented maximum (limit_request_line = 8190) and the app answers a URL over
    MAX_URL_LENGTH with its JSON error."""
    server = server_factory(workers=1, time_scale=1.0, options=("--threads", "2"))
    server.start()
    for length in (4100, 8000):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
            connection.sendall(f"GET /api/tables/{'a' * length}/state HTTP/1.1\r\nHost: x\r\n"
                               "Connection: close\r\n\r\n".encode())
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 414"), head
        assert b"application/json" in head
        assert json.loads(body)["error"]["code"] == "request_uri_too_long"
