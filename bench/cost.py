#!/usr/bin/env python3
"""The server's CPU per request, as gunicorn serves it: a figure other load on the machine
barely moves (CPU seconds of the server's processes, from /proc, over requests counted).

    .venv/bin/python bench/cost.py [--tree ../before] [--seconds 4] [--cycles 20]

Starts the real server (``gunicorn.conf.py``, ``app:app``) of ``--tree`` and bench/hello.py
under the same settings, sets up a table of 18 whose steps last an hour, then prints the
server's CPU per request, each the lowest of ``--repeat`` runs, for:

- ``hello``: bench/hello.py (wrk, 8 connections);
- ``304``: the state poll answered 304 (wrk, the 18 seats in turn, ``If-None-Match``);
- ``full``: the same poll answered in full (a view already built);
- ``wake``: a held poll's wake-up, per phone: 17 phones hold a poll (``Prefer: wait=25``),
  one message in a channel at night (so every living phone is answered), each phone gets
  its new view and asks again at once (held again); the server's CPU over the cycle, less
  the message's own cost (measured with nobody waiting) and the idle CPU, over 17. With
  held polls off (``--tree`` of a server that does not hold them) it says so;
- ``stream``: the same wake-up where the 17 phones stream their views (``/events``, as the
  page does): the server's CPU per view sent.

Each wake-up run is on a table of its own: every message adds a line to the views after it.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import load  # noqa: E402

WAITING = 17


def per_request_wrk(server: load.Server, script: Path | None, seconds: float, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        cpu0 = server.cpu()
        result = load.run_wrk(server.base, script, seconds, 8, 1)
        if result["bad"] or result["socket_errors"]:
            load.die(f"wrk saw errors: {result['status']} {result['socket_errors']}")
        best = min(best, (server.cpu() - cpu0) / max(result["requests"], 1))
    return best * 1e6


async def setup(server: load.Server, stats: load.Stats):
    accounts = await load.make_accounts("127.0.0.1", server.port, load.PLAYERS, "cost", stats)
    table_id, views = await fresh_table(stats, accounts)
    return accounts, table_id, views


async def fresh_table(stats: load.Stats, accounts: list) -> tuple[str, list]:
    """A new table of ``accounts`` whose steps last an hour, and each seat's first (view, ETag)."""
    table_id = await load.make_table(stats, accounts, load.QUIET_LIMITS, "cost")
    views = []
    for account in accounts:
        status, view, headers, _ = await load.call(stats, account, account.client, "GET",
                                                   f"/api/tables/{table_id}/state", "poll")
        assert status == 200, (status, view)
        views.append((view, headers["etag"]))
    return table_id, views


class Wakes:
    """One fresh table where a seat writes and the 17 others are woken by each message (at
    night: every living phone is answered). Each measured run takes a table of its own: a
    message adds a line to the views that follow, so a table with more chat has dearer views."""

    def __init__(self, stats: load.Stats, accounts: list, table_id: str, views: list):
        self.stats, self.accounts, self.table_id = stats, accounts, table_id
        self.writer = next((k for k, (view, _) in enumerate(views) if (view.get("channels") or {}).get("write")), None)
        self.channel = views[self.writer][0]["channels"]["write"] if self.writer is not None else None
        self.others = [k for k in range(len(accounts)) if k != self.writer][:WAITING]
        self.etags = [etag for _, etag in views]

    @classmethod
    async def fresh(cls, stats: load.Stats, accounts: list) -> "Wakes":
        return cls(stats, accounts, *await fresh_table(stats, accounts))

    async def say(self) -> None:
        author = self.accounts[self.writer]
        status, *_ = await load.call(self.stats, author, author.client, "POST", f"/api/tables/{self.table_id}/chat",
                                     "chat", body={"channel": self.channel, "text": "Hmm."}, ok=(200, 201))
        assert status in (200, 201), status

    async def held_poll(self, k: int) -> tuple:
        account = self.accounts[k]
        status, view, headers, _ = await load.call(
            self.stats, account, account.client, "GET", f"/api/tables/{self.table_id}/state", "poll",
            headers={"Prefer": "wait=25", "If-None-Match": self.etags[k]}, ok=(200, 304))
        self.etags[k] = headers.get("etag", self.etags[k])
        return status, "preference-applied" in headers


async def wake_cost(server: load.Server, stats, accounts, table_id: str, views, cycles: int, repeat: int):
    """(a note, a held poll's wake-up per phone, a view sent on a stream), in seconds of server CPU."""
    probe = Wakes(stats, accounts, table_id, views)
    if probe.writer is None:
        return "no seat may write at this step", None, None
    if not (await probe.held_poll(probe.others[0]))[1]:
        return "held polls off (Preference-Applied not answered)", None, None

    best_say = float("inf")  # a message with nobody waiting: five times as many, as it is taken off each cycle
    for _ in range(repeat):
        wakes = await Wakes.fresh(stats, accounts)
        cpu0 = server.cpu()
        for _ in range(5 * cycles):
            await wakes.say()
        best_say = min(best_say, (server.cpu() - cpu0) / (5 * cycles))

    best_idle, best, views_answered = float("inf"), float("inf"), 0
    spies = [subprocess.Popen([spy, "record", "--pid", str(worker), "--gil", "--rate", "500", "--format", "raw",
                               "--nonblocking", "--output", str(load.OUT / f"cost-wake-{k}.txt")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for spy in [load.pyspy_path()] if spy and os.environ.get("COST_SPY")
             for k, worker in enumerate(server.workers())]
    for _ in range(repeat):
        wakes = await Wakes.fresh(stats, accounts)
        pending = {k: asyncio.ensure_future(wakes.held_poll(k)) for k in wakes.others}
        await asyncio.sleep(0.5)
        cpu0, t0 = server.cpu(), time.monotonic()
        await asyncio.sleep(5)  # CPU time is counted in ticks of 10 ms: long enough to count the idle's 1-2 %
        idle = (server.cpu() - cpu0) / (time.monotonic() - t0)
        best_idle = min(best_idle, idle)
        cpu0, t0 = server.cpu(), time.monotonic()
        for _ in range(cycles):
            await wakes.say()
            for k in wakes.others:
                status, _ = await pending[k]
                views_answered += status == 200
                pending[k] = asyncio.ensure_future(wakes.held_poll(k))
            await asyncio.sleep(0.2)  # the new polls reach the server and are held
        spent = server.cpu() - cpu0 - idle * (time.monotonic() - t0) - best_say * cycles
        best = min(best, spent / cycles / len(wakes.others))
        for task in pending.values():
            task.cancel()
    for spy in spies:
        spy.send_signal(2)
        spy.wait(timeout=30)
    note = (f"message alone {best_say * 1e6:.0f} us, idle {best_idle * 100:.1f} % of a core, "
            f"{views_answered} of {repeat * cycles * WAITING} wake-ups answered 200")
    streams = await stream_status(server, probe)
    if streams != "200":  # a tree from before the stream: its held polls are measured, not its stream
        return f"{note}; no stream (/events answered {streams})", best * 1e6, None
    streamed = min([await stream_wake_cost(server, await Wakes.fresh(stats, accounts), best_say, best_idle, cycles)
                    for _ in range(repeat)])
    return note, best * 1e6, streamed * 1e6


async def stream_status(server: load.Server, wakes: Wakes) -> str:
    """The status with which the server answers a phone's stream of views (``/events``)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        head = await load.open_stream(reader, writer, f"127.0.0.1:{server.port}", wakes.table_id,
                                      wakes.accounts[wakes.others[0]].cookie)
        return head[9:12]
    finally:
        writer.close()


async def stream_wake_cost(server: load.Server, wakes: Wakes, best_say: float, idle: float, cycles: int) -> float:
    """Server CPU per view sent on a stream (``/events``, as the page takes them): the 17 phones
    stream, each message wakes them all; the message's own cost and the idle CPU taken off."""
    views = [0] * len(wakes.others)
    arrived = asyncio.Event()

    async def listen(k: int, account) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        try:
            head = await load.open_stream(reader, writer, f"127.0.0.1:{server.port}", wakes.table_id, account.cookie)
            assert head[9:12] == "200", head  # stream_status said so
            async for event in load.stream_events(reader):
                if event.get(b"event") == b"state":  # a view, not a heartbeat
                    views[k] += 1
                    arrived.set()
        finally:
            writer.close()

    async def all_past(counts: list) -> None:
        while any(seen <= before for seen, before in zip(views, counts)):
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 10)

    listeners = [asyncio.ensure_future(listen(i, wakes.accounts[k])) for i, k in enumerate(wakes.others)]
    await all_past([0] * len(views))  # each has its first view
    cpu0, t0, sent0 = server.cpu(), time.monotonic(), sum(views)
    for _ in range(cycles):
        counts = list(views)
        await wakes.say()
        await all_past(counts)
    spent = server.cpu() - cpu0 - idle * (time.monotonic() - t0) - best_say * cycles
    sent = sum(views) - sent0
    for listener in listeners:
        listener.cancel()
    return spent / sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to serve (this one)")
    parser.add_argument("--seconds", type=float, default=4, help="seconds of wrk per run (4)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the lowest kept (3)")
    parser.add_argument("--config", type=Path, help="another gunicorn config file (the tree's gunicorn.conf.py)")
    parser.add_argument("--cycles", type=int, default=20, help="messages per wake-up run (20)")
    args = parser.parse_args()
    tree = args.tree.resolve()
    load.check_tools()
    load.OUT.mkdir(parents=True, exist_ok=True)
    instance = tempfile.mkdtemp(prefix="werewolf-cost-")
    env = {"WEREWOLF_INSTANCE_PATH": instance, "WEREWOLF_SECRET_KEY": os.urandom(16).hex(),
           "WEREWOLF_REGISTRATION_RATE_LIMIT": "1000000 per minute",
           "WEREWOLF_CHAT_RATE_LIMIT": "1000000 per minute",
           "WEREWOLF_PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000"}
    subprocess.run([str(load.BIN / "flask"), "--app", "app", "init-db"], cwd=tree, check=True,
                   env={**os.environ, **env, "WEREWOLF_SCHEDULER": "false", "PYTHONPATH": str(tree)},
                   stdout=subprocess.DEVNULL)
    config = (args.config or tree / "gunicorn.conf.py").resolve()
    load.Client.reuse_as(config)
    server = load.Server("werewolf", "app:app", env, load.OUT / "cost-server.log", 0, config, tree)
    hello = load.Server("hello", "bench.hello:app", {}, load.OUT / "cost-hello.log", 0, config, tree)
    commit = subprocess.run(["git", "log", "-1", "--format=%h"], cwd=tree, capture_output=True, text=True).stdout
    print(f"serving {tree} ({commit.strip()}); load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
          flush=True)
    server.start()
    hello.start()
    try:
        stats = load.Stats()

        async def run():
            accounts, table_id, views = await setup(server, stats)
            rows = [(tid_path, {"Cookie": a.cookie, "Accept": "application/json"}, etag)
                    for a, (_, etag) in zip(accounts, views) for tid_path in [f"/api/tables/{table_id}/state"]]
            s304, sfull = load.OUT / "cost-304.lua", load.OUT / "cost-full.lua"
            load.write_wrk_script(s304, [(p, {**h, "If-None-Match": e}) for p, h, e in rows])
            load.write_wrk_script(sfull, [(p, h) for p, h, _ in rows])
            for target, script in ((hello, None), (server, s304), (server, sfull)):
                load.run_wrk(target.base, script, 1, 8, 1)  # warm up
            out = {"hello": per_request_wrk(hello, None, args.seconds, args.repeat),
                   "304": per_request_wrk(server, s304, args.seconds, args.repeat),
                   "full": per_request_wrk(server, sfull, args.seconds, args.repeat)}
            out["wake_note"], out["wake"], out["stream"] = await wake_cost(server, stats, accounts, table_id, views,
                                                            args.cycles, args.repeat)
            for account in accounts:
                account.client.close()
            return out

        out = asyncio.run(run())
    finally:
        server.stop()
        hello.stop()
        shutil.rmtree(instance, ignore_errors=True)
    hello_us = out["hello"]
    print(f"server CPU per request (lowest of {args.repeat}), in us and as hello's multiple:")
    for name in ("hello", "304", "full", "wake", "stream"):
        if out[name] is not None and out[name] <= 0:  # what was taken off (the message, the idle) varied more
            print(f"  {name:>5}: below the noise of what is taken off it ({out[name]:.0f} us)")
        elif out[name] is not None:
            print(f"  {name:>5}: {out[name]:7.0f} us  x{out[name] / hello_us:.2f}")
    print(f"  wake: {out['wake_note']}")


if __name__ == "__main__":
    main()
