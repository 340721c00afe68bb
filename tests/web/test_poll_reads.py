"""The poll's kept reads (web/poll.read_table) and the change board (changes.py).

A process keeps each table's poll read until the table's counter on the board moves
or poll.READ_KEPT_FOR passes. Two apps on one SQLite file stand for two gunicorn workers:
each has its own kept reads, and they share the board through its file. The apps'
clocks do not move unless a test moves them, so a read kept too long shows.
"""
import contextlib

import pytest

from tests.conftest import requires_sqlite
from tests.kit.clock import Clock
from tests.web.conftest import Player
from werewolf import changes, store
from werewolf.web import poll

pytestmark = requires_sqlite


def signed_in(app, player: Player) -> Player:
    """``player``'s account, signed in on another app (another worker)."""
    other = Player(app, player.name, player.password)
    response = other.post("/api/auth/login", {"name": player.name, "password": player.password})
    assert response.status_code == 200, response.get_json()
    return other


@contextlib.contextmanager
def another_worker(monkeypatch):
    """Requests inside are served as by another process: with its own decoded games."""
    with monkeypatch.context() as m:
        m.setattr(store, "game_cache", store._GameCache())
        yield


def test_a_step_moved_on_by_another_worker_shows_at_the_next_poll(make_table, make_app, clock, monkeypatch):
    table = make_table(6).start()
    later = Clock(clock.now)
    other = make_app(CLOCK=later)  # (first: a new app empties this process's decoded games)
    alice = table.players[0]
    first = alice.state_response(table.id)
    etag = first.headers["ETag"]
    assert alice.state_response(table.id, etag).status_code == 304  # from the kept read

    later.advance(first.get_json()["step"]["seconds_left"] + 1)
    with another_worker(monkeypatch):
        signed_in(other, table.players[1]).state(table.id)  # its poll finds the step overdue: advances it

    again = alice.state_response(table.id, etag)  # alice's worker's clock has not moved
    assert again.status_code == 200
    assert again.get_json()["step"]["id"] != first.get_json()["step"]["id"]


def test_a_password_changed_in_another_worker_signs_the_old_session_out_at_once(make_table, make_app):
    table = make_table(6).start()
    alice = table.players[0]
    assert alice.state_response(table.id).status_code == 200  # the read is kept, with her password's hash
    other = make_app()
    changed = signed_in(other, alice).post("/api/auth/password",
                                           {"old_password": alice.password, "new_password": "unautremotdepasse"})
    assert changed.status_code == 200, changed.get_json()
    assert alice.state_response(table.id).status_code == 401


def another_slot(table_id: str) -> str:
    """A table id whose counter is not ``table_id``'s."""
    return next(t for t in (f"t{i}" for i in range(10)) if changes.Board._offset(t)
                != changes.Board._offset(table_id))


class CountingReads:
    def __init__(self, monkeypatch):
        self.calls = 0
        real = store.read_table_for_poll

        def counted(*args):
            self.calls += 1
            return real(*args)

        monkeypatch.setattr(store, "read_table_for_poll", counted)


def test_a_kept_read_lasts_until_a_bump_or_its_time(make_table, app, clock, monkeypatch):
    from werewolf.extensions import db

    table = make_table(6).start()
    counting = CountingReads(monkeypatch)
    now = clock.now
    with app.app_context():
        board = changes.of(db.engine).board
        first = poll.read_table(app, table.id, now, fresh=True)  # kept from now on
        assert poll.read_table(app, table.id, now + poll.READ_KEPT_FOR / 2) is first
        assert counting.calls == 1
        assert poll.read_table(app, table.id, now + poll.READ_KEPT_FOR) is not first  # its time is up
        assert counting.calls == 2

        kept = poll.read_table(app, table.id, now + poll.READ_KEPT_FOR)
        board.bump((another_slot(table.id),))
        assert poll.read_table(app, table.id, now + poll.READ_KEPT_FOR) is kept
        calls = counting.calls
        board.bump((table.id,))
        poll.read_table(app, table.id, now + poll.READ_KEPT_FOR)
        assert counting.calls == calls + 1
        board.bump(None)  # any table
        poll.read_table(app, table.id, now + poll.READ_KEPT_FOR)
        assert counting.calls == calls + 2
        poll.read_table(app, table.id, now + poll.READ_KEPT_FOR, fresh=True)
        assert counting.calls == calls + 3
        poll.read_table(app, table.id, now - 5)  # a clock set back: not kept from "the future"
        assert counting.calls == calls + 4


def connected(view: dict) -> set[int]:
    return {p["seat"] for p in view["players"] if p["connected"]}


def test_a_player_back_after_being_shown_gone_shows_once_written(make_table, app, clock):
    table = make_table(6).start()
    alice, bruno = table.players[0], table.players[1]
    clock.advance(30)  # nobody polled for 30 s: all shown disconnected but the poller
    me = alice.state(table.id)["me"]["seat"]
    assert connected(alice.state(table.id)) == {me}
    bruno_seat = bruno.state(table.id)["me"]["seat"]  # noted, written within Presence.FLUSH_EVERY
    clock.advance(poll.Presence.FLUSH_EVERY)
    assert connected(alice.state(table.id)) == {me}  # this poll writes it, after its (kept) read
    assert connected(alice.state(table.id)) == {me, bruno_seat}  # the write moved the table's token


def test_a_presence_write_of_a_connected_player_moves_no_token(make_table, app, clock):
    from werewolf.extensions import db

    table = make_table(6).start()
    for player in table.players:
        player.state(table.id)
    with app.app_context():
        signal = changes.of(db.engine)
        before = signal.token(table.id)
        clock.advance(11)  # every presence due again, still shown connected
        for player in table.players:
            player.state(table.id)
        clock.advance(poll.Presence.FLUSH_EVERY)
        table.host.state(table.id)
        assert signal.token(table.id) == before


def test_boards_of_one_file_share_their_counters(tmp_path):
    path = str(tmp_path / "werewolf.db")
    first, second = changes.Board(path + "-changes"), changes.Board(path + "-changes")
    before = first.token("abc")
    second.bump(("abc",))
    assert first.token("abc") != before
    assert first.token("abc") == second.token("abc")
    others = {t: first.token(t) for t in [another_slot("abc")]}
    second.bump(("abc",))
    assert all(first.token(t) == token for t, token in others.items())
    second.bump(None)
    assert all(first.token(t) != token for t, token in others.items())


@pytest.mark.parametrize("database", ["sqlite://", "sqlite:///:memory:"])
def test_no_board_without_a_database_file(database):
    from sqlalchemy import create_engine
    assert changes.of(create_engine(database)).board is None
