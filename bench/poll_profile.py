#!/usr/bin/env python3
"""CPU cost of one state poll, in process, without HTTP: for profiling the poll path.

    .venv/bin/python bench/poll_profile.py [--profile 304|full] [-n 3000]

Builds the app on a temporary SQLite file, seats 18 players at a running game, then
calls the WSGI app directly with prepared environs and reports the thread CPU time
per request (immune to other processes on the machine) for: the 304 poll, the
full-view poll, and a minimal Flask "hello world"; then, with a stream open for each
seat, the CPU per view sent on a stream after a vote that changes every view, and the
vote's own. ``--profile`` runs cProfile on one of them and prints the top functions.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this tree's app, not the one the virtualenv installed (a worktree's, to compare)


def call(app, environ: dict):
    env = dict(environ)
    env["wsgi.input"] = io.BytesIO(b"")
    out = {}

    def start_response(status, headers, exc_info=None):
        out["status"], out["headers"] = status, headers

    body = b"".join(app(env, start_response))
    return out["status"], dict(out["headers"]), body


def per_request(app, environs: list[dict], n: int) -> float:
    for e in environs[:50]:
        call(app, e)
    t0 = time.thread_time()
    for i in range(n):
        call(app, environs[i % len(environs)])
    return (time.thread_time() - t0) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=3000)
    parser.add_argument("--profile", choices=["304", "full", "hello", "ping", "built", "stream"])
    parser.add_argument("--chat", type=int, default=40, help="village messages in the game (40)")
    parser.add_argument("--votes", type=int, default=3, help="rounds of 17 votes cast and changed (3)")
    args = parser.parse_args()

    instance = tempfile.mkdtemp(prefix="werewolf-poll-")
    os.environ["WEREWOLF_INSTANCE_PATH"] = instance
    from werewolf.web import create_app
    app = create_app({"SECRET_KEY": "x", "SCHEDULER": False, "TIME_SCALE": 100.0,
                      "REGISTRATION_RATE_LIMIT": "1000000 per minute",  # 18 accounts from one address
                      "ACT_RATE_LIMIT": "1000000 per minute"})  # the stream case changes a vote thousands of times
    # The app's own floor: its hooks and middleware around a view that does nothing.
    app.add_url_rule("/_bench_ping", "bench_ping", lambda: "pong")
    client_env = {"REQUEST_METHOD": "GET", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000",
                  "wsgi.url_scheme": "http", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
                  "HTTP_HOST": "127.0.0.1:8000", "HTTP_ACCEPT": "application/json",
                  "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": True,
                  "wsgi.run_once": False, "wsgi.version": (1, 0), "QUERY_STRING": ""}

    clients = []
    for i in range(18):
        c = app.test_client()
        token = c.get("/api/me").get_json()["csrf_token"]
        r = c.post("/api/auth/register", json={"name": f"p{i}", "password": "secret12"},
                   headers={"X-CSRFToken": token})
        assert r.status_code == 201, r.get_json()
        clients.append((c, r.get_json()["csrf_token"]))
    host, htok = clients[0]
    table = host.post("/api/tables", json={"name": "t"}, headers={"X-CSRFToken": htok}).get_json()["table"]
    for c, tok in clients[1:]:
        assert c.post(f"/api/tables/{table['id']}/join", headers={"X-CSRFToken": tok}).status_code == 200
    assert host.post(f"/api/tables/{table['id']}/start", headers={"X-CSRFToken": htok}).status_code == 200
    # Move to the first day, where everyone may write in the village channel.
    now = time.time()
    for _ in range(10):
        v = host.get(f"/api/tables/{table['id']}/state").get_json()
        if v["step"] and v["step"]["id"] in ("election", "debate"):
            break
        from werewolf import service
        with app.app_context():
            service.advance_due(now := now + 10_000)
    import random
    rng = random.Random(1)
    for _ in range(args.votes):  # votes cast and changed, one voter short of ending the step
        for c, tok in clients[:-1]:
            v = c.get(f"/api/tables/{table['id']}/state").get_json()
            for spec in (v["prompt"] or {}).get("actions", []):
                if spec["action"] == "election.vote":
                    c.post(f"/api/tables/{table['id']}/act", headers={"X-CSRFToken": tok},
                           json={"action": "election.vote", "target": rng.choice(spec["choices"])})
    said = 0
    for c, tok in clients:
        if said >= args.chat:
            break
        v = c.get(f"/api/tables/{table['id']}/state").get_json()
        if v["channels"]["write"] == "village":
            for _ in range(max(1, args.chat // 18 + 1)):
                if said < args.chat:
                    c.post(f"/api/tables/{table['id']}/chat", json={"channel": "village", "text": "bonjour tout le monde"},
                           headers={"X-CSRFToken": tok})
                    said += 1

    full, cond = [], []
    for c, _ in clients:
        cookie = "; ".join(f"{k.key}={k.value}" for k in c._cookies.values())
        env = {**client_env, "PATH_INFO": f"/api/tables/{table['id']}/state", "HTTP_COOKIE": cookie}
        status, headers, body = call(app, env)
        assert status.startswith("200"), status
        full.append(env)
        cond.append({**env, "HTTP_IF_NONE_MATCH": headers["ETag"]})
    status, _, body = call(app, full[0])
    assert call(app, cond[0])[0].startswith("304")

    from flask import Flask
    hello = Flask("hello")
    hello.get("/")(lambda: "Hello, World!")
    hello_env = [{**client_env, "PATH_INFO": "/"}]

    ping = [{**e, "PATH_INFO": "/_bench_ping"} for e in full]

    def uncached(environ, start_response):
        """The full view when it is not in the view cache: a view built for real."""
        from werewolf.web import view
        view.view_cache(app).clear()
        return app(environ, start_response)

    cases = {"hello": (hello, hello_env), "ping": (app, ping), "304": (app, cond), "full": (app, full),
             "built": (uncached, full)}
    streams = [app({**e, "PATH_INFO": f"/api/tables/{table['id']}/events", "wsgi.input": io.BytesIO(b"")},
                   lambda *a: None) for e in full]
    for s in streams:
        next(s), next(s)  # "retry", then the view the phone has
    ballot = [spec for spec in prompt_actions(host, table["id"]) if spec["action"] == "election.vote"][0]

    def stream_views(n: int) -> tuple[float, float, float, float]:
        """CPU per view sent on a stream: after a vote that changes every view, each stream
        looks, builds and encodes its seat's; the first look of a change (it makes every
        living seat's view) and each other one apart; and CPU per vote (its request, no view back)."""
        looking = voting = first = 0.0
        sent = votes = 0
        while sent < n:
            t0 = time.thread_time()
            host.post(f"/api/tables/{table['id']}/act", headers={"X-CSRFToken": htok},
                      json={"action": "election.vote", "target": ballot["choices"][votes % 2]})
            t1 = time.thread_time()
            for i, s in enumerate(streams):
                assert next(s).startswith(b"id: ")
                if i == 0:
                    first += time.thread_time() - t1
            looking, voting = looking + time.thread_time() - t1, voting + t1 - t0
            sent, votes = sent + len(streams), votes + 1
        others = (looking - first) / (sent - votes)
        return looking / sent * 1e6, first / votes * 1e6, others * 1e6, voting / votes * 1e6

    stream_views(180)
    if args.profile:
        target, envs = cases.get(args.profile, (None, None))
        prof = cProfile.Profile()
        prof.enable()
        stream_views(args.n) if target is None else per_request(target, envs, args.n)
        prof.disable()
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(45)
        print(s.getvalue())
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(25)
        print(s.getvalue())
    print(f"full view: {len(body)} bytes")
    for name, (target, envs) in cases.items():
        print(f"{name:>6}: {per_request(target, envs, args.n):7.0f} us CPU per request")
    per_view, first, others, per_vote = stream_views(args.n)
    print(f"stream: {per_view:7.0f} us CPU per view sent on a stream (its look, build and encoding):")
    print(f"        {first:7.0f} us the first look of a change (it makes every living seat's view), {others:.0f} us each other")
    print(f"  vote: {per_vote:7.0f} us CPU per vote (its request, through the test client)")


def prompt_actions(client, table_id: str) -> list:
    return (client.get(f"/api/tables/{table_id}/state").get_json()["prompt"] or {}).get("actions", [])


if __name__ == "__main__":
    main()
