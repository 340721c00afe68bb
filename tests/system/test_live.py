"""Live across servers: two gunicorn instances over one database (PostgreSQL with
``./scripts/test-postgres tests/system/test_live.py``: LISTEN/NOTIFY; SQLite: the change
board beside the file), a phone waiting on one sees a vote cast on the other at once."""
import json
import os
import signal
import threading
import time

import requests

from tests.system.test_processes import seat_table, server_factory, wait_for_step  # noqa: F401 (a fixture)

WITHIN = 0.5  # seconds from the vote's answer to the waiting phone's
VOTE_OPEN = 50.0  # seconds the vote stays open for a test


def table_at_its_vote(server, prefix: str):
    """(table id, seats, a view, the living seats) of six players once day 1's vote is open:
    the steps before it short, the vote long."""
    limits = {step: 30 for step in ("cupid", "seer", "werewolves", "witch", "hunter", "succession",
                                    "tiebreak", "election", "dawn", "debate")}
    limits["vote"] = round(VOTE_OPEN / server.time_scale)
    table_id, seats = seat_table(server, 6, {"limits": limits, "captain": False}, prefix=prefix)
    view = wait_for_step(seats[1], table_id, "vote")
    return table_id, seats, view, [p["seat"] for p in view["players"] if p["alive"]]


def two_servers_at_a_vote(server_factory, prefix: str):  # noqa: F811
    """(server b, table id, the vote's view, the living seats, a voter on a, a watcher on b,
    the watcher's first answer on b): two servers over one database, a table at its vote."""
    a, b = (server_factory(workers=2, time_scale=0.02, name=name) for name in ("a", "b"))
    a.start()
    b.start()
    table_id, seats, view, living = table_at_its_vote(a, prefix)
    voter, watcher = seats[living[0]], seats[living[1]]
    watcher.server = b  # the same session, on the other server
    first = watcher.call("GET", f"/api/tables/{table_id}/state")
    assert first.status_code == 200 and first.json()["step"]["id"] == "vote"
    return b, table_id, view, living, voter, watcher, first


def test_a_vote_cast_on_one_server_wakes_a_phone_waiting_on_the_other(server_factory):  # noqa: F811
    b, table_id, view, living, voter, watcher, first = two_servers_at_a_vote(server_factory, "L")
    answered = {}

    def wait_on_b():
        started = time.monotonic()
        answered["response"] = watcher.session.get(
            b.url + f"/api/tables/{table_id}/state", timeout=30,
            headers={"If-None-Match": first.headers["ETag"], "Prefer": "wait=20"})
        answered["at"], answered["held"] = time.monotonic(), time.monotonic() - started

    waiting = threading.Thread(target=wait_on_b)
    waiting.start()
    time.sleep(0.3)  # the poll reaches b and waits there
    assert not answered, "the poll was not held"
    vote = voter.call("POST", f"/api/tables/{table_id}/act",
                      {"action": "vote.cast", "target": living[2], "step": view["step"]["seq"]})
    voted_at = time.monotonic()
    assert vote.status_code == 200, vote.text
    waiting.join(timeout=25)
    response = answered["response"]
    assert response.status_code == 200 and response.headers["Preference-Applied"] == "wait=10"  # capped (web/poll.py)
    assert response.json()["votes"] != first.json()["votes"]
    assert answered["at"] - voted_at < WITHIN, answered["at"] - voted_at



def test_a_vote_cast_on_one_server_is_streamed_to_a_phone_on_the_other(server_factory):  # noqa: F811
    """The page's way: a stream (GET /api/tables/<id>/events) open on b, a vote cast on a."""
    b, table_id, view, living, voter, watcher, first = two_servers_at_a_vote(server_factory, "S")
    events: list[tuple[float, bytes]] = []

    def stream_on_b():
        with watcher.session.get(b.url + f"/api/tables/{table_id}/events", stream=True, timeout=30,
                                 headers={"Last-Event-ID": first.headers["ETag"].strip('"')}) as response:
            assert response.status_code == 200
            pending = b""
            for chunk in response.iter_content(chunk_size=None):
                *whole, pending = (pending + chunk).split(b"\n\n")
                events.extend((time.monotonic(), event) for event in whole)
                if any(b"event: state" in event for _, event in events):
                    return

    listening = threading.Thread(target=stream_on_b)
    listening.start()
    time.sleep(0.3)  # the stream is open on b and waits there
    assert [e for _, e in events if b"event: state" in e] == []  # it had this view: nothing but the retry yet
    vote = voter.call("POST", f"/api/tables/{table_id}/act",
                      {"action": "vote.cast", "target": living[2], "step": view["step"]["seq"]})
    voted_at = time.monotonic()
    assert vote.status_code == 200, vote.text
    listening.join(timeout=25)
    at, event = next((at, e) for at, e in events if b"event: state" in e)
    assert at - voted_at < WITHIN, at - voted_at
    data = json.loads(event.split(b"data: ", 1)[1])
    assert data["votes"] != first.json()["votes"]
    fresh = watcher.call("GET", f"/api/tables/{table_id}/state").json()
    # the step's clock counted down between the two (49.7 s, then 49.6 in a CI run)
    assert 0 <= data["step"].pop("seconds_left") - fresh["step"].pop("seconds_left") < 2
    assert data == fresh


def test_a_stop_ends_the_streams_at_once_rather_than_at_the_graceful_timeout(server_factory):  # noqa: F811
    """SIGTERM (a stop, a restart): the worker's streams end now and it stops, rather than
    after graceful_timeout (30 s here); the browser reconnects to the next server. (An idle
    kept-alive connection still holds a stop up to graceful_timeout: this phone keeps none.)"""
    server = server_factory(workers=1, time_scale=0.02, options=("--graceful-timeout", "30"))
    server.start()
    table_id, seats, view, living = table_at_its_vote(server, "T")
    for seat in seats.values():
        seat.session.close()  # their kept-alive connections: each would hold the stop
    ended = []

    def stream():
        with seats[living[0]].session.get(server.url + f"/api/tables/{table_id}/events", stream=True,
                                          timeout=60, headers={"Connection": "close"}) as response:
            assert response.status_code == 200
            for _ in response.iter_content(chunk_size=None):
                pass
        ended.append(time.monotonic())

    listening = threading.Thread(target=stream)
    listening.start()
    time.sleep(0.3)  # the stream is open and waits
    stopped_at = time.monotonic()
    os.killpg(server.proc.pid, signal.SIGTERM)
    server.proc.wait(timeout=40)
    exited_at = time.monotonic()
    listening.join(timeout=30)
    assert ended and ended[0] - stopped_at < 3, ended
    assert exited_at - stopped_at < 5, exited_at - stopped_at


MANY = 300  # waiting phones on one worker: more than a thread per phone would make cheap


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _established_to(port: int) -> int:
    """Connections the server's side holds open on ``port`` (the kernel's table)."""
    count = 0
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(path).read().splitlines()[1:]
        except OSError:
            continue
        count += sum(1 for line in lines
                     if line.split()[3] == "01" and int(line.split()[1].rsplit(":", 1)[1], 16) == port)
    return count


def test_many_phones_wait_on_one_worker_without_a_thread_each_and_all_wake(server_factory):  # noqa: F811
    """gunicorn.conf.py's gevent worker: a held poll is a greenlet, not a thread. MANY polls
    held on one worker leave it with a handful of threads, an act is answered meanwhile,
    and one vote wakes them all."""
    server = server_factory(workers=1, time_scale=0.02, name="one")
    server.start()
    table_id, seats, view, living = table_at_its_vote(server, "M")
    firsts = {seat: seats[seat].call("GET", f"/api/tables/{table_id}/state") for seat in living}
    answers: dict[int, tuple] = {}

    def wait(i: int):
        seat = living[i % len(living)]
        response = requests.get(server.url + f"/api/tables/{table_id}/state", timeout=60,
                                cookies=seats[seat].session.cookies,
                                headers={"If-None-Match": firsts[seat].headers["ETag"], "Prefer": "wait=10"})
        answers[i] = (time.monotonic(), response.status_code, response.headers.get("Preference-Applied"))

    waiting = [threading.Thread(target=wait, args=(i,)) for i in range(MANY)]
    for thread in waiting:
        thread.start()
    deadline = time.monotonic() + 30
    while _established_to(server.port) < MANY and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # the last requests read and held
    assert not answers, f"{len(answers)} polls were not held"
    [worker] = _children(server.proc.pid)
    threads = len(os.listdir(f"/proc/{worker}/task"))
    assert threads < 40, f"the worker runs {threads} threads for {MANY} waiting polls"
    started = time.monotonic()
    vote = seats[living[0]].call("POST", f"/api/tables/{table_id}/act",
                                 {"action": "vote.cast", "target": living[1], "step": view["step"]["seq"]})
    voted_at = time.monotonic()
    assert vote.status_code == 200, vote.text
    assert voted_at - started < 2.0, f"an act took {voted_at - started:.2f} s beside {MANY} waiting polls"
    for thread in waiting:
        thread.join(timeout=30)
    assert len(answers) == MANY
    assert {status for _, status, _ in answers.values()} == {200}
    assert {applied for _, _, applied in answers.values()} == {"wait=10"}
    last = max(at for at, _, _ in answers.values()) - voted_at
    assert last < 3.0, f"the last waiting phone was answered {last:.2f} s after the vote"
