"""A player's views as Server-Sent Events: ``GET /api/tables/<id>/events`` (web/poll.stream, API.md).

The stream runs in the test's own thread: each ``next`` reads one event, waiting for the
table's next change as the server does (a change made before the read is found at once).
"""
import json
import threading
import time

import pytest

from tests.conftest import requires_sqlite
from tests.web.test_held_polls import seats_by_role
from tests.web.test_poll_reads import connected, signed_in
from tests.web.test_screen import screen_of
from werewolf.web import poll

pytestmark = requires_sqlite


@pytest.fixture
def app(make_app):
    return make_app(HELD_POLLS=100)


@pytest.fixture
def rare_looks(monkeypatch):
    """A stream looks again, and beats, only every 20 s: one that sends within 10 s was woken
    (or stopped), however slow the machine (these tests run beside the browser tests)."""
    monkeypatch.setattr(poll, "RECHECK_EVERY", 20.0)
    monkeypatch.setattr(poll, "HEARTBEAT", 20.0)


class Stream:
    """One open stream; ``next()`` is its next event as {"id", "event", "data"}."""

    def __init__(self, client, path: str, last_event_id: str | None = None):
        headers = {"Accept": "text/event-stream"}
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        self.response = client.get(path, headers=headers, buffered=False)
        assert self.response.status_code == 200, self.response.get_data()
        assert self.response.mimetype == "text/event-stream"
        self._chunks = iter(self.response.response)
        assert next(self._chunks) == b"retry: 1000\n\n"

    def next(self) -> dict:
        started = time.monotonic()
        chunk = next(self._chunks)
        self.seconds = time.monotonic() - started
        assert chunk.endswith(b"\n\n") and b"\n\n" not in chunk[:-2], chunk  # one whole event
        return dict(line.split(b": ", 1) for line in chunk[:-2].split(b"\n"))

    def close(self):
        self.response.close()


def seat_stream(player, table_id: str, last_event_id: str | None = None) -> Stream:
    return Stream(player.client, f"/api/tables/{table_id}/events", last_event_id)


def etag_of(player, table_id: str) -> str:
    return player.state_response(table_id).headers["ETag"].strip('"')


def test_a_stream_first_sends_the_view_the_poll_answers_with_its_etag_as_id(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    polled = alice.state_response(table.id)
    stream = seat_stream(alice, table.id)
    event = stream.next()
    assert event[b"event"] == b"state"
    assert event[b"id"].decode() == polled.headers["ETag"].strip('"')
    assert event[b"data"] == polled.get_data().rstrip(b"\n")
    stream.close()
    assert poll.holding(table.app).held == 0  # its place is given back


def test_a_stream_sends_the_players_next_view_as_soon_as_it_changes(make_table, rare_looks):
    table = make_table(6).start()
    wolf, other = seats_by_role(table)
    player = table.seats[other]
    stream = seat_stream(player, table.id, etag_of(player, table.id))  # reconnecting: it has this view

    def move_on():  # while the stream waits
        table.finish_step()
        table.host.state(table.id)  # the host's poll moves the game on, then notes the host is back
    mover = threading.Timer(0.2, move_on)
    mover.start()
    event = stream.next()
    assert event[b"event"] == b"state" and stream.seconds < 10  # woken, not found later
    mover.join()
    for _ in range(2):  # woken between the move and the host's presence: the view as it is now follows
        if event[b"id"].decode() == etag_of(player, table.id):
            break
        event = stream.next()
        assert stream.seconds < 10
    assert event[b"id"].decode() == etag_of(player, table.id)
    assert event[b"data"] == player.state_response(table.id).get_data().rstrip(b"\n")
    stream.close()


def test_a_stream_in_the_waiting_room_sends_the_table_as_it_fills(make_table, make_player):
    """The table part changes with the seats: made anew in a stream's step, with the host's
    links for the request's host, as the poll makes it."""
    table = make_table(3)
    streams = {who: seat_stream(p, table.id, etag_of(p, table.id)) for who, p in (("host", table.host),
                                                                           ("guest", table.players[1]))}
    assert make_player().join(table.id).status_code == 200
    for who, stream in streams.items():
        event = stream.next()
        player = table.host if who == "host" else table.players[1]
        assert event[b"data"] == player.state_response(table.id).get_data().rstrip(b"\n")
        part = json.loads(event[b"data"])["table"]
        assert part["seated"] == 4 and part["url"].startswith("http://")
        assert ("screen_url" in part) == (who == "host")
        stream.close()


def test_a_stream_with_nothing_new_beats_but_only_requests_show_its_player_connected(make_table, clock, monkeypatch):
    """A phone gone silent may keep its stream open (writes to it still succeed): only the
    page's requests show its player is there, as with polls (the page polls every 10 s)."""
    monkeypatch.setattr(poll, "HEARTBEAT", 0.05)
    monkeypatch.setattr(poll, "RECHECK_EVERY", 0.05)
    table = make_table(6).start(limits={"night": 3600, "werewolves": 3600})
    (alice_seat, alice), (bruno_seat, bruno) = list(table.seats.items())[:2]
    stream = seat_stream(alice, table.id, etag_of(alice, table.id))
    clock.advance(15)  # everybody polled 15 s ago: still shown connected
    assert stream.next()[b"event"] == b"beat"
    clock.advance(10)  # 25 s since anyone but Bruno asked anything
    assert connected(bruno.state(table.id)) == {bruno_seat}
    assert alice.state_response(table.id).status_code == 200  # the page's own poll
    clock.advance(poll.Presence.FLUSH_EVERY)
    bruno.state(table.id)  # writes Alice's presence, after its own (kept) read
    assert connected(bruno.state(table.id)) == {alice_seat, bruno_seat}
    stream.close()


def test_a_stream_is_refused_as_the_poll_is(make_table, make_player):
    table = make_table(6).start()
    outsider = make_player()
    assert outsider.client.get(f"/api/tables/{table.id}/events").status_code == 403
    assert outsider.client.get("/api/tables/nope/events").status_code == 404
    anonymous = table.app.test_client().get(f"/api/tables/{table.id}/events")
    assert anonymous.status_code == 401
    assert anonymous.get_json()["error"]["code"] == "login_required"
    assert poll.holding(table.app).held == 0


def test_a_signed_out_session_ends_its_stream(make_table, monkeypatch):
    monkeypatch.setattr(poll, "RECHECK_EVERY", 0.05)
    table = make_table(6).start()
    alice = table.players[0]
    stream = seat_stream(alice, table.id, etag_of(alice, table.id))
    copy = signed_in(table.app, alice)  # the same account, another session, changes the password
    changed = copy.post("/api/auth/password", {"old_password": alice.password, "new_password": "Autre lune 77"})
    assert changed.status_code == 200, changed.get_json()
    with pytest.raises(StopIteration):
        stream.next()
    assert poll.holding(table.app).held == 0


def test_a_stopping_worker_ends_its_streams_at_once(make_table, monkeypatch, rare_looks):
    monkeypatch.setattr(poll, "_stopping", False)  # stopped for this test only
    table = make_table(6).start()
    alice = table.players[0]
    stream = seat_stream(alice, table.id, etag_of(alice, table.id))  # nothing new to send
    threading.Timer(0.2, poll.stop_holding).start()
    started = time.monotonic()
    with pytest.raises(StopIteration):
        stream.next()
    assert time.monotonic() - started < 10  # at the stop, not at the heartbeat
    assert poll.holding(table.app).held == 0


def test_streams_beyond_the_limit_are_refused_and_the_page_polls(make_app, make_table):
    table = make_table(6).start()
    limited = make_app(HELD_POLLS=1)
    a, b = (signed_in(limited, p) for p in table.players[:2])
    first = seat_stream(a, table.id)
    refused = b.client.get(f"/api/tables/{table.id}/events")
    assert refused.status_code == 503
    assert refused.get_json()["error"]["code"] == "too_busy"
    first.close()
    seat_stream(b, table.id).close()  # the place given back is taken


def test_a_wolves_message_at_night_sends_every_living_seat_one_event_of_one_size(make_table):
    table = make_table(8).start()
    wolf, _ = seats_by_role(table)
    roles = {seat: view["me"]["role"] for seat, view in table.views().items()}
    streams = {seat: seat_stream(p, table.id, etag_of(p, table.id)) for seat, p in table.seats.items()}
    said = table.seats[wolf].chat(table.id, "werewolves", "on mange qui ?")
    assert said.status_code == 201, said.get_json()
    events = {seat: s.next() for seat, s in streams.items()}
    assert {e[b"event"] for e in events.values()} == {b"state"}
    assert len({len(e[b"data"]) for e in events.values()}) == 1, {s: len(e[b"data"]) for s, e in events.items()}
    assert len({len(e[b"id"]) for e in events.values()}) == 1
    assert {seat for seat, e in events.items() if b"on mange qui" in e[b"data"]} == \
        {seat for seat, role in roles.items() if role == "werewolf"}
    for s in streams.values():
        s.close()


def test_the_room_s_screen_streams_the_public_view_until_its_key_is_renewed(app, make_table):
    table = make_table(6).start()
    _, key = screen_of(table)
    screen = app.test_client()  # no account
    poll_path = f"/api/tables/{table.id}/screen?key={key}"
    stream = Stream(screen, f"/api/tables/{table.id}/screen/events?key={key}")
    first = stream.next()
    polled = screen.get(poll_path)
    assert first[b"data"] == polled.get_data().rstrip(b"\n") and json.loads(first[b"data"])["me"] is None
    assert first[b"id"].decode() == polled.headers["ETag"].strip('"')
    table.finish_step()
    table.host.state(table.id)  # the host's poll moves the game on
    moved = stream.next()
    assert moved[b"event"] == b"state" and moved[b"data"] == screen.get(poll_path).get_data().rstrip(b"\n")
    assert table.host.post(f"/api/tables/{table.id}/screen-link").status_code == 200
    table.host.chat(table.id, "village", "le lien de l'écran a changé")  # a change wakes the stream
    with pytest.raises(StopIteration):
        stream.next()  # the renewed key ends it
    assert screen.get(poll_path).status_code == 404
    assert screen.get(f"/api/tables/{table.id}/screen/events?key={key}").status_code == 404
    assert screen.get(f"/api/tables/{table.id}/screen/events?key=nope").status_code == 404
