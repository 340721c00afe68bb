#!/usr/bin/env python3
"""Capacity bench: many tables on one small server, against this machine's ceiling.

One command (see bench/README.md):

    .venv/bin/python bench/load.py            # T=100 tables of 18 players

What it does, all on 127.0.0.1 and all stopping by itself:

1. Starts the real server the way production does (``flask init-db``, then gunicorn
   with the project's ``gunicorn.conf.py``, ``app:app``) on a fresh SQLite file, with a
   small ``WEREWOLF_TIME_SCALE`` (0.4) applied to the game's default step limits,
   each table's limits drawn within +-30 % of them.
2. Saturation runs with ``wrk`` (C, epoll; its own CPU is reported): the state poll
   answered 304 (``If-None-Match``), the same poll answered in full (no
   ``If-None-Match``), and a minimal Flask "hello world" (``bench/hello.py``) served
   by the same gunicorn settings: same client, same duration, same connection count.
3. Simulates T tables of 18 players as HTTP clients (one asyncio process, a minimal
   HTTP/1.1 keep-alive client of its own, one connection per player):
   accounts are registered, tables created, joined, set up and started through the
   API; each player takes its views as the page does, from a stream (``GET
   /api/tables/<id>/events``; ``--transport poll``: held polls with ``If-None-Match``), acts on its
   prompt after a short random delay (some do not, so steps end both early and by
   deadline), and writes in the chat now and then. Ended games are reopened and
   started again, so the load holds for the whole window.
4. Prints latency (p50/p95/p99) and errors under that load, the deadline lag, the
   server's peak memory, client and server CPU, and as its last three lines
   ``ratio_304_vs_hello``, ``ratio_full_vs_hello``, ``p99_ms_at_T_tables``.

With ``--sweep`` it adds tables ten at a time instead and prints, as its last lines,
``hello_rps``, ``capacity_tables`` (the largest T whose p99 over the requests not held
stayed under 100 ms with 0 errors), ``tables_per_khello`` (capacity per 1,000 hello
req/s of the same run) and ``moment_p99_ms`` (at T=100: from a day's ballot sent to every
other living phone of its table receiving a view that shows it).
Every measured window also prints each worker's CPU, run-queue wait and connections.

It installs nothing: a missing ``wrk`` stops it with a message.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path

import orjson  # the views' JSON: the stdlib's decoder was 36 % of this client's busy samples at 100 tables

ROOT = Path(__file__).resolve().parents[1]
from werewolf.engine import DEFAULT_LIMITS

OUT = ROOT / "bench" / "out"
BIN = Path(sys.executable).parent
PLAYERS = 18
POLL_EVERY = 1.5
PRESENCE_EVERY = 10.0  # a streaming page's state request, which shows its player is there
PREFER_VIEW = {"Prefer": "return=representation"}  # what the table page sends with act and chat
PREFER_WAIT = "wait=10"  # what the table page asks its polls with (held until the view changes, API.md)
SERVER_HELD = re.compile(r"(?:^|,)\s*held;dur=([\d.]+)")  # Server-Timing: how long a poll was held

# Step limits: the game's own defaults (45-180 s), multiplied by the small time scale
# (--time-scale, 0.4: steps of 3-72 s), each table's drawn within +-30 % of them
# (--jitter): tables that start within the same few seconds with the same limits
# would otherwise time out together, all of them, every step.
SIM_LIMITS = dict(DEFAULT_LIMITS)
# Tables polled by wrk: steps that outlast the whole bench, so nothing changes under it.
QUIET_LIMITS = {step: 3600 for step in SIM_LIMITS}


def die(message: str) -> None:
    print(f"bench/load.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def check_tools() -> None:
    if shutil.which("wrk") is None:
        die("`wrk` is missing. Install it with: apt-get install -y wrk")
    for tool in ("gunicorn", "flask"):
        if not (BIN / tool).exists():
            die(f"`{tool}` is not in {BIN}: run this script with the project's venv "
                "(.venv/bin/python bench/load.py) after `.venv/bin/pip install -e '.[bench]'`")


def open_files(needed: int) -> None:
    """Raise the soft limit of open files to ``needed`` if the hard limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE,
                           (needed if hard == resource.RLIM_INFINITY else min(needed, hard), hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values, p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


# ------------------------------------------------------------------ processes

def children_of(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


def rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class CpuLimit:
    """A cgroup (v1 ``cpu`` or v2) whose processes share at most ``cpus`` cores, in
    periods of 10 ms: a slower machine for the server, on a faster one (needs root)."""

    PERIOD_US = 10_000

    def __init__(self, name: str, cpus: float):
        quota = max(1000, round(cpus * self.PERIOD_US))
        v1 = Path("/sys/fs/cgroup/cpu")
        self.path = (v1 if v1.is_dir() else Path("/sys/fs/cgroup")) / f"werewolf-bench-{name}-{os.getpid()}"
        try:
            self.path.mkdir(exist_ok=True)
            if v1.is_dir():
                (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
                (self.path / "cpu.cfs_quota_us").write_text(str(quota))
            else:
                (self.path / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
        except OSError as exc:
            die(f"--server-cpus needs a writable cgroup ({self.path}): {exc}")

    def wrap(self, cmd: list[str]) -> list[str]:
        """``cmd`` started inside the cgroup (its children, the workers, stay in it)."""
        return ["sh", "-c", f'echo $$ > {self.path / "cgroup.procs"} && exec "$@"', "sh", *cmd]

    def throttled(self) -> str:
        try:
            return " ".join((self.path / "cpu.stat").read_text().split())
        except OSError:
            return ""

    def remove(self) -> None:
        try:
            self.path.rmdir()
        except OSError:
            pass


class Server:
    """A gunicorn master and its workers, started with the project's config file."""

    def __init__(self, name: str, app: str, env: dict, log_path: Path, cpus: float = 0,
                 config: Path = ROOT / "gunicorn.conf.py", tree: Path = ROOT, options: tuple = ()):
        """``options``: gunicorn command-line settings over the config file's."""
        self.name, self.app, self.port, self.config, self.tree = name, app, free_port(), config, tree
        self.options = options
        self.limit = CpuLimit(name, cpus) if cpus else None
        self.env = {**os.environ, **env, "HOST": "127.0.0.1", "PORT": str(self.port), "PYTHONPATH": str(tree)}
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None
        self.peak_total_kb = 0
        self.peak_proc_kb = 0
        self._stop = threading.Event()
        self._sampler: threading.Thread | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.log = open(self.log_path, "w")
        cmd = [str(BIN / "gunicorn"), "--config", str(self.config), *self.options, self.app]
        self.proc = subprocess.Popen(
            self.limit.wrap(cmd) if self.limit else cmd,
            cwd=self.tree, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                die(f"{self.name} server exited at start; see {self.log_path}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            self.stop()
            die(f"{self.name} server did not listen within 30 s; see {self.log_path}")
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()

    def pids(self) -> list[int]:
        return [self.proc.pid, *children_of(self.proc.pid)] if self.proc else []

    def workers(self) -> list[int]:
        return children_of(self.proc.pid) if self.proc else []

    def cpu(self) -> float:
        return sum(cpu_seconds(p) for p in self.pids())

    def _sample(self) -> None:
        while not self._stop.wait(0.25):
            sizes = [rss_kb(p) for p in self.pids()]
            self.peak_total_kb = max(self.peak_total_kb, sum(sizes))
            self.peak_proc_kb = max(self.peak_proc_kb, max(sizes, default=0))

    def stop(self) -> None:
        self._stop.set()
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # the master, by its own pid
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._sampler:
            self._sampler.join(timeout=2)
        if getattr(self, "log", None):
            self.log.close()
        if self.limit:
            self.limit.remove()


# ------------------------------------------------------------------ what each worker does

def schedstat(pid: int) -> tuple[float, int]:
    """The process's threads, summed: seconds runnable but waiting for a CPU, and how many
    times one was put on a CPU (each wake-up: a thread handed the GIL, a socket ready...)."""
    wait = runs = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0, 0
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                fields = f.read().split()
            wait, runs = wait + int(fields[1]), runs + int(fields[2])
        except (OSError, IndexError, ValueError):
            pass
    return wait / 1e9, runs


def established_inodes(port: int) -> set[str]:
    """Socket inodes of the ESTABLISHED TCP connections whose local port is ``port``."""
    inodes = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                        inodes.add(fields[9])
        except (OSError, StopIteration, IndexError, ValueError):
            pass
    return inodes


def connections_of(pid: int, inodes: set[str]) -> int:
    count = 0
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0
    for fd in fds:
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:[") and link[8:-1] in inodes:
            count += 1
    return count


def machine_steal() -> float:
    """CPU seconds the hypervisor took from this machine so far (/proc/stat, steal)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return values[7] / os.sysconf("SC_CLK_TCK")


class WorkerProbe:
    """Per gunicorn worker, over a window: CPU, time runnable but waiting for a CPU, and
    open client connections (sampled every ``every`` s in a thread of this process)."""

    def __init__(self, server: "Server", every: float = 2.0):
        self.server, self.every = server, every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.t0 = time.monotonic()
        self.steal0 = machine_steal()
        self.workers = self.server.workers()
        self.cpu0 = {p: cpu_seconds(p) for p in self.workers}
        self.sched0 = {p: schedstat(p) for p in self.workers}
        self.conns: dict[int, list[int]] = {p: [] for p in self.workers}
        self._stop.clear()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while True:
            inodes = established_inodes(self.server.port)
            for p in self.workers:
                self.conns[p].append(connections_of(p, inodes))
            if self._stop.wait(self.every):
                return

    def stop(self) -> dict:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)
        elapsed = time.monotonic() - self.t0
        out = {"elapsed": elapsed, "steal_pct": 100 * (machine_steal() - self.steal0) / elapsed, "workers": []}
        for p in self.workers:
            c = self.conns[p] or [0]
            wait, runs = schedstat(p)
            out["workers"].append({
                "pid": p, "cpu_pct": 100 * (cpu_seconds(p) - self.cpu0[p]) / elapsed,
                "runq_pct": 100 * (wait - self.sched0[p][0]) / elapsed,
                "runs_per_s": (runs - self.sched0[p][1]) / elapsed,
                "conns_mean": statistics.mean(c), "conns_max": max(c)})
        return out


def cpu_probe_sums(server: "Server") -> dict:
    """bench/cpu_probe.conf.py's sums of the live workers: kind -> [requests, CPU seconds]."""
    sums: dict[str, list] = {}
    for pid in server.workers():
        try:
            lines = (OUT / f"cpu-{pid}.txt").read_text().split("\n")
        except OSError:
            continue
        for line in filter(None, lines):
            kind, n, cpu = line.split("\t")
            item = sums.setdefault(kind, [0, 0.0])
            item[0] += int(n)
            item[1] += float(cpu)
    return sums


def cpu_probe_line(before: dict, after: dict, server_cpu: float) -> str:
    """Per kind of request: how many, CPU per request, share of the server's CPU."""
    parts = []
    for kind in sorted(after):
        n = after[kind][0] - before.get(kind, [0, 0.0])[0]
        cpu = after[kind][1] - before.get(kind, [0, 0.0])[1]
        if n:
            parts.append(f"{kind} {n} x {cpu / n * 1e6:.0f} us ({100 * cpu / max(server_cpu, 1e-9):.0f} %)")
    return "; ".join(parts)


def worker_line(probe: dict) -> str:
    parts = [f"pid {w['pid']}: CPU {w['cpu_pct']:.0f}%, runnable-but-waiting {w['runq_pct']:.0f}%, "
             f"put on a CPU {w['runs_per_s']:.0f}/s, "
             f"connections {w['conns_mean']:.0f} (max {w['conns_max']})" for w in probe["workers"]]
    return "; ".join(parts) + f"; machine steal {probe['steal_pct']:.0f}%"


def pyspy_path() -> str | None:
    """py-spy on the PATH or in the virtualenv (the bench extra), or None."""
    pyspy = shutil.which("py-spy") or str(BIN / "py-spy")
    return pyspy if Path(pyspy).exists() else None


def spy_dumps(server: "Server", count: int, every: float, out: Path) -> None:
    """``count`` py-spy dumps of every worker, ``every`` s apart (without pausing them):
    where each thread is, written to ``out``. Runs in a thread during the measured load."""
    pyspy = pyspy_path()
    with open(out, "w") as f:
        if pyspy is None:
            f.write("py-spy not installed: no dumps\n")
            return
        for _ in range(count):
            for pid in server.workers():
                r = subprocess.run([pyspy, "dump", "--pid", str(pid), "--nonblocking"],
                                   capture_output=True, text=True, timeout=30)
                f.write(f"=== worker {pid} at {time.time():.2f}\n{r.stdout}{r.stderr}\n")
            time.sleep(every)


def summarize_dumps(path: Path, top: int = 12) -> list[str]:
    """Each thread of each dump counted by (state, innermost frame, innermost frame of our code)."""
    from collections import Counter
    counts, threads = Counter(), 0
    block: list[str] = []

    def flush():
        nonlocal threads
        if not block:
            return
        head, frames = block[0], [ln.strip() for ln in block[1:] if ln.strip()]
        state = "idle" if "(idle)" in head else "active"
        inner = frames[0] if frames else "?"
        ours = next((fr for fr in frames if "werewolf/" in fr or "/bench/" in fr), "-")
        counts[(state, inner.split(" (")[0] + " (" + inner.split("(")[-1], ours)] += 1
        threads += 1
        block.clear()

    for line in path.read_text().splitlines():
        if line.startswith("Thread "):
            flush()
            block.append(line)
        elif line.startswith("===") or not line.startswith(" "):
            flush()
        elif block:
            block.append(line)
    flush()
    return [f"{n:4d} / {threads}  {state:<6} {inner}   <- {ours}" for (state, inner, ours), n in counts.most_common(top)]


# ------------------------------------------------------------------ wrk

WRK_LUA = r"""
local reqs = {}
%s
local i = 0
counts = {}
function init(args)
  i = tonumber(args[1] or "0") or 0
end
function request()
  i = i + 1
  if i > #reqs then i = 1 end
  return reqs[i]
end
function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end
local threads = {}
function setup(thread)
  table.insert(threads, thread)
end
function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    local c = t:get("counts")
    for k, v in pairs(c) do total[k] = (total[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(total) do table.insert(parts, k .. "=" .. v) end
  io.write("STATUS " .. table.concat(parts, " ") .. "\n")
end
"""


def lua_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_wrk_script(path: Path, requests: list[tuple[str, dict]]) -> None:
    lines = []
    for n, (url_path, headers) in enumerate(requests, start=1):
        hdrs = ", ".join(f"[{lua_str(k)}] = {lua_str(v)}" for k, v in headers.items())
        lines.append(f"reqs[{n}] = wrk.format(\"GET\", {lua_str(url_path)}, {{{hdrs}}})")
    path.write_text(WRK_LUA % "\n".join(lines))


def run_wrk(base: str, script: Path | None, seconds: float, connections: int, threads: int) -> dict:
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency", "--timeout", "5s"]
    if script:
        cmd += ["-s", str(script)]
    cmd.append(base + "/")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not m:
        die(f"could not read wrk's output:\n{out}")
    result = {"rps": float(m.group(1)), "raw": out,
              "wrk_cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)}
    for q in ("50", "99"):
        mq = re.search(rf"^\s+{q}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if mq:
            scale = {"us": 1e-3, "ms": 1.0, "s": 1e3}[mq.group(2)]
            result[f"p{q}_ms"] = float(mq.group(1)) * scale
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    result["bad"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: (.*)", out)
    result["socket_errors"] = m.group(1).strip() if m else ""
    m = re.search(r"STATUS (.*)", out)
    result["status"] = m.group(1).strip() if m else ""
    m = re.search(r"(\d+) requests in", out)
    result["requests"] = int(m.group(1)) if m else 0
    return result


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, all processes (/proc/stat)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    total = sum(values[:8])
    idle = values[3] + values[4]
    return (total - idle) / tick, total / tick


def saturate(runs: list[tuple], args) -> dict:
    """wrk on each target in turn, ``args.rounds`` times over: background load, if any,
    falls on every target alike. ``runs``: (label, base url, wrk script, server)."""
    for label, base, script, _ in runs:
        run_wrk(base, script, args.warmup, args.connections, args.wrk_threads)  # warm the workers
    per_round = max(1, round(args.sat_seconds / args.rounds))
    results = {label: [] for label, *_ in runs}
    for _ in range(args.rounds):
        for label, base, script, server in runs:
            cpu0 = server.cpu()
            busy0, _total = machine_busy()
            t0 = time.monotonic()
            r = run_wrk(base, script, per_round, args.connections, args.wrk_threads)
            elapsed = time.monotonic() - t0
            r["server_cpu"] = server.cpu() - cpu0
            r["machine_busy"] = machine_busy()[0] - busy0
            r["elapsed"] = elapsed
            results[label].append(r)
    out = {}
    for label, rs in results.items():
        elapsed = sum(r["elapsed"] for r in rs)
        merged = {
            "rps": statistics.mean(r["rps"] for r in rs),
            "rps_rounds": [r["rps"] for r in rs],
            "p50_ms": statistics.median(r.get("p50_ms", float("nan")) for r in rs),
            "p99_ms": max(r.get("p99_ms", float("nan")) for r in rs),
            "status": " ".join(r["status"] for r in rs),
            "socket_errors": " ".join(r["socket_errors"] for r in rs if r["socket_errors"]),
            "server_cpu_pct": 100 * sum(r["server_cpu"] for r in rs) / elapsed,
            "wrk_cpu_pct": 100 * sum(r["wrk_cpu"] for r in rs) / elapsed,
            "machine_pct": 100 * sum(r["machine_busy"] for r in rs) / elapsed,
        }
        out[label] = merged
        print(f"  {label:<22} {merged['rps']:>7.0f} req/s (rounds: "
              f"{', '.join(f'{x:.0f}' for x in merged['rps_rounds'])})   p50 {merged['p50_ms']:6.2f} ms"
              f"   p99 {merged['p99_ms']:6.2f} ms   statuses [{merged['status']}]"
              f"   CPU: server {merged['server_cpu_pct']:.0f}%, wrk {merged['wrk_cpu_pct']:.0f}%,"
              f" whole machine {merged['machine_pct']:.0f}% of {100 * os.cpu_count()}%"
              + (f"   socket errors: {merged['socket_errors']}" if merged["socket_errors"] else ""),
              flush=True)
    return out


# ------------------------------------------------------------------ HTTP client
#
# The simulation's own HTTP/1.1 client, on asyncio.Protocol: one request at a time
# per connection, answers read by Content-Length (gunicorn sends one for every
# answer here; 304 has no body), connections kept alive and reused. Each simulated
# player has its own (like a phone's browser): mostly one, a second one only while
# an act or a message overlaps a poll. It costs a fraction of aiohttp's CPU per
# request, so the load client does not take the CPU it is measuring.

REQUEST_TIMEOUT = 30.0  # seconds per request, connecting included: every request is bounded
IDLE_SHARE = 0.5        # reuse a kept-alive connection idle at most this share of the server's
                        # keepalive, as a browser does: the served tree's gunicorn.conf.py closes
                        # one idle that long (30 s; 5 s in older trees), and one being closed must
                        # not get a request. A phone that opened a new one for each presence
                        # poll (10 s) made gunicorn's gevent workers, which accept one
                        # connection per turn of their loop, queue new connections for up to
                        # 30 s from 80 streaming tables on; a margin of 5 s gave a tree keeping
                        # them 5 s a new connection for every poll.
USER_AGENT = "werewolf-bench-load"  # the same on every request: Flask-Login's session protection
HEADER = re.compile(r"^([^:\r\n]+):[ \t]*(.*?)[ \t]*\r?$", re.M)  # "Name: value" in an answer's head


class HTTPError(Exception):
    """The exchange broke (the server closed the connection, a malformed answer):
    counted as a transport error."""


class ServerDisconnected(HTTPError):
    pass


class UnsupportedResponse(Exception):
    """An answer this client does not read (chunked): the bench stops, loudly."""


class Deadlines:
    """The requests in flight and their deadlines, checked every ``TICK`` seconds by one
    timer: a timer per request would cost more than the request (asyncio's timer heap)."""

    TICK = 0.25
    current: "Deadlines | None" = None  # the running loop's

    def __init__(self, loop):
        self.loop = loop
        self.inflight: dict[Connection, float] = {}
        loop.call_later(self.TICK, self.check)

    def check(self) -> None:
        if self.loop.is_closed():
            return
        now = self.loop.time()
        for conn, deadline in list(self.inflight.items()):
            if now >= deadline:
                conn.expire()
        self.loop.call_later(self.TICK, self.check)

    @classmethod
    def of(cls, loop) -> "Deadlines":
        if cls.current is None or cls.current.loop is not loop:
            cls.current = cls(loop)
        return cls.current


class Connection(asyncio.Protocol):
    """One HTTP/1.1 connection; ``exchange`` sends a request and waits for its answer."""

    def __init__(self):
        self.transport = None
        self.closed = False
        self.buf = bytearray()
        self.waiter: asyncio.Future | None = None
        self.deadlines: Deadlines | None = None
        self.timeout = 0.0
        self.method = "GET"
        self.head: tuple | None = None  # (status, headers, set-cookie lines, keep-alive)
        self.length = 0                 # body bytes announced; -1: until the server closes
        self.received = False           # a byte of the answer arrived
        self.idle_since = 0.0

    def connection_made(self, transport) -> None:
        self.transport = transport

    def connection_lost(self, exc) -> None:
        self.closed = True
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            if self.head is not None and self.length < 0:  # a body that ends with the connection
                self._answer(bytes(self.buf))
            else:
                waiter.set_exception(ServerDisconnected(
                    "the server closed the connection" + (f": {exc}" if exc else "")))

    def data_received(self, data: bytes) -> None:
        waiter = self.waiter
        if waiter is None or waiter.done():  # nothing was asked
            self.close(abort=True)
            return
        self.received = True
        try:
            if self.buf or self.head is not None:
                self.buf += data
                self._parse(self.buf)
            else:  # usually the whole answer in one piece: no copy
                rest = self._parse(data)
                if rest is not None:
                    self.buf += rest
        except (HTTPError, UnsupportedResponse) as exc:
            if not waiter.done():
                waiter.set_exception(exc)
            self.close(abort=True)

    def _parse(self, buf):
        """Read the answer from ``buf`` (``self.buf``, or bytes just received); returns
        what is left of bytes that do not make a whole answer yet."""
        start = 0
        while self.head is None:
            end = buf.find(b"\r\n\r\n", start)
            if end < 0:
                if len(buf) - start > 65536:
                    raise HTTPError("answer head over 64 KiB")
                return self._rest(buf, start)
            head = buf[start:end].decode("latin-1")
            start = end + 4
            line, _, fields = head.partition("\r\n")
            version, _, rest = line.partition(" ")
            try:
                status = int(rest[:3])
            except ValueError:
                raise HTTPError(f"bad status line {line[:80]!r}") from None
            if 100 <= status < 200:  # an interim answer: the real one follows
                continue
            headers, cookies = {}, []
            for name, value in HEADER.findall(fields):
                name = name.lower()
                if name == "set-cookie":
                    cookies.append(value)
                else:
                    headers[name] = value
            if "transfer-encoding" in headers:
                raise UnsupportedResponse(
                    f"Transfer-Encoding: {headers['transfer-encoding']} in a {status} answer: "
                    "bench/load.py's client reads Content-Length bodies only")
            connection = headers.get("connection", "").lower()
            keep = "close" not in connection if version == "HTTP/1.1" else "keep-alive" in connection
            if status in (204, 304) or self.method == "HEAD":
                length = 0
            elif "content-length" in headers:
                try:
                    length = int(headers["content-length"])
                except ValueError:
                    raise HTTPError(f"bad Content-Length {headers['content-length']!r}") from None
            else:  # no length: the body ends when the server closes
                length, keep = -1, False
            self.head, self.length = (status, headers, cookies, keep), length
        if self.length < 0 or len(buf) - start < self.length:
            return self._rest(buf, start)
        end = start + self.length
        extra = len(buf) > end
        self._answer(bytes(buf[start:end]))
        if extra:  # bytes nobody asked for: do not reuse
            self.close(abort=True)
        return None

    def _rest(self, buf, start: int):
        if buf is self.buf:
            del buf[:start]
            return None
        return buf[start:]

    def _answer(self, body: bytes) -> None:
        status, headers, cookies, keep = self.head
        self.head = None
        self.buf.clear()
        self.deadlines.inflight.pop(self, None)
        if not self.waiter.done():
            self.waiter.set_result((status, headers, cookies, body, keep))

    def expire(self) -> None:
        self.deadlines.inflight.pop(self, None)
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_exception(TimeoutError(f"no answer within {self.timeout:.1f} s"))
        self.close(abort=True)

    async def exchange(self, method: str, data: bytes, timeout: float) -> tuple:
        """Send one request; (status, headers by lower-case name, set-cookie lines, body,
        keep-alive). A ``TimeoutError`` after ``timeout`` seconds (within ``Deadlines.TICK``)."""
        self.received = False
        if self.transport.is_closing():
            raise ServerDisconnected("the connection was closing")
        loop = asyncio.get_running_loop()
        if self.deadlines is None:
            self.deadlines = Deadlines.of(loop)
        self.waiter = waiter = loop.create_future()
        self.method, self.head, self.timeout = method, None, timeout
        self.buf.clear()
        self.deadlines.inflight[self] = loop.time() + timeout
        self.transport.write(data)
        try:
            return await waiter
        except BaseException:
            self.close(abort=True)  # its answer may still come: never reuse it
            raise
        finally:
            self.deadlines.inflight.pop(self, None)
            self.waiter = None

    def close(self, abort: bool = False) -> None:
        self.closed = True
        if self.transport is not None:
            if abort:
                self.transport.abort()
            else:
                self.transport.close()


class Client:
    """One browser's connections to the server: kept alive, one request at a time each."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.host_header = f"Host: {host}:{port}"
        self.idle: list[Connection] = []

    reuse_within: float  # seconds, set by reuse_as before any request

    @classmethod
    def reuse_as(cls, config: Path) -> None:
        """Reuse connections as the served gunicorn config keeps them (its ``keepalive``; gunicorn's
        default, 2 s, without one), for IDLE_SHARE of it."""
        found = re.search(r"^keepalive\s*=\s*([0-9.]+)", config.read_text(), re.M)
        cls.reuse_within = (float(found.group(1)) if found else 2.0) * IDLE_SHARE

    def _idle_connection(self, now: float) -> Connection | None:
        while self.idle:
            conn = self.idle.pop()  # the most recently used first
            if not conn.closed and now - conn.idle_since < self.reuse_within:
                return conn
            conn.close()
        return None

    async def _connect(self, timeout: float) -> Connection:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(max(timeout, 0.0)):
            _, conn = await loop.create_connection(Connection, self.host, self.port)
        return conn

    async def request(self, method: str, data: bytes) -> tuple:
        """Send ``data`` (a whole request); see ``Connection.exchange`` for the result."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REQUEST_TIMEOUT
        conn = self._idle_connection(loop.time())
        answer = None
        if conn is not None:
            try:
                answer = await conn.exchange(method, data, deadline - loop.time())
            except ServerDisconnected:
                # The server closed this kept-alive connection as the request went out:
                # an idempotent request is sent again on a new one, once, as aiohttp
                # and browsers do (RFC 9112, 9.3.1).
                if method != "GET" or conn.received:
                    raise
        if answer is None:
            conn = await self._connect(deadline - loop.time())
            answer = await conn.exchange(method, data, deadline - loop.time())
        if answer[4] and not conn.closed:
            conn.idle_since = loop.time()
            self.idle.append(conn)
        else:
            conn.close()
        return answer

    def close(self) -> None:
        for conn in self.idle:
            conn.close()
        self.idle.clear()


class Account:
    """A user: one cookie jar and CSRF token for all its seats; its own connections for setup."""

    def __init__(self, name: str, client: Client):
        self.name, self.client, self.csrf = name, client, ""
        self.cookies: dict[str, str] = {}
        self.cookie = ""  # the Cookie header it sends

    def set_cookies(self, lines: list[str]) -> None:
        """Apply Set-Cookie lines (all of this server's cookies have Path=/)."""
        for line in lines:
            pair, _, attrs = line.partition(";")
            name, _, value = pair.partition("=")
            name, value = name.strip(), value.strip()
            expired = not value
            for attr in attrs.split(";"):
                key, _, val = attr.partition("=")
                key = key.strip().lower()
                try:
                    if key == "max-age":
                        expired = expired or int(val) <= 0
                    elif key == "expires":
                        expired = expired or parsedate_to_datetime(val.strip()).timestamp() <= time.time()
                except (TypeError, ValueError):
                    pass
            if expired:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        self.cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())


class Stats:
    def __init__(self):
        self.measuring = False
        self.lat = {"poll": [], "act": [], "chat": [], "lobby": [], "held": []}  # held: polls the server held
        self.codes: dict[str, dict[int, int]] = {k: {} for k in self.lat}
        self.errors: list[str] = []        # transport errors, timeouts, 5xx, unexpected statuses
        self.refused: dict[str, int] = {}  # 4xx from the rules (the step moved on, ...)
        self.visible_lag: list[float] = []    # deadline -> a player sees the next step (poll cadence included)
        self.served_lag: list[float] = []     # first poll sent after the deadline -> it shows the next step
        self.advance_lag: dict[tuple, float] = {}  # per (table, step seq): next step's start - deadline
        self.steps_by_deadline = 0
        self.steps_early = 0
        self.games_started = 0
        self.games_ended = 0
        self.bytes_full = []
        self.held_polls = 0      # polls the server held (answered with Server-Timing: held)
        self.held_seconds = 0.0  # their time held, which the latencies leave out
        self.streamed = 0        # views received on streams
        self.moments: list[float] = []  # a day's act -> every other living phone of its table shows it, s
        self.loop_lag: list[float] = []  # this client's event loop: how late a 50 ms timer fired, s
        self.timeline: list[tuple] = []  # (sent, perf_counter s; latency ms; kind; status): the bursts
        self.views_at: list[float] = []  # when each view streamed came (perf_counter s): the bursts' load

    def record(self, kind: str, seconds: float, status: int, sent: float = 0.0) -> None:
        if self.measuring:
            self.lat[kind].append(seconds * 1000)
            self.timeline.append((sent, seconds * 1000, kind, status))
            self.codes[kind][status] = self.codes[kind].get(status, 0) + 1

    def error(self, what: str) -> None:
        if self.measuring:
            self.errors.append(what)


async def call(stats: Stats, account: Account, client: Client, method: str, path: str, kind: str,
               body=None, headers=None, ok=(200, 201), want_body=True):
    """One request on ``client`` (a player's or an account's connections), with ``account``'s
    cookies and, unless a GET, its CSRF token; returns (status, json or None, response
    headers by lower-case name, body size). The JSON body is parsed if ``want_body``, and
    for a 4xx (its error code is counted)."""
    lines = [f"{method} {path} HTTP/1.1", client.host_header, f"User-Agent: {USER_AGENT}", "Accept: */*"]
    if account.cookie:
        lines.append(f"Cookie: {account.cookie}")
    if headers:
        lines.extend(f"{k}: {v}" for k, v in headers.items())
    payload = b""
    if method != "GET":
        lines.append(f"X-CSRFToken: {account.csrf}")
        if body is not None:
            payload = json.dumps(body).encode()
            lines.append("Content-Type: application/json")
        lines.append(f"Content-Length: {len(payload)}")
    data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload
    t0 = time.perf_counter()
    try:
        status, rh, cookies, raw, _ = await client.request(method, data)
        held = SERVER_HELD.search(rh.get("server-timing", ""))
    except UnsupportedResponse as exc:
        die(f"{method} {path}: {exc}")
    except (HTTPError, OSError) as exc:  # OSError includes TimeoutError
        stats.record(kind, time.perf_counter() - t0, 0, t0)
        stats.error(f"{method} {kind} -> {type(exc).__name__}: {exc}")
        return 0, {"transport_error": f"{type(exc).__name__}: {exc}"}, {}, 0
    took = time.perf_counter() - t0
    if held is not None:
        # A held poll waited on purpose: its latency is the rest, the time it took to be
        # answered once its table moved (or its wait ended), queueing included.
        held_for = float(held.group(1)) / 1000
        took = max(0.0, took - held_for)
        if stats.measuring:
            stats.held_polls += 1
            stats.held_seconds += held_for
    stats.record("held" if held is not None else kind, took, status, t0)
    if cookies:
        account.set_cookies(cookies)
    data = None
    if raw and (want_body or status >= 400) \
            and rh.get("content-type", "").partition(";")[0].strip().lower() == "application/json":
        data = orjson.loads(raw)
    if status >= 500 or (status not in ok and not 400 <= status < 500):
        stats.error(f"{method} {kind} -> {status}")
    elif status >= 400:
        code = (data or {}).get("error", {}).get("code", str(status)) if isinstance(data, dict) else str(status)
        if stats.measuring:
            stats.refused[f"{kind}:{code}"] = stats.refused.get(f"{kind}:{code}", 0) + 1
    return status, data, rh, len(raw)


class SetupFailed(Exception):
    """A table could not be set up: the run stops (a sweep past its capacity ends there)."""


async def must(stats, account, method, path, body=None, ok=(200, 201)):
    status, data, headers, _ = await call(stats, account, account.client, method, path, "lobby",
                                          body=body, ok=ok)
    if status not in ok:
        raise SetupFailed(f"setup request {method} {path} as {account.name} failed: {status} {data}")
    return data


async def make_accounts(host: str, port: int, count: int, prefix: str, stats: Stats) -> list[Account]:
    # Registering hashes a password (~0.1 s of CPU) and, as the app stands, does it
    # while holding SQLite's write lock: concurrent registrations only wait for each
    # other (seconds, unfairly, up to "database is locked"). One at a time.
    sem = asyncio.Semaphore(1)

    async def one(i: int) -> Account:
        account = Account(f"{prefix}{i:04d}", Client(host, port))
        async with sem:
            me = await must(stats, account, "GET", "/api/me")
            account.csrf = me["csrf_token"]
            data = await must(stats, account, "POST", "/api/auth/register",
                              {"name": account.name, "password": "bench-password"})
            account.csrf = data.get("csrf_token") or account.csrf
        return account

    return await asyncio.gather(*(one(i) for i in range(count)))


async def make_table(stats: Stats, seats: list[Account], limits: dict, name: str) -> str:
    host = seats[0]
    data = await must(stats, host, "POST", "/api/tables", {"name": name})
    table_id = data["table"]["id"]
    for account in seats[1:]:  # in order: seat numbers follow join order
        await must(stats, account, "POST", f"/api/tables/{table_id}/join")
    known = data["table"]["settings"]["limits"]  # an older tree (--tree) knows fewer steps
    await must(stats, host, "PATCH", f"/api/tables/{table_id}/settings",
               {"limits": {step: limit for step, limit in limits.items() if step in known}})
    await must(stats, host, "POST", f"/api/tables/{table_id}/start")
    stats.games_started += 1
    return table_id


def parse_iso(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


async def open_stream(reader, writer, host: str, table_id: str, cookie: str, last_event_id: str | None = None) -> str:
    """Ask for the table's stream of views (``GET /events``) on an open connection; the
    response's head."""
    lines = [f"GET /api/tables/{table_id}/events HTTP/1.1", f"Host: {host}", f"User-Agent: {USER_AGENT}",
             "Accept: text/event-stream", f"Cookie: {cookie}"]
    if last_event_id:
        lines.append(f"Last-Event-ID: {last_event_id}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    return (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")


async def stream_events(reader):
    """Each Server-Sent Event of a chunked body, as a dict of its fields, until the server ends it."""
    pending = b""
    while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
        pending += (await reader.readexactly(size + 2))[:-2]
        *whole, pending = pending.split(b"\n\n")
        for event in whole:
            yield dict(line.split(b": ", 1) for line in event.split(b"\n"))


class Player:
    """One seat at one table: polls, acts on its prompt, chats now and then."""

    def __init__(self, sim, table_id: str, account: Account, is_host: bool, rng: random.Random):
        self.sim, self.table_id, self.account, self.is_host, self.rng = sim, table_id, account, is_host, rng
        self.client = Client(sim.host, sim.port)  # this player's own connection(s), like a phone's browser
        self.etag: str | None = None
        self.view: dict | None = None
        self.step: tuple | None = None          # (seq, id, deadline POSIX)
        self.first_send_after_deadline: float | None = None
        self.handled: set = set()               # (step seq, action) already decided on
        self.busy = False
        self.restarting = False
        self.polling = False
        self.poll_stale = False  # a write showed a view newer than the poll under way may bring
        self.server_holds = False  # the last poll's answer said Preference-Applied
        self.poll_now = asyncio.Event()

    async def run(self, start_at: float) -> None:
        """Take my views as the table page does (static/js/table.js): from a stream, or
        (``--transport poll``, the page's fallback) by polling."""
        self.sim.spawn(self.chats(start_at))
        if self.sim.args.transport == "stream":
            await self.listen(start_at)
        else:
            await self.run_polls(start_at)

    async def listen(self, start_at: float) -> None:
        """One stream after another (the server ends each after a while, as EventSource
        reconnects: with the last view's ETag as Last-Event-ID), until the load stops."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, start_at - loop.time()))
        stats = self.sim.stats
        self.sim.spawn(self.presence_polls())
        while loop.time() < self.sim.stop_at:
            try:
                await asyncio.wait_for(self.stream_once(), max(0.0, self.sim.stop_at - loop.time()))
            except TimeoutError:
                return  # the load stopped
            except (HTTPError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                stats.error(f"GET stream -> {type(exc).__name__}: {exc}")
            await asyncio.sleep(1.0)  # the retry the server asks for

    async def stream_once(self) -> None:
        sim, stats = self.sim, self.sim.stats
        t0 = time.perf_counter()
        reader, writer = await asyncio.open_connection(sim.host, sim.port)
        try:
            head = await open_stream(reader, writer, f"{sim.host}:{sim.port}", self.table_id, self.account.cookie,
                                     self.etag.strip('"') if self.etag else None)
            status = int(head[9:12])
            stats.record("poll", time.perf_counter() - t0, status, t0)  # the stream's opening: not held
            if status != 200 or "chunked" not in head.lower():
                stats.error(f"GET stream -> {status}")
                return
            async for event in stream_events(reader):
                if asyncio.get_running_loop().time() >= sim.stop_at:
                    return  # the load stopped (a sweep's end: its streams had no time limit); a beat comes every 5 s
                self.on_event(event, time.time())
        finally:
            writer.close()

    async def presence_polls(self) -> None:
        """What the page sends while it streams: its state, not held, every PRESENCE_EVERY."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(self.rng.uniform(0, PRESENCE_EVERY))
        while loop.time() < self.sim.stop_at:
            if self.etag:
                await call(self.sim.stats, self.account, self.client, "GET", f"/api/tables/{self.table_id}/state",
                           "poll", headers={"If-None-Match": self.etag}, ok=(200, 304), want_body=False)
            await asyncio.sleep(PRESENCE_EVERY)

    def on_event(self, event: dict, t_recv: float) -> None:
        if event.get(b"event") != b"state":
            return  # the retry, a heartbeat
        etag = '"%s"' % event[b"id"].decode()
        if etag == self.etag:
            return  # the view a write's answer gave me
        stats = self.sim.stats
        if stats.measuring:
            stats.bytes_full.append(len(event[b"data"]))
            stats.streamed += 1
            stats.views_at.append(time.perf_counter())
        self.etag = etag
        self.took_view(orjson.loads(event[b"data"]), t_recv)

    async def run_polls(self, start_at: float) -> None:
        """Poll as the table page does without a stream: a poll the server holds
        (Preference-Applied) is followed by the next one at once, but never sooner than
        POLL_EVERY after the last one left; otherwise every POLL_EVERY. A write's answer
        (``poll_soon``) sends the next poll at once."""
        loop = asyncio.get_running_loop()
        next_poll = start_at
        while True:
            delay = next_poll - loop.time()
            if delay > 0:
                try:
                    await asyncio.wait_for(self.poll_now.wait(), delay)
                except TimeoutError:
                    pass
            self.poll_now.clear()
            if loop.time() >= self.sim.stop_at:
                return
            started = loop.time()
            held = await self.poll()
            if self.poll_stale:  # asked before a write whose view I took: again, with its ETag
                next_poll = loop.time()
            elif held:
                next_poll = max(loop.time(), started + self.sim.args.held_gap)
            else:
                next_poll = started + POLL_EVERY
                if next_poll < loop.time():  # fell behind: do not burst to catch up
                    next_poll = loop.time() + POLL_EVERY

    def poll_soon(self) -> None:
        """After a write whose view I took: with a server that holds polls, poll at once
        with its ETag, or when the poll under way answers (then anew); otherwise at the
        usual time, as the page does."""
        if not self.server_holds:
            return
        if self.polling:
            self.poll_stale = True
        else:
            self.poll_now.set()

    async def poll(self) -> bool:
        """One poll; True if the server holds polls (it answered with Preference-Applied)."""
        stats = self.sim.stats
        t_send = time.time()
        if self.step and self.first_send_after_deadline is None and t_send >= self.step[2]:
            self.first_send_after_deadline = t_send
        headers = {"Prefer": PREFER_WAIT}
        if self.etag:
            headers["If-None-Match"] = self.etag
        self.polling, self.poll_stale = True, False
        try:
            status, view, rh, size = await call(stats, self.account, self.client, "GET",
                                                f"/api/tables/{self.table_id}/state", "poll",
                                                headers=headers, ok=(200, 304))
        finally:
            self.polling = False
        held = self.server_holds = "preference-applied" in rh
        t_recv = time.time()
        if status == 304 or status != 200 or not isinstance(view, dict) or self.poll_stale:
            return held
        if stats.measuring:
            stats.bytes_full.append(size)
        self.etag = rh.get("etag")
        self.took_view(view, t_recv)
        return held

    def took_view(self, view: dict, t_recv: float) -> None:
        """A new view from the server: a poll's, the stream's, or the answer to my write."""
        self.sim.shown(self.table_id, view, t_recv)
        self.take(view, t_recv)

    async def chats(self, start_at: float) -> None:
        """A message now and then while my view lets me write: one every ``--chat-every``
        seconds on average (a Poisson process), however often views come. Drawn at each view,
        a stream's bursts of views made bursts of messages, and those more views."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, start_at - loop.time()))
        while True:
            await asyncio.sleep(self.rng.expovariate(1 / self.sim.args.chat_every))
            if loop.time() >= self.sim.stop_at:
                return
            channel = ((self.view or {}).get("channels") or {}).get("write")
            if channel:
                self.sim.spawn(self.chat(channel))

    def take(self, view: dict, t_recv: float) -> None:
        """A new view of mine (a poll's, or the one an act or a message answered with)."""
        self.view = view
        self.on_step(view, t_recv)
        if view.get("table", {}).get("status") == "ended" or view.get("status") == "ended":
            if self.is_host and not self.restarting:
                self.restarting = True
                self.sim.spawn(self.restart())
            return
        prompt = view.get("prompt")
        if prompt and not self.busy and self.prompt_key(prompt) not in self.handled:
            self.busy = True
            self.sim.spawn(self.act(prompt))

    @staticmethod
    def prompt_key(prompt: dict) -> tuple:
        return prompt.get("step"), tuple(a["action"] for a in prompt.get("actions") or [])

    def on_step(self, view: dict, t_recv: float) -> None:
        stats, step = self.sim.stats, view.get("step")
        if not step:
            if view.get("status") == "ended" and self.step is not None:
                self.step = None
            return
        seq, deadline = step["seq"], parse_iso(step["deadline"])
        old = self.step
        if old and seq == old[0] + 1:
            limit = self.sim.limits[self.table_id][step["id"]] * self.sim.time_scale
            start = deadline - limit  # when the server began this step
            if start >= old[2] - 0.002:  # the previous step ended by its deadline
                stats.visible_lag.append(t_recv - old[2])
                since = self.first_send_after_deadline or old[2]
                stats.served_lag.append(t_recv - since)
                key = (self.table_id, seq)
                if key not in stats.advance_lag and stats.measuring:
                    stats.advance_lag[key] = start - old[2]
                    stats.steps_by_deadline += 1
            elif self.is_host and stats.measuring:
                stats.steps_early += 1
        if old is None or seq != old[0]:
            self.step = (seq, step["id"], deadline)
            self.first_send_after_deadline = None

    async def act(self, prompt: dict) -> None:
        try:
            step_seq, actions = prompt.get("step"), prompt.get("actions") or []
            if self.prompt_key(prompt) in self.handled:
                return
            self.handled.add(self.prompt_key(prompt))
            if self.rng.random() < self.sim.args.idle:
                return  # this player lets the step run out
            await asyncio.sleep(self.rng.uniform(0.3, self.sim.args.max_think))
            for body in self.choose(actions, step_seq):
                await self.write(f"/api/tables/{self.table_id}/act", "act", body)
        finally:
            self.busy = False
        if self.view is not None and not self.busy:  # a prompt the act's answer showed (the next poll: 304)
            self.take(self.view, time.time())

    def choose(self, actions: list[dict], step_seq) -> list[dict]:
        rng, by_name = self.rng, {a["action"]: a for a in actions}
        if "witch.done" in by_name:
            out = []
            if "witch.save" in by_name and rng.random() < 0.5:
                out.append({"action": "witch.save", "step": step_seq})
            if "witch.poison" in by_name and rng.random() < 0.2:
                out.append({"action": "witch.poison", "target": rng.choice(by_name["witch.poison"]["choices"]),
                            "step": step_seq})
            return out + [{"action": "witch.done", "step": step_seq}]
        spec = actions[0]
        body = {"action": spec["action"], "step": step_seq}
        choices = spec.get("choices")
        if spec.get("count"):
            body["targets"] = rng.sample(choices, spec["count"])
        elif choices:
            if spec["action"] in ("werewolves.designate", "vote.cast", "election.vote") and rng.random() < 0.7:
                # most players follow the table's mood, so some steps end early
                mood = random.Random(f"{self.table_id}:{step_seq}")
                body["target"] = mood.choice(choices)
            else:
                body["target"] = rng.choice(choices)
        return [body]

    async def chat(self, channel: str) -> None:
        text = self.rng.choice(["Bonjour !", "Je soupçonne quelqu'un…", "Pas moi !",
                                "On vote ?", "Hmm.", "C'est louche."])
        await self.write(f"/api/tables/{self.table_id}/chat", "chat", {"channel": channel, "text": text})

    async def write(self, path: str, kind: str, body: dict) -> None:
        """An act or a message as the table page sends it: asking for my view back (Prefer,
        API.md), whose ETag my next poll sends, so that it is held if nothing else moved."""
        sent, view = time.time(), self.view or {}
        moment = None
        if body.get("action") in Moment.BALLOTS and "day" in (view.get("step") or {}) and view.get("me"):
            others = {p["seat"] for p in view["players"] if p["alive"]} - {view["me"]["seat"]}
            moment = Moment(sent, others, view["me"]["seat"], body.get("target"), body["step"])
            self.sim.pending_moments.setdefault(self.table_id, []).append(moment)  # before: a phone may show it first
        status, answer, _, _ = await call(self.sim.stats, self.account, self.client, "POST", path, kind,
                                          body=body, headers=PREFER_VIEW, ok=(200, 201))
        if moment is not None:
            moment.accepted = status == 200  # a refused ballot is no moment, even if the step moved on
            self.sim.settle(self.table_id, moment, time.time())
        if status in (200, 201) and isinstance(answer, dict) and answer.get("etag"):
            self.etag = answer["etag"]
            self.took_view(answer["view"], time.time())  # it may show another's ballot first
        self.poll_soon()

    async def restart(self) -> None:
        """The host brings the ended table back and starts a new game."""
        try:
            sim = self.sim
            sim.stats.games_ended += 1
            await asyncio.sleep(1.0)
            status, *_ = await call(sim.stats, self.account, self.client, "POST",
                                    f"/api/tables/{self.table_id}/reopen", "lobby", want_body=False)
            if status == 200:
                status, *_ = await call(sim.stats, self.account, self.client, "POST",
                                        f"/api/tables/{self.table_id}/start", "lobby", want_body=False)
                if status == 200:
                    sim.stats.games_started += 1
        finally:
            self.restarting = False


class Moment:
    """A day's ballot, from the moment it is sent until every other living phone of its
    table has a view that shows it: the ballot among the votes (a round open to all, as
    the bench's tables play), or the step over (this ballot may have ended it). A phone's
    view may show it before the voter's own answer comes back."""
    BALLOTS = ("vote.cast", "election.vote")

    def __init__(self, sent: float, others: set, voter: int, target, step_seq):
        self.sent, self.others, self.voter, self.target, self.step_seq = sent, others, str(voter), target, step_seq
        self.slowest = 0.0
        self.accepted: bool | None = None  # until the voter's answer comes

    def shown_in(self, view: dict) -> bool:
        seq = (view.get("step") or {}).get("seq")
        return seq is None or seq > self.step_seq or (view.get("votes") or {}).get(self.voter) == self.target


class Sim:
    def __init__(self, host: str, port: int, args, time_scale: float):
        self.host, self.port, self.args, self.time_scale = host, port, args, time_scale
        self.limits: dict[str, dict] = {}  # table id -> its step limits
        self.stats = Stats()
        self.tasks: set = set()  # acts, chat and restarts under way
        self.players: list[Player] = []
        self.pending_moments: dict[str, list[Moment]] = {}  # by table
        self.player_tasks: list[asyncio.Task] = []
        self.stop_at = float("inf")  # the players stop polling then
        self.rng = random.Random(args.seed)
        self.jitter = random.Random(args.seed + 1)

    async def watch_loop(self, every: float = 0.05) -> None:
        """How late this process's event loop runs a timer: the client's own queueing,
        which every latency it measures includes."""
        loop = asyncio.get_running_loop()
        while loop.time() < self.stop_at:
            t0 = loop.time()
            await asyncio.sleep(every)
            if self.stats.measuring:
                self.stats.loop_lag.append(loop.time() - t0 - every)

    def shown(self, table_id: str, view: dict, t_recv: float) -> None:
        """A phone of ``table_id`` received a new view: the ballots it shows are seen by one more."""
        seat = (view.get("me") or {}).get("seat")
        for moment in list(self.pending_moments.get(table_id) or []):
            if seat in moment.others and moment.shown_in(view):
                moment.others.discard(seat)
                moment.slowest = max(moment.slowest, t_recv - moment.sent)
            self.settle(table_id, moment, t_recv)

    def settle(self, table_id: str, moment: Moment, now: float) -> None:
        """Counted once every phone shows it and its ballot was accepted; dropped if refused,
        or if a phone never shows it."""
        done = moment.accepted is False or now - moment.sent > 10 or (moment.accepted and not moment.others)
        if done and moment in self.pending_moments[table_id]:
            self.pending_moments[table_id].remove(moment)
            if moment.accepted and not moment.others and self.stats.measuring:
                self.stats.moments.append(moment.slowest)

    def spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def stop(self) -> None:
        """Let the moves under way finish for a moment, then cancel what is left."""
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=3)
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=3)


# ------------------------------------------------------------------ the run

async def setup_and_saturate(args, server: Server, hello_env: dict, report: dict) -> None:
    base, host, port = server.base, "127.0.0.1", server.port
    stats = Stats()
    groups = max(1, min(args.account_groups, args.tables))
    t0 = time.monotonic()
    accounts = await make_accounts(host, port, PLAYERS * groups, "bench", stats)
    print(f"  registered {len(accounts)} accounts in {time.monotonic() - t0:.1f} s", flush=True)

    # -- quiet tables for the saturation runs: nothing changes under wrk
    quiet_accounts = accounts[:PLAYERS]
    quiet_ids = [await make_table(stats, quiet_accounts, QUIET_LIMITS, f"quiet {k}")
                 for k in range(args.quiet_tables)]
    players = [(tid, acc) for tid in quiet_ids for acc in quiet_accounts]

    async def snapshot() -> list[tuple[str, str, str, int]]:
        out = []
        for tid, acc in players:
            status, view, rh, size = await call(stats, acc, acc.client, "GET", f"/api/tables/{tid}/state", "poll")
            if status != 200:
                die(f"state poll failed during setup: {status} {view}")
            out.append((tid, acc.cookie, rh["etag"], size))
        return out

    def script(snap, conditional: bool, name: str) -> Path:
        reqs = []
        for tid, cookie, etag, _ in snap:
            headers = {"Cookie": cookie, "Accept": "application/json"}
            if conditional:
                headers["If-None-Match"] = etag
            reqs.append((f"/api/tables/{tid}/state", headers))
        path = OUT / name
        write_wrk_script(path, reqs)
        return path

    print(f"saturation runs (wrk -t{args.wrk_threads} -c{args.connections}, {args.rounds} rounds of "
          f"{max(1, round(args.sat_seconds / args.rounds))} s per target, after {args.warmup:g} s of warm-up):",
          flush=True)
    hello = Server("hello", "bench.hello:app", hello_env, OUT / "hello-server.log", args.server_cpus,
                   args.tree / "gunicorn.conf.py", server.tree)
    # The same hello on gunicorn's threaded worker (a thread per wrk connection): a reference
    # that does not move with the project's choice of worker class.
    stock = Server("hello-gthread", "bench.hello:app", hello_env, OUT / "hello-gthread-server.log",
                   args.server_cpus, args.tree / "gunicorn.conf.py", server.tree,
                   ("--worker-class", "gthread", "--threads", str(args.connections)))
    hello.start()
    stock.start()
    try:
        snap = await snapshot()
        report["full_bytes"] = statistics.mean(s[3] for s in snap)
        s304, sfull = script(snap, True, "304.lua"), script(snap, False, "full.lua")
        sat = saturate([("hello world", hello.base, None, hello),
                        ("hello world, gthread", stock.base, None, stock),
                        ("state poll, 304", base, s304, server),
                        ("state poll, full view", base, sfull, server)], args)
    finally:
        hello.stop()
        stock.stop()
    report["hello"], report["hello_gthread"], report["304"], report["full"] = \
        sat["hello world"], sat["hello world, gthread"], sat["state poll, 304"], sat["state poll, full view"]
    if args.profile:
        report["profile"] = profile_during(server, base, s304, sfull, args)

    # -- the T-table game simulation
    sim = Sim(host, port, args, args.time_scale)
    sim.stats = stats
    sim.accounts, sim.groups, sim.setup_stats = accounts, groups, stats
    if args.sweep:
        await sweep(sim, server, report)
    else:
        await simulate(sim, server, report)
    for account in accounts:
        account.client.close()


async def add_tables(sim: "Sim", count: int) -> None:
    """Create, set up and start ``count`` more tables, and start their players polling."""
    args, stats, groups, accounts = sim.args, sim.setup_stats, sim.groups, sim.accounts
    first = len(sim.limits)
    # A host may have one waiting table at a time: tables of one group set up together
    # are hosted by different players of the group.
    table_accounts = []
    for j in range(first, first + count):
        group, k = accounts[(j % groups) * PLAYERS:(j % groups + 1) * PLAYERS], (j // groups) % PLAYERS
        table_accounts.append(group[k:] + group[:k])
    print(f"simulation: creating {count} tables of {PLAYERS} players ({len(accounts)} accounts, "
          f"each seated at up to {-(-(first + count) // groups)} tables)…", flush=True)
    t0 = time.monotonic()
    sem = asyncio.Semaphore(8)
    # --jitter J: each table's limits drawn in [1-J, 1+J] x SIM_LIMITS, so that tables
    # started in the same few seconds do not keep timing out together.
    table_limits = [{step: max(1, round(limit * sim.jitter.uniform(1 - args.jitter, 1 + args.jitter)))
                     for step, limit in SIM_LIMITS.items()} for _ in range(count)]

    async def one_table(j):
        async with sem:
            table_id = await make_table(stats, table_accounts[j], table_limits[j], f"table {first + j}")
            sim.limits[table_id] = table_limits[j]
            return table_id

    table_ids = await asyncio.gather(*(one_table(j) for j in range(count)))
    print(f"  {count} tables created, joined, set up and started in {time.monotonic() - t0:.1f} s",
          flush=True)
    for account in accounts:  # the players have their own connections
        account.client.close()
    loop = asyncio.get_running_loop()
    now = loop.time()
    for tid, seats in zip(table_ids, table_accounts):
        for k, acc in enumerate(seats):
            player = Player(sim, tid, acc, k == 0, random.Random(sim.rng.random()))
            sim.players.append(player)
            sim.player_tasks.append(loop.create_task(player.run(now + sim.rng.uniform(0, POLL_EVERY))))


async def measure(sim: "Sim", server: Server, seconds: float, stats: "Stats", dumps: int = 0) -> dict:
    """``seconds`` of the running load measured into ``stats``: CPU of the server (per
    worker too), of this client and of the machine, connections per worker, this
    client's event-loop lag; and ``dumps`` py-spy dumps of each worker spread over it."""
    sim.stats, stats.measuring = stats, True
    probe = WorkerProbe(server)
    probe.start()
    spies = []
    pyspy = pyspy_path() if sim.args.profile else None
    if pyspy:  # py-spy on every worker, and on this client, during the measured game load
        for label, pid in [*enumerate(server.workers()), ("client", os.getpid())]:
            # A worker's samples only while it holds the GIL: else a worker that waits for a core
            # in a system call (a send that wakes the client) is sampled there as if it worked.
            gil = ["--gil"] if label != "client" else []
            spies.append(subprocess.Popen(
                [pyspy, "record", "--pid", str(pid), "--duration", str(int(min(seconds, 30))),
                 "--format", "raw", "--output", str(OUT / f"profile-sim-{label}.txt"), "--nonblocking",
                 "--rate", "100", *gil], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    dumper = None
    if dumps:
        dumper = threading.Thread(target=spy_dumps, args=(server, dumps, seconds / dumps, OUT / "dumps.txt"),
                                  daemon=True)
        dumper.start()
    cpu_client0 = resource.getrusage(resource.RUSAGE_SELF)
    sums0 = cpu_probe_sums(server) if sim.args.cpu_probe else {}
    cpu_server0, t0, busy0, wall0 = server.cpu(), time.monotonic(), machine_busy()[0], time.time()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.monotonic() - t0
    cpu_client1 = resource.getrusage(resource.RUSAGE_SELF)
    report = {
        "client_cpu_pct": 100 * ((cpu_client1.ru_utime + cpu_client1.ru_stime)
                                 - (cpu_client0.ru_utime + cpu_client0.ru_stime)) / elapsed,
        "server_cpu_pct": 100 * (server.cpu() - cpu_server0) / elapsed,
        "machine_pct": 100 * (machine_busy()[0] - busy0) / elapsed,
        "elapsed": elapsed, "stats": stats, "workers": probe.stop(), "wall": (wall0, time.time())}
    if sim.args.cpu_probe:
        report["by_kind"] = cpu_probe_line(sums0, cpu_probe_sums(server), server.cpu() - cpu_server0)
    for spy in spies:
        spy.wait(timeout=60)
    if dumper is not None:
        dumper.join(timeout=120)
        report["dumps"] = summarize_dumps(OUT / "dumps.txt")
    return report


async def simulate(sim: "Sim", server: Server, report: dict) -> None:
    """T tables at once: ramp, then one measured window."""
    args = sim.args
    loop = asyncio.get_running_loop()
    sim.stop_at = float("inf")
    await add_tables(sim, args.tables)
    sim.stop_at = loop.time() + args.ramp + args.duration + POLL_EVERY
    lag = loop.create_task(sim.watch_loop())
    await asyncio.sleep(args.ramp)
    print(f"  {len(sim.players)} players polling (held until their view changes; a poll not held"
          f" again after {POLL_EVERY} s); measuring for {args.duration:g} s…",
          flush=True)
    report.update(await measure(sim, server, args.duration, sim.stats, args.dumps))
    sim.stop_at = loop.time()
    await asyncio.gather(*sim.player_tasks, lag)
    await sim.stop()
    for player in sim.players:
        player.client.close()


def all_latencies(stats: "Stats") -> list[float]:
    return stats.lat["poll"] + stats.lat["act"] + stats.lat["chat"] + stats.lat["lobby"]


async def sweep(sim: "Sim", server: Server, report: dict) -> None:
    """Add tables --sweep-step at a time (the others keep playing) and measure each T for
    --sweep-seconds after --sweep-settle s; stop at the first T whose p99 of all requests
    reaches 100 ms or that has an error, or at 100 tables if later (or at --sweep-max).
    Held polls are left out of the p99: they wait on purpose."""
    args = sim.args
    loop = asyncio.get_running_loop()
    sim.stop_at = float("inf")
    lag = loop.create_task(sim.watch_loop())
    capacity, rows, over = 0, [], False
    tables = args.sweep_start
    print(f"sweep: from {tables} tables in steps of {args.sweep_step}, {args.sweep_settle:g} s to settle and "
          f"{args.sweep_seconds:g} s measured per step", flush=True)
    try:
        while tables <= args.sweep_max:
            try:
                await add_tables(sim, tables - len(sim.limits))
            except SetupFailed as failed:
                if not over:
                    raise
                print(f"  T={tables:<4} could not be seated ({failed}): the sweep ends here", flush=True)
                break
            await asyncio.sleep(args.sweep_settle)
            m = await measure(sim, server, args.sweep_seconds, Stats())
            stats = m["stats"]
            lat = all_latencies(stats)
            p99, errors = pct(lat, 99), len(stats.errors)
            ok = p99 < 100 and errors == 0
            rows.append((tables, m))
            moments = [x * 1000 for x in stats.moments]
            print(f"  T={tables:<4} {len(lat) / m['elapsed']:6.0f} req/s (+{len(stats.lat['held'])} held, "
                  f"+{stats.streamed} streamed)  "
                  f"moment p50 {pct(moments, 50):.0f} p99 {pct(moments, 99):.0f} ms ({len(moments)})  "
                  f"p50 {pct(lat, 50):7.1f} ms  "
                  f"p99 {p99:7.1f} ms  errors {errors}  seen lag p99 {pct(stats.served_lag, 99) * 1000:.0f} ms  "
                  f"loop lag p99 {pct(stats.loop_lag, 99) * 1000:.0f} ms  server {m['server_cpu_pct']:.0f}%  "
                  f"client {m['client_cpu_pct']:.0f}%  machine {m['machine_pct']:.0f}%  "
                  f"{'ok' if ok else 'OVER'}", flush=True)
            print(f"         workers: {worker_line(m['workers'])}", flush=True)
            print("         by kind: " + ", ".join(f"{kind} {len(v)} p99 {pct(v, 99):.0f} max {max(v):.0f} ms"
                                            for kind in ("poll", "act", "chat", "lobby") if (v := stats.lat[kind])),
                  flush=True)  # which requests make the tail (a poll here: a stream's opening, or the 10-s state)
            if "by_kind" in m:
                print(f"         CPU by request (probe; the rest is gunicorn's loop, the watchers, the deadline job): "
                      f"{m['by_kind']}", flush=True)
            over = over or not ok
            if over and tables >= 100:  # on to 100 tables at least, for moment_p99_ms
                break
            if not over:
                capacity = tables
            tables += args.sweep_step
    finally:
        sim.stop_at = loop.time()
        await asyncio.gather(*sim.player_tasks, lag)
        await sim.stop()
        for player in sim.players:
            player.client.close()
    report["sweep"], report["capacity"] = rows, capacity



def profile_during(server: Server, base: str, s304: Path, sfull: Path, args) -> str:
    """py-spy on one worker while wrk drives the poll (304 then full view)."""
    pyspy = pyspy_path()
    if pyspy is None:
        return "py-spy not installed: no profile"
    outputs = []
    for label, script in (("304", s304), ("full", sfull)):
        worker = server.workers()[0]
        out = OUT / f"profile-{label}.txt"
        spy = subprocess.Popen([pyspy, "record", "--pid", str(worker), "--duration", str(int(args.sat_seconds)),
                                "--format", "raw", "--output", str(out), "--nonblocking", "--rate", "200"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run_wrk(base, script, args.sat_seconds, args.connections, args.wrk_threads)
        spy.wait(timeout=60)
        outputs.append(str(out))
    return ", ".join(outputs)


def print_saturation(args, report: dict) -> None:
    hello, full, r304 = report["hello"], report["full"], report["304"]
    print()
    print(f"== saturation (wrk, {args.connections} connections, {args.sat_seconds:g} s per target) ==")
    print(f"hello world:            {hello['rps']:9.0f} req/s")
    print(f"hello world, gthread:   {report['hello_gthread']['rps']:9.0f} req/s  (gunicorn's threaded worker)")
    print(f"state poll, full view:  {full['rps']:9.0f} req/s  (view ~{report['full_bytes']:.0f} bytes)")
    print(f"state poll, 304:        {r304['rps']:9.0f} req/s")
    # Requests per second of server CPU: what each request costs the server, whatever
    # share of the machine other processes left it during that run.
    eff = {k: report[k]["rps"] / max(report[k]["server_cpu_pct"] / 100, 1e-9) for k in ("hello", "304", "full")}
    print(f"per second of server CPU: hello {eff['hello']:.0f}, 304 {eff['304']:.0f}, full {eff['full']:.0f} "
          f"requests (ratios {eff['304'] / eff['hello']:.2f} and {eff['full'] / eff['hello']:.2f}); "
          f"the server had {report['hello']['server_cpu_pct']:.0f}%, {report['304']['server_cpu_pct']:.0f}% "
          f"and {report['full']['server_cpu_pct']:.0f}% of a core in these runs")


def print_sweep(args, report: dict, server: Server, whole_run: float) -> None:
    print_saturation(args, report)
    print()
    print(f"== sweep: {args.sweep_seconds:g} s measured per step after {args.sweep_settle:g} s "
          f"(time scale {args.time_scale:g}, limits jittered +-{args.jitter:g}) ==")
    for tables, m in report["sweep"]:
        lat = all_latencies(m["stats"])
        print(f"T={tables:<4} p99 {pct(lat, 99):7.1f} ms  errors {len(m['stats'].errors)}  "
              f"server {m['server_cpu_pct']:.0f}%  {worker_line(m['workers'])}")
    print(f"server peak memory: {server.peak_total_kb / 1024:.0f} MiB; whole run: {whole_run:.0f} s; "
          f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    hello = report["hello"]["rps"]
    at_100 = next((m for tables, m in report["sweep"] if tables == 100), None)
    moments = [x * 1000 for x in at_100["stats"].moments] if at_100 else []
    stock = report["hello_gthread"]["rps"]
    print(f"hello_rps: {hello:.0f}")
    print(f"hello_gthread_rps: {stock:.0f}")
    print(f"capacity_tables: {report['capacity']}")
    print(f"tables_per_khello: {report['capacity'] / hello * 1000:.1f}")
    print(f"tables_per_khello_gthread: {report['capacity'] / stock * 1000:.1f}")
    print(f"moment_p99_ms: {pct(moments, 99):.0f}" + (f" (p50 {pct(moments, 50):.0f}, {len(moments)} ballots, at T=100)"
                                                      if moments else " (no T=100 step measured)"))


def burst_lines(stats: "Stats", bucket: float = 0.1) -> list[str]:
    """Where the slow requests are in time: the requests by the 100 ms in which they were
    sent, the slowest windows against the others (what was sent in them), and how much
    a window's latency repeats at the server's and the players' periods."""
    if not stats.timeline:
        return []
    t_first = min(t for t, *_ in stats.timeline)
    n = int((max(t for t, *_ in stats.timeline) - t_first) / bucket) + 1
    windows = [[] for _ in range(n)]
    for sent, ms, kind, status in stats.timeline:
        windows[int((sent - t_first) / bucket)].append((ms, kind, status))
    p90 = [pct([ms for ms, *_ in w], 90) if w else 0.0 for w in windows]
    slow = [i for i in range(n) if p90[i] >= 100]

    def mean_of(idx, what):
        return statistics.mean(what(windows[i]) for i in idx) if idx else 0.0

    def described(idx):
        return (f"sent {mean_of(idx, len):.0f}, of them acts {mean_of(idx, lambda w: sum(k == 'act' for _, k, _ in w)):.1f}, "
                f"chat {mean_of(idx, lambda w: sum(k == 'chat' for _, k, _ in w)):.1f}, full views "
                f"{mean_of(idx, lambda w: sum(k == 'poll' and st == 200 for _, k, st in w)):.1f}")
    lines = [f"windows of {bucket * 1000:.0f} ms whose p90 >= 100 ms: {len(slow)} of {n} ({100 * len(slow) / n:.0f} %); "
             f"in them {described(slow)}; in the others {described([i for i in range(n) if p90[i] < 100])}"]
    per_s = int(round(1 / bucket))
    secs = [pct([ms for w in windows[k:k + per_s] for ms, *_ in w], 99) for k in range(0, n - per_s + 1, per_s)]
    if secs:
        lines.append(f"p99 of each second: min {min(secs):.0f}, median {statistics.median(secs):.0f}, "
                     f"max {max(secs):.0f} ms; seconds with p99 >= 100 ms: {sum(x >= 100 for x in secs)} of {len(secs)}")
        views = [0] * len(secs)
        for at in stats.views_at:
            if 0 <= (k := int((at - t_first) / (per_s * bucket))) < len(views):
                views[k] += 1
        slow_views = [v for v, p99 in zip(views, secs) if p99 >= 100]
        other_views = [v for v, p99 in zip(views, secs) if p99 < 100]
        slow_part = f"{statistics.mean(slow_views):.0f} in the seconds with p99 >= 100 ms" if slow_views else "no slow second"
        lines.append(f"views streamed per second: {slow_part}, {statistics.mean(other_views or [0]):.0f} in the "
                     f"others (busiest second {max(views)})")
    mean = statistics.mean(p90)
    var = sum((x - mean) ** 2 for x in p90) or 1.0
    corr = []
    for lag_s in (0.1, 0.2, 0.5, 1.0, 1.5, 2.0, 3.0):
        lag = int(round(lag_s / bucket))
        if lag < n:
            corr.append(f"{lag_s:g} s {sum((p90[i] - mean) * (p90[i + lag] - mean) for i in range(n - lag)) / var:+.2f}")
    lines.append("autocorrelation of the windows' p90 at a lag of: " + ", ".join(corr))
    return lines


def print_report(args, report: dict, server: Server, whole_run: float) -> None:
    stats: Stats = report["stats"]
    hello, full, r304 = report["hello"], report["full"], report["304"]
    print_saturation(args, report)
    lat_all = all_latencies(stats)
    n_all = len(lat_all)
    print()
    print(f"== {args.tables} tables x {PLAYERS} players, {report['elapsed']:.0f} s measured "
          f"(time scale {args.time_scale:g}{f', limits jittered +-{args.jitter:g}' if args.jitter else ''}) ==")
    print(f"requests: {n_all} ({n_all / report['elapsed']:.0f}/s): polls {len(stats.lat['poll'])}, "
          f"acts {len(stats.lat['act'])}, chat {len(stats.lat['chat'])}, lobby {len(stats.lat['lobby'])}")
    print(f"poll statuses: {dict(sorted(stats.codes['poll'].items()))}; "
          f"full views average {statistics.mean(stats.bytes_full) if stats.bytes_full else 0:.0f} bytes")
    print(f"views streamed: {stats.streamed}; held polls (Prefer: {PREFER_WAIT}): {stats.held_polls}, held {stats.held_seconds / max(stats.held_polls, 1):.1f} s"
          f" on average (left out of their latency); requests per player per minute:"
          f" {n_all / (args.tables * PLAYERS) / report['elapsed'] * 60:.1f}")
    if "by_kind" in report:
        print(f"CPU by request (probe): {report['by_kind']}")
    moments = [x * 1000 for x in stats.moments]
    print(f"moment (a day's ballot -> every other living phone of its table shows it): p50 {pct(moments, 50):.0f} ms, "
          f"p99 {pct(moments, 99):.0f} ms over {len(moments)} ballots")
    for kind in ("poll", "act", "chat"):
        v = stats.lat[kind]
        if v:
            print(f"latency {kind:<5} p50 {pct(v, 50):7.1f} ms   p95 {pct(v, 95):7.1f} ms   "
                  f"p99 {pct(v, 99):7.1f} ms   max {max(v):7.1f} ms")
    print(f"latency all   p50 {pct(lat_all, 50):7.1f} ms   p95 {pct(lat_all, 95):7.1f} ms   "
          f"p99 {pct(lat_all, 99):7.1f} ms")
    print(f"errors (transport, timeouts, 5xx): {len(stats.errors)}"
          + (f"  e.g. {sorted(set(stats.errors))[:5]}" if stats.errors else ""))
    print(f"refused by the rules (4xx, expected when a step moves on): "
          f"{dict(sorted(stats.refused.items())) or 0}")
    print(f"games started {stats.games_started}, ended {stats.games_ended}; steps ended by deadline "
          f"{stats.steps_by_deadline}, early (seen by hosts) {stats.steps_early}")
    adv = list(stats.advance_lag.values())
    print(f"deadline lag, server (next step's start - deadline): p50 {pct(adv, 50) * 1000:.0f} ms, "
          f"p99 {pct(adv, 99) * 1000:.0f} ms over {len(adv)} steps")
    print(f"deadline lag, seen (first poll sent after the deadline -> it shows the next step): "
          f"p50 {pct(stats.served_lag, 50) * 1000:.0f} ms, p99 {pct(stats.served_lag, 99) * 1000:.0f} ms "
          f"over {len(stats.served_lag)} player-steps")
    print(f"deadline lag, seen incl. the 1.5 s poll cadence (deadline -> player sees next step): "
          f"p50 {pct(stats.visible_lag, 50) * 1000:.0f} ms, p99 {pct(stats.visible_lag, 99) * 1000:.0f} ms")
    print(f"CPU during the simulation (100% = one core of {os.cpu_count()}): server "
          f"{report['server_cpu_pct']:.0f}%, load client (asyncio, own HTTP/1.1 client) {report['client_cpu_pct']:.0f}%, "
          f"whole machine {report['machine_pct']:.0f}% (the rest: other processes on this machine)")
    table_seconds = args.tables * report["elapsed"]  # what one table asks of the machine each second
    print(f"per table and second: {stats.streamed / table_seconds:.1f} views streamed, "
          f"{len(stats.lat['act']) / table_seconds:.2f} acts, {len(stats.lat['chat']) / table_seconds:.2f} messages, "
          f"{len(stats.lat['poll']) / table_seconds:.2f} state polls; "
          f"CPU: server {report['server_cpu_pct'] * 10 / args.tables:.2f} ms, load client {report['client_cpu_pct'] * 10 / args.tables:.2f} ms")
    print(f"per worker: {worker_line(report['workers'])}")
    print(f"load client's event loop lag (a 50 ms timer fired late by): p50 {pct(stats.loop_lag, 50) * 1000:.1f} ms, "
          f"p99 {pct(stats.loop_lag, 99) * 1000:.1f} ms, max {max(stats.loop_lag, default=0) * 1000:.1f} ms")
    for line in burst_lines(stats):
        print(f"bursts: {line}")
    with open(OUT / "timeline.csv", "w") as out:  # every measured request: sent (s), latency (ms), kind, status
        out.writelines(f"{sent:.4f},{ms:.2f},{kind},{status}\n" for sent, ms, kind, status in stats.timeline)
    if report.get("dumps"):
        print(f"py-spy dumps ({OUT / 'dumps.txt'}): threads by state, innermost frame <- innermost frame of ours")
        for line in report["dumps"]:
            print(f"  {line}")
    print(f"server peak memory: {server.peak_total_kb / 1024:.0f} MiB RSS summed over master + workers "
          f"(largest process {server.peak_proc_kb / 1024:.0f} MiB)")
    if report.get("profile"):
        print(f"profiles: {report['profile']}")
    print(f"whole run: {whole_run:.0f} s; load average at the end: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    print(f"ratio_304_vs_hello: {r304['rps'] / hello['rps']:.2f}")
    print(f"ratio_full_vs_hello: {full['rps'] / hello['rps']:.2f}")
    print(f"p99_ms_at_{args.tables}_tables: {pct(lat_all, 99):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", "-T", type=int, default=100, help="tables of 18 players (default 100)")
    parser.add_argument("--duration", type=float, default=60, help="seconds of measured game load (60)")
    parser.add_argument("--jitter", type=float, default=0.3,
                        help="spread each table's step limits by +-this fraction (0.3; 0: all alike)")
    parser.add_argument("--ramp", type=float, default=6, help="seconds of load before measuring (6)")
    parser.add_argument("--sat-seconds", type=float, default=9,
                        help="seconds of wrk per target, split over the rounds (9)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="the saturation runs alternate targets this many times (3)")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of wrk warm-up per target (2)")
    parser.add_argument("--connections", type=int, default=64, help="wrk connections (64)")
    parser.add_argument("--wrk-threads", type=int, default=1, help="wrk threads (1)")
    parser.add_argument("--account-groups", type=int, default=6,
                        help="accounts are 18 x this; each sits at tables/this tables (6)")
    parser.add_argument("--quiet-tables", type=int, default=4, help="tables polled by wrk (4)")
    parser.add_argument("--time-scale", type=float, default=0.4, help="WEREWOLF_TIME_SCALE (0.4)")
    parser.add_argument("--chat-every", type=float, default=30.0,
                        help="mean seconds between two messages of a player who may write (30)")
    parser.add_argument("--idle", type=float, default=0.15, help="share of prompts left to time out (0.15)")
    parser.add_argument("--max-think", type=float, default=2.5, help="longest delay before acting, s (2.5)")
    parser.add_argument("--profile", action="store_true", help="also record py-spy profiles of the workers (their Python work: --gil) and of this client (bench/out/profile-sim-*.txt)")
    parser.add_argument("--server-cpus", type=float, default=0,
                        help="each server's processes share at most this many cores (a cgroup; root): "
                             "a slower machine on a faster one (0: no limit)")
    parser.add_argument("--dumps", type=int, default=0,
                        help="py-spy dumps of each worker spread over the measured load (0)")
    parser.add_argument("--sweep", action="store_true",
                        help="find the largest T (p99 < 100 ms, 0 errors) adding --sweep-step tables at a time")
    parser.add_argument("--sweep-start", type=int, default=10, help="first T of the sweep (10)")
    parser.add_argument("--sweep-step", type=int, default=10, help="tables added per step (10)")
    parser.add_argument("--sweep-max", type=int, default=300, help="last T tried (300)")
    parser.add_argument("--sweep-settle", type=float, default=4, help="seconds after adding tables (4)")
    # 10 s measured a step in one phase of the games (the tables added together play in step): at 80
    # tables one run saw 165 req/s, another 210; 30 s gave 210 and 211, 291 and 297 at 100.
    parser.add_argument("--sweep-seconds", type=float, default=30, help="seconds measured per step (30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--transport", choices=("stream", "poll"), default="stream",
                        help="how the phones take their views: the page's stream (default), or its held polls")
    parser.add_argument("--held-gap", type=float, default=0.0,
                        help="after a held poll's answer, the next poll leaves at once but never sooner than this "
                             "after the last one left (static/js/table.js: 0, at once; its pages of 2026-12-04 and "
                             f"before waited {POLL_EVERY} s: give that for an older --tree)")
    parser.add_argument("--cpu-probe", action="store_true",
                        help="serve with bench/cpu_probe.conf.py: each measured window prints the CPU per request by kind")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="serve this checkout instead (its gunicorn.conf.py and app), with this client: "
                             "before and after in one sitting (git worktree add ../before <commit>)")
    args = parser.parse_args()
    args.tree = args.tree.resolve()
    if args.sweep:
        args.tables = args.sweep_max
    if args.tables < 1 or args.duration <= 0:
        die("--tables and --duration must be positive")
    check_tools()
    # One connection per simulated player (a second one at times), in this process and,
    # inherited, in the server's.
    open_files(2 * PLAYERS * args.tables + 1024)
    OUT.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    instance = tempfile.mkdtemp(prefix="werewolf-bench-")
    env = {
        "WEREWOLF_INSTANCE_PATH": instance,
        "WEREWOLF_SECRET_KEY": os.urandom(16).hex(),
        "WEREWOLF_TIME_SCALE": str(args.time_scale),
        # Every simulated player registers from this one address.
        "WEREWOLF_REGISTRATION_RATE_LIMIT": "1000000 per minute",
        # Fast to set up (scrypt costs ~0.1 s of CPU per account); the polls never hash.
        "WEREWOLF_PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
    }
    print(f"bench: {'sweep' if args.sweep else f'T={args.tables}'} tables, serving {args.tree} "
          f"({subprocess.run(['git', 'log', '-1', '--format=%h %cI'], cwd=args.tree, capture_output=True, text=True).stdout.strip()}), instance {instance}, logs in {OUT}; load average at the start: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)"
          + (f"; each server limited to {args.server_cpus:g} cores (cgroup)" if args.server_cpus else ""), flush=True)
    subprocess.run([str(BIN / "flask"), "--app", "app", "init-db"], cwd=args.tree,
                   env={**os.environ, **env, "WEREWOLF_SCHEDULER": "false", "PYTHONPATH": str(args.tree)}, check=True,
                   stdout=subprocess.DEVNULL)
    for old in [*OUT.glob("gc-*.txt"), *OUT.glob("requests-*.txt"), *OUT.glob("looks-*.txt")]:
        old.unlink()
    config = args.tree / "gunicorn.conf.py"
    Client.reuse_as(config)
    if args.cpu_probe:
        env["WEREWOLF_BENCH_CONFIG"], config = str(config), ROOT / "bench" / "cpu_probe.conf.py"
    server = Server("werewolf", "app:app", env, OUT / "server.log", args.server_cpus, config, args.tree)
    server.start()
    report: dict = {}
    try:
        asyncio.run(setup_and_saturate(args, server, {}, report))
    except SetupFailed as failed:
        die(str(failed))
    finally:
        server.stop()
        shutil.rmtree(instance, ignore_errors=True)
    (print_sweep if args.sweep else print_report)(args, report, server, time.monotonic() - started)


if __name__ == "__main__":
    main()
