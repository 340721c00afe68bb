"""The state poll answered on gunicorn's event loop (web/worker.py) and what it asks of the
poll gate (``PollGate.answer_from_memory``): the same 304 as the ordinary way, or nothing.

The loop must never answer what the ordinary way would answer differently: a request it
does not fully understand, another player's ETag, a table written since its read was
kept, a step whose time is up, presence waiting to be written.
"""
import collections
import time
import types
from concurrent import futures

import pytest
from gunicorn.config import Config

from tests.conftest import requires_sqlite
from werewolf.web import poll
from werewolf.web.view import Answer
from werewolf.web.worker import PollWorker, parse_get, response_bytes

BROWSER_POLL = (
    b"GET /api/tables/AbC-12_x.y~/state?since=3 HTTP/1.1\r\n"
    b"Host: werewolf.test\r\n"
    b"User-Agent: Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36\r\n"
    b"Accept: application/json\r\n"
    b"Accept-Language: fr-FR,fr;q=0.9\r\n"
    b"Accept-Encoding: gzip, deflate, br\r\n"
    b"Referer: http://werewolf.test/tables/AbC-12_x.y~\r\n"
    b"Prefer: wait=25\r\n"
    b"If-None-Match: \"abc\"\r\n"
    b"Sec-Fetch-Mode: cors\r\n"
    b"Cookie: session=s.x.y; remember_token=1:ab\xc3\xa9\r\n"
    b"Connection: keep-alive\r\n"
    b"\r\n"
)


def test_a_browsers_poll_becomes_the_environ_gunicorn_would_give():
    environ = parse_get(BROWSER_POLL)
    assert environ["REQUEST_METHOD"] == "GET"
    assert environ["PATH_INFO"] == "/api/tables/AbC-12_x.y~/state"
    assert environ["QUERY_STRING"] == "since=3"
    assert environ["SCRIPT_NAME"] == "" and environ["SERVER_PROTOCOL"] == "HTTP/1.1"
    assert environ["HTTP_HOST"] == "werewolf.test"
    assert environ["HTTP_IF_NONE_MATCH"] == '"abc"'
    assert environ["HTTP_PREFER"] == "wait=25"
    assert environ["HTTP_SEC_FETCH_MODE"] == "cors"
    # As gunicorn does (PEP 3333): the header's bytes as latin-1.
    assert environ["HTTP_COOKIE"] == "session=s.x.y; remember_token=1:ab\xc3\xa9"
    assert environ["HTTP_CONNECTION"] == "keep-alive"


def test_a_poll_without_query_or_optional_headers():
    environ = parse_get(b"GET /api/tables/t1/state HTTP/1.1\r\nHost: h\r\n\r\n")
    assert environ["PATH_INFO"] == "/api/tables/t1/state" and environ["QUERY_STRING"] == ""


def replaced(old: bytes, new: bytes) -> bytes:
    assert old in BROWSER_POLL
    return BROWSER_POLL.replace(old, new, 1)


@pytest.mark.parametrize("data", [
    pytest.param(BROWSER_POLL[:-2], id="headers not finished"),
    pytest.param(BROWSER_POLL[:40], id="request line cut"),
    pytest.param(BROWSER_POLL + BROWSER_POLL, id="two pipelined requests"),
    pytest.param(BROWSER_POLL + b"x", id="bytes after the headers"),
    pytest.param(replaced(b"HTTP/1.1", b"HTTP/1.0"), id="HTTP/1.0"),
    pytest.param(replaced(b"GET ", b"HEAD "), id="HEAD"),
    pytest.param(replaced(b"GET ", b"POST "), id="POST"),
    pytest.param(replaced(b"/state?", b"/act?"), id="another path"),
    pytest.param(replaced(b"/state?", b"/state/?"), id="a longer path"),
    pytest.param(replaced(b"/api/tables/AbC", b"/api/tables/%41bC"), id="percent-encoded path"),
    pytest.param(replaced(b"?since=3", b"?since=%33"), id="percent-encoded query"),
    pytest.param(replaced(b"GET /api", b"GET http://h/api"), id="absolute form"),
    pytest.param(replaced(b"GET /", b"GET  /"), id="two spaces"),
    pytest.param(replaced(b"\r\nHost", b"\nHost"), id="bare LF"),
    pytest.param(replaced(b"Prefer: wait=25\r\n", b"Content-Length: 0\r\n"), id="Content-Length"),
    pytest.param(replaced(b"Prefer: wait=25\r\n", b"Transfer-Encoding: chunked\r\n"), id="Transfer-Encoding"),
    pytest.param(replaced(b"Prefer: wait=25\r\n", b"Upgrade: websocket\r\n"), id="Upgrade"),
    pytest.param(replaced(b"Prefer: wait=25\r\n", b"Expect: 100-continue\r\n"), id="Expect"),
    pytest.param(replaced(b"Prefer: wait=25\r\n", b"TE: trailers\r\n"), id="TE"),
    pytest.param(replaced(b"Connection: keep-alive", b"Connection: close"), id="Connection: close"),
    pytest.param(replaced(b"Connection: keep-alive", b"Connection: Upgrade"), id="Connection: Upgrade"),
    pytest.param(replaced(b"Accept: application/json\r\n", b"Accept: a\r\naccept: b\r\n"), id="a header twice"),
    pytest.param(replaced(b"Sec-Fetch-Mode", b"Sec_Fetch_Mode"), id="underscore in a name"),
    pytest.param(replaced(b"Prefer: wait=25\r\n", b"Prefer: wait=25\r\n wait=1\r\n"), id="folded line"),
    pytest.param(replaced(b"Host: ", b"Host : "), id="space before the colon"),
    pytest.param(replaced(b"Prefer: wait=25\r\n", b"Prefer wait=25\r\n"), id="no colon"),
    pytest.param(replaced(b"wait=25", b"wait=\x0025"), id="NUL in a value"),
])
def test_anything_else_goes_the_ordinary_way(data):
    assert parse_get(data) is None


def test_the_answer_is_written_as_gunicorn_writes_a_kept_alive_response():
    answer = Answer("304 NOT MODIFIED", [("ETag", '"e1"'), ("Vary", "Cookie")], b"")
    data = response_bytes(answer, "Thu, 03 Dec 2026 07:00:00 GMT")
    assert data == (b"HTTP/1.1 304 NOT MODIFIED\r\nServer: gunicorn\r\n"
                    b"Date: Thu, 03 Dec 2026 07:00:00 GMT\r\nConnection: keep-alive\r\n"
                    b'ETag: "e1"\r\nVary: Cookie\r\n\r\n')
    body = response_bytes(Answer("200 OK", [("Content-Length", "2")], b"{}"), "d")
    assert body.endswith(b"Content-Length: 2\r\n\r\n{}")


def worker_config(**settings) -> Config:
    cfg = Config()
    for name, value in settings.items():
        cfg.set(name, value)
    return cfg


def test_the_loop_answers_only_where_gunicorn_would_answer_as_it_does(monkeypatch, tmp_path):
    monkeypatch.delenv("SCRIPT_NAME", raising=False)
    assert PollWorker.plain(worker_config())
    assert not PollWorker.plain(worker_config(accesslog="-"))  # a line per request: the pool's way
    assert not PollWorker.plain(worker_config(pre_request=lambda worker, req: None))
    assert not PollWorker.plain(worker_config(post_request=lambda worker, req, environ, resp: None))
    assert not PollWorker.plain(worker_config(raw_env=["SCRIPT_NAME=/loups"]))
    certificate = tmp_path / "cert.pem"
    certificate.write_text("")
    assert not PollWorker.plain(worker_config(certfile=str(certificate), keyfile=str(certificate)))
    monkeypatch.setenv("SCRIPT_NAME", "/loups")
    assert not PollWorker.plain(worker_config())


# ---------------------------------------------------------------- the poll gate's side
# What it answers comes from the table's read kept by PollReads, which needs SQLite's board
# of changes; on PostgreSQL it declines every poll (the last test).

def raw_poll(table_id: str, player, etag: str | None) -> dict:
    cookies = "; ".join(f"{c.key}={c.value}" for c in player.client._cookies.values())
    lines = [f"GET /api/tables/{table_id}/state HTTP/1.1", "Host: werewolf.test", f"Cookie: {cookies}"]
    if etag is not None:
        lines.append(f"If-None-Match: {etag}")
    environ = parse_get(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    assert environ is not None
    environ["wsgi.url_scheme"] = "http"
    return environ


@pytest.fixture
def started(make_table):
    """A running game whose every player has polled: each one's ETag in ``etags``."""
    table = make_table(6).start()
    table.etags = {seat: p.state_response(table.id).headers["ETag"] for seat, p in table.seats.items()}
    return table


def from_memory(table, environ) -> Answer | None:
    return table.app.extensions["werewolf.poll_gate"].answer_from_memory(environ)


@requires_sqlite
def test_the_304_from_memory_is_the_ordinary_304(started):
    for seat, player in started.seats.items():
        ordinary = player.state_response(started.id, started.etags[seat])
        assert ordinary.status_code == 304
        answer = from_memory(started, raw_poll(started.id, player, started.etags[seat]))
        assert answer is not None and answer.status == ordinary.status
        assert answer.headers == list(ordinary.headers) and answer.body == b""


@requires_sqlite
def test_nothing_from_memory_for_another_players_etag_or_no_login(started):
    one, other = started.seats[1], started.seats[2]
    assert from_memory(started, raw_poll(started.id, one, started.etags[1])) is not None
    assert from_memory(started, raw_poll(started.id, one, started.etags[2])) is None
    assert from_memory(started, raw_poll(started.id, other, started.etags[1])) is None
    assert from_memory(started, raw_poll(started.id, one, None)) is None  # a view to send
    anonymous = raw_poll(started.id, one, started.etags[1])
    del anonymous["HTTP_COOKIE"]
    assert from_memory(started, anonymous) is None
    assert from_memory(started, raw_poll("nosuchtable", one, started.etags[1])) is None


@requires_sqlite
def test_nothing_from_memory_once_the_kept_read_is_old_or_the_table_written(started):
    player, etag = started.seats[1], started.etags[1]
    started.clock.advance(poll.PollReads.TTL)
    assert from_memory(started, raw_poll(started.id, player, etag)) is None
    assert player.state_response(started.id, etag).status_code == 304  # read again, and kept
    assert from_memory(started, raw_poll(started.id, player, etag)) is not None
    poll.poll_reads(started.app).board.bump([started.id])  # as every write to the table does
    assert from_memory(started, raw_poll(started.id, player, etag)) is None


def test_nothing_from_memory_without_a_board_of_changes(started):
    """PostgreSQL has none (store.change_board): every poll reads the database."""
    poll.poll_reads(started.app).board = None
    assert from_memory(started, raw_poll(started.id, started.seats[1], started.etags[1])) is None


@requires_sqlite
def test_nothing_from_memory_when_the_steps_time_is_up(started):
    player = started.seats[1]
    seconds_left = player.state(started.id)["step"]["seconds_left"]
    started.clock.advance(seconds_left - 0.3)
    etag = player.state_response(started.id).headers["ETag"]  # read kept just before the deadline
    assert from_memory(started, raw_poll(started.id, player, etag)) is not None
    started.clock.advance(0.5)  # the read is still fresh, but the step must end: the pool's way
    assert from_memory(started, raw_poll(started.id, player, etag)) is None
    assert player.state_response(started.id, etag).status_code == 200  # the next step


@requires_sqlite
def test_nothing_from_memory_while_presence_waits_to_be_written(started, monkeypatch):
    player, etag = started.seats[1], started.etags[1]
    monkeypatch.setattr(poll.Presence, "FLUSH_EVERY", 0.0)
    with started.app.app_context():
        poll.presence(started.app).note(12345, started.clock())
    assert from_memory(started, raw_poll(started.id, player, etag)) is None


# ---------------------------------------------------------------- the loop's bookkeeping
# A worker without a process: only the parts of gthread that answering on the loop uses.

class FakeSocket:
    def __init__(self, accepts: int | None):
        self.accepts, self.sent, self.blocking, self.closed = accepts, b"", False, False

    def send(self, data: bytes) -> int:
        if self.accepts is None:
            raise BrokenPipeError
        taken = data[:self.accepts]
        self.sent += taken
        return len(taken)

    def sendall(self, data: bytes) -> None:
        self.sent += data

    def setblocking(self, flag: bool) -> None:
        self.blocking = flag


class FakeConnection:
    def __init__(self, accepts: int | None = 1 << 20, timeout: float = 0.0, renewed: bool = False):
        self.sock, self.client, self.timeout, self.renewed = FakeSocket(accepts), ("127.0.0.1", 4242), timeout, renewed
        self.closed = False

    def close(self):
        self.closed = True


@pytest.fixture
def loop_worker():
    worker = PollWorker.__new__(PollWorker)
    worker.nr, worker.max_requests, worker.answered_on_loop, worker.nr_conns = 0, 1000, 0, 1
    worker.max_keepalived, worker.keepalived_conns = 10, collections.deque()
    worker.answer = Answer("304 NOT MODIFIED", [("ETag", '"e"')], b"")
    worker._answer = lambda environ: worker.answer
    worker._date = lambda: "Thu, 03 Dec 2026 07:00:00 GMT"
    worker.cfg = types.SimpleNamespace(keepalive=5)
    worker.unregistered, worker.finished = [], []
    worker.poller = types.SimpleNamespace(unregister=worker.unregistered.append)
    worker.tpool = futures.ThreadPoolExecutor(1)
    worker.method_queue = types.SimpleNamespace(defer=lambda method, *args: method(*args))
    worker.finish_request = lambda conn, future: worker.finished.append((conn, future.result()))
    yield worker
    worker.tpool.shutdown(wait=True)


POLL = b"GET /api/tables/t1/state HTTP/1.1\r\nHost: h\r\nIf-None-Match: \"e\"\r\n\r\n"


def test_an_answer_on_the_loop_is_counted_sent_and_renews_the_connection(loop_worker):
    conn = FakeConnection()
    loop_worker.keepalived_conns.append(conn)
    before = time.monotonic()
    assert loop_worker._answered(conn, POLL)
    assert conn.sock.sent == response_bytes(loop_worker.answer, loop_worker._date())
    assert (loop_worker.nr, loop_worker.answered_on_loop) == (1, 1)
    assert conn.renewed and before + 5 <= conn.timeout <= time.monotonic() + 5
    assert list(loop_worker.keepalived_conns) == [conn] and not loop_worker.unregistered


def test_what_the_socket_does_not_take_a_pool_thread_sends_then_the_loop_gets_it_back(loop_worker):
    conn = FakeConnection(accepts=10)
    loop_worker.keepalived_conns.append(conn)
    assert loop_worker._answered(conn, POLL)
    loop_worker.tpool.shutdown(wait=True)
    assert conn.sock.sent == response_bytes(loop_worker.answer, loop_worker._date()) and conn.sock.blocking
    assert loop_worker.unregistered == [conn.sock] and not loop_worker.keepalived_conns
    assert loop_worker.finished == [(conn, True)]  # gthread's finish_request: back on the poller


def test_a_connection_that_fails_on_sending_is_closed(loop_worker):
    conn = FakeConnection(accepts=None)
    loop_worker.keepalived_conns.append(conn)
    assert loop_worker._answered(conn, POLL)
    assert conn.closed and not loop_worker.keepalived_conns and loop_worker.nr_conns == 0


def test_the_loop_leaves_to_the_pool_what_gthread_must_count_or_answer(loop_worker):
    conn = FakeConnection()
    assert not loop_worker._answered(conn, POLL.replace(b"GET", b"PUT"))
    loop_worker.nr = loop_worker.max_requests - 1  # the last request: gthread restarts the worker
    assert not loop_worker._answered(conn, POLL)
    loop_worker.nr = 0
    loop_worker.keepalived_conns.extend(FakeConnection() for _ in range(11))  # over max_keepalived
    assert not loop_worker._answered(conn, POLL)
    loop_worker.keepalived_conns.clear()
    loop_worker.answer = None  # the gate declines
    assert not loop_worker._answered(conn, POLL)
    assert loop_worker.nr == 0 and conn.sock.sent == b""


def test_a_renewed_connection_does_not_shield_the_expired_ones_behind_it(loop_worker):
    now = time.monotonic()
    renewed, expired, alive = (FakeConnection(timeout=now + 5, renewed=True), FakeConnection(timeout=now - 1),
                               FakeConnection(timeout=now + 1))
    loop_worker.keepalived_conns.extend([renewed, expired, alive])
    loop_worker.nr_conns = 3
    loop_worker.murder_keepalived()
    assert expired.closed and not renewed.closed and not alive.closed
    assert list(loop_worker.keepalived_conns) == [alive, renewed] and not renewed.renewed
