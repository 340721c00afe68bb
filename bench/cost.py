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
  held polls off (``--tree`` of a server that does not hold them) it says so.
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
    table_id = await load.make_table(stats, accounts, load.QUIET_LIMITS, "cost")
    views = []
    for account in accounts:
        status, view, headers, _ = await load.call(stats, account, account.client, "GET",
                                                   f"/api/tables/{table_id}/state", "poll")
        assert status == 200, (status, view)
        views.append((view, headers["etag"]))
    return accounts, table_id, views


async def held_poll(stats, account, table_id: str, etag: str) -> tuple:
    status, view, headers, _ = await load.call(
        stats, account, account.client, "GET", f"/api/tables/{table_id}/state", "poll",
        headers={"Prefer": "wait=25", "If-None-Match": etag}, ok=(200, 304))
    return status, headers.get("etag", etag), "preference-applied" in headers


async def wake_cost(server: load.Server, stats, accounts, table_id: str, views, cycles: int, repeat: int):
    writer = next((k for k, (view, _) in enumerate(views) if (view.get("channels") or {}).get("write")), None)
    if writer is None:
        return "no seat may write at this step", None
    channel, author = views[writer][0]["channels"]["write"], accounts[writer]
    etags = [etag for _, etag in views]
    others = [k for k in range(len(accounts)) if k != writer][:WAITING]

    async def say():
        status, *_ = await load.call(stats, author, author.client, "POST", f"/api/tables/{table_id}/chat", "chat",
                                     body={"channel": channel, "text": "Hmm."}, ok=(200, 201))
        assert status in (200, 201), status

    status, etag, held = await held_poll(stats, accounts[others[0]], table_id, etags[others[0]])
    if not held:
        return "held polls off (Preference-Applied not answered)", None

    best_say = float("inf")  # a message with nobody waiting
    for _ in range(repeat):
        cpu0 = server.cpu()
        for _ in range(cycles):
            await say()
        best_say = min(best_say, (server.cpu() - cpu0) / cycles)
    for k in others:  # every phone up to date after those messages
        etags[k] = (await load.call(stats, accounts[k], accounts[k].client, "GET",
                                    f"/api/tables/{table_id}/state", "poll"))[2]["etag"]
    best_idle = float("inf")
    pending = {k: asyncio.ensure_future(held_poll(stats, accounts[k], table_id, etags[k])) for k in others}
    await asyncio.sleep(0.5)
    for _ in range(repeat):
        cpu0, t0 = server.cpu(), time.monotonic()
        await asyncio.sleep(2)
        best_idle = min(best_idle, (server.cpu() - cpu0) / (time.monotonic() - t0))
    best, views_answered = float("inf"), 0
    spies = [subprocess.Popen([spy, "record", "--pid", str(worker), "--gil", "--rate", "500", "--format", "raw",
                               "--nonblocking", "--output", str(load.OUT / f"cost-wake-{k}.txt")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for spy in [load.pyspy_path()] if spy and os.environ.get("COST_SPY")
             for k, worker in enumerate(server.workers())]
    for _ in range(repeat):
        cpu0, t0 = server.cpu(), time.monotonic()
        for _ in range(cycles):
            await say()
            for k in others:
                status, etags[k], _ = await pending[k]
                views_answered += status == 200
                pending[k] = asyncio.ensure_future(held_poll(stats, accounts[k], table_id, etags[k]))
            await asyncio.sleep(0.2)  # the new polls reach the server and are held
        spent = server.cpu() - cpu0 - best_idle * (time.monotonic() - t0) - best_say * cycles
        best = min(best, spent / cycles / len(others))
    for task in pending.values():
        task.cancel()
    for spy in spies:
        spy.send_signal(2)
        spy.wait(timeout=30)
    note = (f"message alone {best_say * 1e6:.0f} us, idle {best_idle * 100:.1f} % of a core, "
            f"{views_answered} of {repeat * cycles * len(others)} wake-ups answered 200")
    return note, best * 1e6


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
            out["wake_note"], out["wake"] = await wake_cost(server, stats, accounts, table_id, views,
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
    for name in ("hello", "304", "full", "wake"):
        if out[name] is not None:
            print(f"  {name:>5}: {out[name]:7.0f} us  x{out[name] / hello_us:.2f}")
    print(f"  wake: {out['wake_note']}")


if __name__ == "__main__":
    main()
