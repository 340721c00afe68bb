"""Polls held until the player's view changes: ``Prefer: wait=N`` (web/poll.answer, API.md).

A held poll waits in real time (its thread sleeps until the table's change is told,
changes.py), so the waits here are short; the apps' clocks move only when a test moves them.
"""
import gc
import runpy
import signal
import threading
import time
import weakref
from pathlib import Path

import pytest

from tests.conftest import requires_sqlite
from tests.web.test_poll_reads import signed_in
from werewolf import changes
from werewolf.extensions import db
from werewolf.web import poll, view

pytestmark = requires_sqlite


@pytest.fixture
def app(make_app):
    """A server that holds up to 100 polls (WEREWOLF_HELD_POLLS)."""
    return make_app(HELD_POLLS=100)


@pytest.fixture(autouse=True)
def no_recheck_within_a_wait(monkeypatch):
    """A held poll looks again every RECHECK_EVERY, change or not: moved past the longest
    wait, a poll answered before its wait's end was woken, however slow the machine (these
    tests run beside the browser tests, at the lowest CPU weight). A test may set it shorter."""
    monkeypatch.setattr(poll, "RECHECK_EVERY", poll.MAX_WAIT + 1)


def held_poll(player, table_id: str, etag: str, wait: int):
    return player.client.get(f"/api/tables/{table_id}/state",
                             headers={"If-None-Match": etag, "Prefer": f"wait={wait}"})


class InThread:
    """A request run in a thread, with the real time it took."""

    def __init__(self, call):
        self.response = None
        self.seconds = None

        def run():
            started = time.monotonic()
            self.response = call()
            self.seconds = time.monotonic() - started

        self._thread = threading.Thread(target=run)
        self._thread.start()

    def result(self):
        self._thread.join(timeout=30)
        assert not self._thread.is_alive(), "the held poll never answered"
        return self.response


def wait_until_held(app, count: int = 1):
    holding = poll.holding(app)
    deadline = time.monotonic() + poll.MAX_WAIT  # a thread's first request, on a starved machine
    while time.monotonic() < deadline:
        if holding.held >= count:
            return
        time.sleep(0.01)
    raise AssertionError(f"{holding.held} polls held, expected {count}")


def seats_by_role(table) -> tuple[int, int]:
    """(a werewolf's seat, a seat that is neither a werewolf nor the first step's actor)."""
    views = table.views()
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    other = next(s for s, v in views.items()
                 if v["me"]["role"] not in ("werewolf", "little_girl") and not v["prompt"])
    return wolf, other


def test_a_held_poll_answers_304_at_the_end_of_its_wait_when_nothing_changed(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    etag = alice.state_response(table.id).headers["ETag"]
    started = time.monotonic()
    response = held_poll(alice, table.id, etag, 1)
    took = time.monotonic() - started
    assert response.status_code == 304
    assert response.headers["Preference-Applied"] == "wait=1"
    assert response.headers["Server-Timing"].startswith("held;dur=")
    assert 0.9 <= took < poll.MAX_WAIT, took  # its own wait (1 s, then the night's beat)
    assert poll.holding(table.app).held == 0  # its place was given back


def test_a_held_poll_answers_as_soon_as_the_players_view_changes(make_table):
    table = make_table(6).start()
    wolf, other = seats_by_role(table)
    player = table.seats[other]
    first = player.state_response(table.id)
    waiting = InThread(lambda: held_poll(player, table.id, first.headers["ETag"], 20))
    wait_until_held(table.app)
    table.finish_step()  # the time runs out; the next poll (the host's) moves the game on
    table.host.state(table.id)
    response = waiting.result()
    assert response.status_code == 200
    assert response.get_json()["step"]["id"] != first.get_json()["step"]["id"]
    assert response.headers["Preference-Applied"] == f"wait={poll.MAX_WAIT:g}"  # capped
    assert waiting.seconds < poll.MAX_WAIT, waiting.seconds  # woken by the move, not by the end of its wait


def hold_at_night(table, wait: int):
    """(a wolf's seat, a living seat that is no wolf, its poll held in a thread) on night 1."""
    wolf, other = seats_by_role(table)
    player = table.seats[other]
    etag = player.state_response(table.id).headers["ETag"]
    waiting = InThread(lambda: held_poll(player, table.id, etag, wait))
    wait_until_held(table.app)
    return wolf, player, waiting


def test_a_wolves_message_at_night_answers_every_living_seat_without_the_message(make_table):
    table = make_table(6).start()
    wolf, player, waiting = hold_at_night(table, 20)
    said = table.seats[wolf].chat(table.id, "werewolves", "on mange qui ?")
    assert said.status_code == 201, said.get_json()
    response = waiting.result()
    assert response.status_code == 200 and waiting.seconds < poll.MAX_WAIT  # at night the living move together
    assert "on mange qui" not in response.get_data(as_text=True)


def test_a_change_at_another_table_keeps_the_poll_held(make_table):
    table, elsewhere = make_table(6).start(), make_table(6).start()
    player = table.players[0]
    etag = player.state_response(table.id).headers["ETag"]
    waiting = InThread(lambda: held_poll(player, table.id, etag, 2))
    wait_until_held(table.app)
    wolf, _ = seats_by_role(elsewhere)
    assert elsewhere.seats[wolf].chat(elsewhere.id, "werewolves", "ailleurs").status_code == 201
    assert waiting.result().status_code == 304
    assert waiting.seconds >= 1.9, waiting.seconds


def test_a_view_that_already_changed_is_answered_at_once(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    started = time.monotonic()
    response = held_poll(alice, table.id, '"not-her-etag"', 20)
    assert response.status_code == 200
    assert time.monotonic() - started < poll.MAX_WAIT
    assert response.headers["Preference-Applied"] == f"wait={poll.MAX_WAIT:g}"  # capped
    assert "Server-Timing" not in response.headers  # not held


def test_polls_beyond_the_limit_answer_at_once_without_the_preference_applied(make_app, make_table):
    table = make_table(6).start()
    limited = make_app(HELD_POLLS=1)  # another worker, which holds one poll at most
    a, b = (signed_in(limited, p) for p in table.players[:2])
    etag_a = a.state_response(table.id).headers["ETag"]
    etag_b = b.state_response(table.id).headers["ETag"]
    first = InThread(lambda: held_poll(a, table.id, etag_a, 2))
    wait_until_held(limited)
    started = time.monotonic()
    second = held_poll(b, table.id, etag_b, 10)
    assert second.status_code == 304
    assert "Preference-Applied" not in second.headers  # the page polls again after its pause
    assert time.monotonic() - started < poll.MAX_WAIT  # not held for the 10 s it asked
    assert first.result().status_code == 304


def test_polls_are_held_by_default(make_app, make_table):
    table = make_table(6).start()
    by_default = make_app()
    alice = signed_in(by_default, table.players[0])
    etag = alice.state_response(table.id).headers["ETag"]
    response = held_poll(alice, table.id, etag, 1)
    assert response.status_code == 304
    assert response.headers["Preference-Applied"] == "wait=1"


def test_a_stopping_worker_answers_its_held_polls_at_once(make_table, monkeypatch):
    monkeypatch.setattr(poll, "_stopping", False)  # stopped for this test only
    table = make_table(6).start()
    alice = table.players[0]
    etag = alice.state_response(table.id).headers["ETag"]
    waiting = InThread(lambda: held_poll(alice, table.id, etag, 20))
    wait_until_held(table.app)
    poll.stop_holding()
    assert waiting.result().status_code == 304
    assert waiting.seconds < poll.MAX_WAIT
    again = held_poll(alice, table.id, etag, 20)  # and holds no more
    assert again.status_code == 304 and "Preference-Applied" not in again.headers


def test_a_held_poll_moves_the_game_on_when_its_step_runs_out(make_table, monkeypatch):
    """No deadline job in the tests: the held poll itself finds the step overdue."""
    monkeypatch.setattr(poll, "RECHECK_EVERY", 0.1)  # the tests' clock jumps: no timer of the wait sees it
    table = make_table(6).start()
    alice = table.players[0]
    first = alice.state_response(table.id)
    waiting = InThread(lambda: held_poll(alice, table.id, first.headers["ETag"], 20))
    wait_until_held(table.app)
    table.clock.advance(first.get_json()["step"]["seconds_left"] + 0.5)
    response = waiting.result()
    assert response.status_code == 200
    assert response.get_json()["step"]["id"] != first.get_json()["step"]["id"]
    assert waiting.seconds < poll.MAX_WAIT  # not held to the end of its wait (MAX_WAIT)


def test_a_held_poll_ends_its_wait_right_after_its_steps_deadline(make_table, monkeypatch):
    """It moves the game on itself a moment after the deadline: the deadline job's next
    tick may be half a second later, which every player of the table would see."""
    timers, wait = [], changes.Changes.wait

    def timed_wait(self, table_id, token, timeout):
        timers.append(timeout)
        return wait(self, table_id, token, timeout)

    monkeypatch.setattr(changes.Changes, "wait", timed_wait)
    table = make_table(6).start()
    alice = table.players[0]
    first = alice.state_response(table.id)
    table.clock.advance(first.get_json()["step"]["seconds_left"] - 0.3)
    etag = alice.state_response(table.id).headers["ETag"]
    waiting = InThread(lambda: held_poll(alice, table.id, etag, 20))
    wait_until_held(table.app)
    table.clock.advance(0.3)  # the deadline, as the poll's own timer will find it
    response = waiting.result()
    assert response.status_code == 200
    assert response.get_json()["step"]["id"] != first.get_json()["step"]["id"]
    # seconds_left is rounded to a tenth: the deadline was 0.3 s ± 0.05 away
    assert timers[0] <= 0.35 + poll.STEP_GRACE  # 0.8 s with the half-second grace it had


@pytest.mark.parametrize("prefer, wait", [
    ("wait=10", 10.0), ("WAIT = 3", 3.0), ("return=representation, wait=4", 4.0),
    ('wait="7"', 7.0), ("wait=600", poll.MAX_WAIT), ("wait=0", None), ("", None),
    ("wait=-1", None), ("wait=1.5", None), ("waiting=5", None), ("nowait=5", None), ("wait=abc", None),
])
def test_the_prefer_header_is_read_as_rfc_7240_says(prefer, wait):
    assert poll.requested_wait({"HTTP_PREFER": prefer}) == wait


def test_on_sqlite_no_thread_waits_for_a_connection(make_app):
    """More threads than SQLAlchemy's default pool (5 + 10) each hold a connection at once,
    with the app's own pool settings (the wait for one cut to 1 s): none waits. A writer
    holding SQLite's write lock, whatever the readers do, never waits for the pool."""
    app = make_app(SQLALCHEMY_ENGINE_OPTIONS={"pool_timeout": 1})
    with app.app_context():
        engine = db.engine
    threads = 40
    everyone_holds_one = threading.Barrier(threads, timeout=10)
    failures = []

    def hold():
        try:
            connection = engine.raw_connection()
        except Exception as error:  # noqa: BLE001 - the pool's time-out, told below
            failures.append(error)
            everyone_holds_one.abort()
            return
        try:
            everyone_holds_one.wait()
        except threading.BrokenBarrierError:
            pass
        finally:
            connection.close()

    started = [threading.Thread(target=hold) for _ in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join(timeout=20)
    assert failures == []


def test_a_held_poll_looking_again_does_not_keep_a_closed_page_connected(make_table, monkeypatch):
    """The phone whose poll is held may have closed its page: only a poll's arrival shows
    that its player is there, never the held poll looking again. A player who polls no
    more is shown gone CONNECTED_WITHIN after their last poll, held or not."""
    monkeypatch.setattr(poll, "RECHECK_EVERY", 0.05)  # the tests' clock jumps: look again often
    table = make_table(6).start()
    alice, bruno = table.players[0], table.players[1]
    for player in table.players:
        player.state(table.id)
    alice_seat = alice.state(table.id)["me"]["seat"]
    etag = alice.state_response(table.id).headers["ETag"]
    waiting = InThread(lambda: held_poll(alice, table.id, etag, 20))  # her page closes now
    wait_until_held(table.app)
    table.clock.advance(view.CONNECTED_WITHIN * 0.6)  # past the presence write's spacing
    time.sleep(0.3)  # the held poll looks again a few times
    bruno.state(table.id)
    table.clock.advance(view.CONNECTED_WITHIN * 0.45)
    seen = bruno.state(table.id)
    assert not next(p for p in seen["players"] if p["seat"] == alice_seat)["connected"]
    waiting.result()


def test_a_phone_that_is_there_is_noted_often_enough_to_stay_connected():
    """Between two arrivals of a phone whose polls are held: MAX_WAIT at most; a presence
    note waits PRESENCE_WRITE_EVERY at most, and its write FLUSH_EVERY."""
    from werewolf import service
    assert service.PRESENCE_WRITE_EVERY + poll.MAX_WAIT + poll.Presence.FLUSH_EVERY < view.CONNECTED_WITHIN


def test_the_nights_changes_within_one_beat_are_answered_once(make_table, monkeypatch):
    """At night a living seat's held poll answers on its table's beat: the wolves' three
    messages of one beat wake every living phone once, with a view that has all three."""
    monkeypatch.setattr(poll, "NIGHT_BEAT", 2.0)  # three messages fit in one, on a starved machine too
    table = make_table(6).start()
    wolf, player, waiting = hold_at_night(table, 20)
    time.sleep(poll.until_night_beat(table.id, time.time()) + 0.05)  # a beat begins
    for text in ("un", "deux", "trois"):
        assert table.seats[wolf].chat(table.id, "werewolves", text).status_code == 201
    response = waiting.result()
    assert response.status_code == 200 and waiting.seconds < poll.MAX_WAIT
    assert player.state_response(table.id, response.headers["ETag"]).status_code == 304  # all three in it


def test_a_tables_living_views_are_kept_for_its_last_rev_only(make_table):
    """The living seats' views are made for every living seat at once; those of seats another
    process serves are never taken here. Kept for every rev, they were a third of a loaded
    worker's objects, all scanned at each full collection."""
    table = make_table(6).start()
    wolf, other = seats_by_role(table)
    table.seats[other].state(table.id)
    first = weakref.ref(poll._living_kept.get(table.id)[1])
    assert table.seats[wolf].chat(table.id, "werewolves", "on mange qui ?").status_code == 201
    table.seats[other].state(table.id)
    gc.collect()
    assert first() is None
    assert poll._living_kept.get(table.id)[1] is not None


def test_a_worker_freezes_what_it_loaded_before_it_serves():
    """gunicorn.conf.py: the app's modules, classes and functions live as long as the worker;
    frozen, a full collection does not scan them (docs/PERFORMANCE.md)."""
    conf = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    handler = signal.getsignal(signal.SIGTERM)
    try:
        conf["post_worker_init"](None)
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
        signal.signal(signal.SIGTERM, handler)
