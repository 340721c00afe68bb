"""gunicorn.conf.py's worker (web/worker.py) in a real gunicorn: the state polls its event
loop answers are the polls the pool would answer, byte for byte but the Date, and its
kept-alive connections live and end as gunicorn's own.
"""
import http.client
import re
import socket
import time

import pytest

from tests.conftest import TEST_DATABASE_URI, empty_test_database
from tests.system.test_processes import Server, seat_table

KEEPALIVE = 2  # seconds: gunicorn's --keep-alive in these tests, short to see it end
# PostgreSQL has no board of changes, so no table's read is kept (PollReads.kept): every
# poll reads the database, on a pool thread, and the loop answers none.
LOOP_ANSWERS = not TEST_DATABASE_URI


@pytest.fixture
def table(tmp_path):
    """One worker, two pool threads, a running game of 6: (server, table id, seats)."""
    server = Server(tmp_path, 1, 1.0, empty_test_database(tmp_path),
                    options=("--threads", "2", "--keep-alive", str(KEEPALIVE)))
    try:
        server.start()
        table_id, seats = seat_table(server, 6, {})
        yield server, table_id, seats
    finally:
        server.stop()
    assert not server.logged_errors(), server.logged_errors()[0]


def cookie_of(player) -> str:
    return "; ".join(f"{name}={value}" for name, value in player.session.cookies.items())


def poll(connection: http.client.HTTPConnection, table_id: str, player, etag: str | None = None,
         twice: tuple[str, ...] = ()) -> http.client.HTTPResponse:
    """A state poll as the page sends it; ``twice``: headers sent two times (the pool's way)."""
    connection.putrequest("GET", f"/api/tables/{table_id}/state")
    connection.putheader("Cookie", cookie_of(player))
    connection.putheader("Prefer", "wait=25")
    if etag is not None:
        connection.putheader("If-None-Match", etag)
    for name in twice:
        connection.putheader(name, "*/*")
        connection.putheader(name, "*/*")
    connection.endheaders()
    response = connection.getresponse()
    response.read()
    return response


def headers_but_date(response: http.client.HTTPResponse) -> list[tuple[str, str]]:
    return [(name, value) for name, value in response.getheaders() if name != "Date"]


def loop_answers(server: Server) -> tuple[int, int]:
    """(answered on the event loop, all requests) of the worker, from its last words."""
    server.stop()
    found = re.findall(r"answered (\d+) of its (\d+) requests on its event loop", server.log_path(0).read_text())
    assert len(found) == 1, server.log_path(0).read_text()[-2000:]
    return int(found[0][0]), int(found[0][1])


def test_the_loops_304_is_the_pools_and_another_player_gets_only_their_own_view(table):
    server, table_id, seats = table
    one, other = seats[1], seats[2]
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    first = poll(connection, table_id, one)
    assert first.status == 200
    etag = first.getheader("ETag")
    from_loop = [poll(connection, table_id, one, etag) for _ in range(20)]
    from_pool = poll(connection, table_id, one, etag, twice=("Accept",))
    assert {r.status for r in from_loop} == {from_pool.status} == {304}
    assert all(headers_but_date(r) == headers_but_date(from_pool) for r in from_loop)
    assert "Cookie" in from_pool.getheader("Vary") and from_pool.getheader("Content-Length") is None

    # Seat 1's ETag with seat 2's cookie: seat 2's own view, never a 304 that would keep
    # seat 2's phone on what it shows (and tell it what seat 1 sees has not changed).
    theirs = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    poll(theirs, table_id, other)
    for _ in range(3):
        answer = poll(theirs, table_id, other, etag)
        assert answer.status == 200 and answer.getheader("ETag") != etag
    anonymous = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    anonymous.request("GET", f"/api/tables/{table_id}/state", headers={"If-None-Match": etag})
    assert anonymous.getresponse().status == 401

    on_loop, requests = loop_answers(server)
    # Each of the 20 polls came within a second of the table's last read (PollReads.TTL),
    # unless this machine stalled: then the pool answered it, which is right too.
    assert (10 <= on_loop <= 20 if LOOP_ANSWERS else on_loop == 0) and requests > on_loop


def test_a_connection_answered_on_the_loop_stays_alive_while_used_and_ends_when_idle(table):
    server, table_id, seats = table
    one, other = seats[1], seats[2]
    refresher = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    etag = poll(connection, table_id, one).getheader("ETag")
    other_etag = poll(refresher, table_id, other).getheader("ETag")
    used = connection.sock
    started = time.monotonic()
    while time.monotonic() - started < 2.5 * KEEPALIVE:  # longer than the first keep-alive
        poll(refresher, table_id, other, other_etag)  # the table's read kept fresh: the loop answers
        assert poll(connection, table_id, one, etag).status == 304
        assert connection.sock is used  # never closed and opened again
        time.sleep(KEEPALIVE / 4)

    used.settimeout(KEEPALIVE + 3)
    idle_since = time.monotonic()
    try:
        assert used.recv(1) == b""  # closed by the server
    except ConnectionResetError:
        pass
    assert KEEPALIVE - 0.5 <= time.monotonic() - idle_since < KEEPALIVE + 2.5
    on_loop, _ = loop_answers(server)
    assert on_loop >= 5 if LOOP_ANSWERS else on_loop == 0


def test_the_loop_leaves_a_poll_in_pieces_to_gunicorns_parser(table):
    server, table_id, seats = table
    one = seats[1]
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    etag = poll(connection, table_id, one).getheader("ETag")
    request = (f"GET /api/tables/{table_id}/state HTTP/1.1\r\nHost: x\r\nCookie: {cookie_of(one)}\r\n"
               f"If-None-Match: {etag}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
        for piece in (request[:30], request[30:]):
            raw.sendall(piece)
            time.sleep(0.05)
        assert raw.recv(65536).startswith(b"HTTP/1.1 304 ")
        raw.sendall(request + request)  # two at once, pipelined: both answered, in order
        received = b""
        while received.count(b"HTTP/1.1 304 ") < 2:
            chunk = raw.recv(65536)
            assert chunk, received
            received += chunk
