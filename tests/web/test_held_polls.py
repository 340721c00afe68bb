"""Polls held until the player's view changes: ``Prefer: wait=N`` (web/held.py, API.md).

A held poll waits in real time (its thread sleeps until the change board moves), so the
waits here are short; the apps' clocks move only when a test moves them.
"""
import threading
import time
from collections import Counter

import pytest

from tests.conftest import requires_sqlite
from tests.web.test_poll_reads import signed_in
from werewolf.web import held, poll

pytestmark = requires_sqlite


@pytest.fixture
def app(make_app):
    """A server that holds polls (WEREWOLF_HELD_POLLS; off by default)."""
    return make_app(HELD_POLLS=100)


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
    holding = poll.held_polls(app)
    for _ in range(200):
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
    assert 0.9 <= took < 3, took
    assert poll.held_polls(table.app).held == 0  # its place was given back


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
    assert response.headers["Preference-Applied"] == "wait=20"
    assert waiting.seconds < 3, waiting.seconds  # woken by the move, not by the end of its wait


def test_a_change_the_player_cannot_see_keeps_the_poll_held(make_table):
    table = make_table(6).start()
    wolf, other = seats_by_role(table)
    player = table.seats[other]
    etag = player.state_response(table.id).headers["ETag"]
    waiting = InThread(lambda: held_poll(player, table.id, etag, 2))
    wait_until_held(table.app)
    said = table.seats[wolf].chat(table.id, "werewolves", "on mange qui ?")
    assert said.status_code == 201, said.get_json()
    response = waiting.result()
    assert response.status_code == 304  # woken by the wolves' message, which is not hers
    assert waiting.seconds >= 1.9, waiting.seconds
    assert "on mange qui" not in player.state_response(table.id).get_data(as_text=True)


def test_a_view_that_already_changed_is_answered_at_once(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    started = time.monotonic()
    response = held_poll(alice, table.id, '"not-her-etag"', 20)
    assert response.status_code == 200
    assert time.monotonic() - started < 3
    assert response.headers["Preference-Applied"] == "wait=20"
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
    second = held_poll(b, table.id, etag_b, 2)
    assert second.status_code == 304
    assert "Preference-Applied" not in second.headers  # the page polls again after its pause
    assert time.monotonic() - started < 1.5
    assert first.result().status_code == 304


def test_no_poll_is_held_by_default(make_app, make_table):
    table = make_table(6).start()
    none_held = make_app()
    alice = signed_in(none_held, table.players[0])
    etag = alice.state_response(table.id).headers["ETag"]
    response = held_poll(alice, table.id, etag, 5)
    assert response.status_code == 304
    assert "Preference-Applied" not in response.headers


def test_a_stopping_worker_answers_its_held_polls_at_once(make_table):
    table = make_table(6).start()
    alice = table.players[0]
    etag = alice.state_response(table.id).headers["ETag"]
    waiting = InThread(lambda: held_poll(alice, table.id, etag, 20))
    wait_until_held(table.app)
    held.release_all()
    assert waiting.result().status_code == 304
    assert waiting.seconds < 3
    again = held_poll(alice, table.id, etag, 20)  # and holds no more
    assert again.status_code == 304 and "Preference-Applied" not in again.headers


def test_a_held_poll_moves_the_game_on_when_its_step_runs_out(make_table, monkeypatch):
    """No deadline job in the tests: the held poll itself finds the step overdue."""
    monkeypatch.setattr(held, "SWEEP_EVERY", 0.1)  # the tests' clock jumps: no timer of the wait sees it
    table = make_table(6).start()
    alice = table.players[0]
    first = alice.state_response(table.id)
    waiting = InThread(lambda: held_poll(alice, table.id, first.headers["ETag"], 20))
    wait_until_held(table.app)
    table.clock.advance(first.get_json()["step"]["seconds_left"] + 0.5)
    response = waiting.result()
    assert response.status_code == 200
    assert response.get_json()["step"]["id"] != first.get_json()["step"]["id"]
    assert waiting.seconds < 3


def test_a_held_poll_ends_its_wait_right_after_its_steps_deadline(make_table):
    """It moves the game on itself a moment after the deadline: the deadline job's next
    tick may be half a second later, which every player of the table would see."""
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
    assert waiting.seconds < 0.6  # 0.8 s with the half-second grace it had


def test_the_watcher_sweeps_a_slice_of_the_tables_at_each_look():
    """Every held poll is checked once per SWEEP_EVERY (presence moves without a bump), but
    never all in one look: that look would keep the GIL from every request meanwhile."""
    class StillBoard:
        def token(self, table_id):
            return b"unmoved"

    holding = held.HeldPolls(StillBoard(), limit=1000)
    checked = Counter()
    tables = [f"table-{n}" for n in range(200)]
    for table_id in tables:
        holding._register(table_id, b"unmoved",
                          held._Waiter(lambda table_id=table_id: checked.update([table_id]) or True))
    per_look = []
    for _ in range(round(held.SWEEP_EVERY / held.LOOK_EVERY)):
        before = checked.total()
        assert holding.look() == 0  # nothing changed: nobody woken
        per_look.append(checked.total() - before)
    assert sorted(checked) == sorted(tables) and set(checked.values()) == {1}
    assert max(per_look) <= 20, per_look


@pytest.mark.parametrize("prefer, wait", [
    ("wait=10", 10.0), ("WAIT = 3", 3.0), ("return=representation, wait=4", 4.0),
    ('wait="7"', 7.0), ("wait=600", held.MAX_WAIT), ("wait=0", None), ("", None),
    ("wait=-1", None), ("wait=1.5", None), ("waiting=5", None), ("nowait=5", None), ("wait=abc", None),
])
def test_the_prefer_header_is_read_as_rfc_7240_says(prefer, wait):
    assert poll.requested_wait({"HTTP_PREFER": prefer}) == wait


def test_a_held_poll_gives_its_place_to_other_requests_while_it_waits(make_app, make_table):
    """gunicorn runs ACTIVE_REQUESTS requests at once; a held poll is not one of them."""
    table = make_table(6).start()
    one_at_a_time = make_app(HELD_POLLS=100, ACTIVE_REQUESTS=1)
    alice, bob = (signed_in(one_at_a_time, p) for p in table.players[:2])
    etag = alice.state_response(table.id).headers["ETag"]
    waiting = InThread(lambda: held_poll(alice, table.id, etag, 3))
    wait_until_held(one_at_a_time)
    started = time.monotonic()
    assert bob.state_response(table.id).status_code == 200
    assert bob.client.get("/api/me").status_code == 200
    assert time.monotonic() - started < 1.5  # not queued behind the held poll
    assert waiting.result().status_code == 304


def test_a_freed_place_goes_to_the_oldest_write_then_the_oldest_poll():
    places = poll.ActiveRequests(1)
    places.acquire()
    order = []

    def queue(name, write):
        def run():
            places.acquire(write=write)
            order.append(name)
            places.release()
        thread = threading.Thread(target=run)
        thread.start()
        return thread

    threads = []
    for name, write in (("poll 1", False), ("poll 2", False), ("write 1", True), ("write 2", True)):
        threads.append(queue(name, write))
        while len(places._reads) + len(places._writes) < len(threads):  # queued, in this order
            time.sleep(0.005)
    places.release()
    for thread in threads:
        thread.join(timeout=5)
    assert order == ["write 1", "write 2", "poll 1", "poll 2"]
