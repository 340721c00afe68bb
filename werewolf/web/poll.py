"""The lean path of the state poll: a 304 from memory, a repeated view from memory.

Every seated player polls every 1.5 s, so this is the server's hottest path. The
ETag depends on (table, lobby_rev, my seat, who is connected, game id, my view's
version): all of it comes from one read of the table's seats joined with its table
and game rows, plus the version kept in the decoded game (``store.game_cache``,
keyed by the row's ``rev``). So a poll whose ETag matches answers 304 without the
ORM, without loading the user row and without building the view. On SQLite the
table's read itself is kept (``PollReads``) until a write bumps the table on the
change board shared by the workers (changes.py), or for a second at most: most
polls then touch no database at all.

A view whose ETag did not change since it was last built (a reload, a second tab,
a client without ``If-None-Match``) is served from a per-process cache of the
serialized JSON; only ``step.seconds_left``, the one field that moves with the
clock without changing the ETag, is written in at serving time.

All of this runs in ``PollGate``, a WSGI middleware in front of Flask: a poll of a
seated player pays neither Flask's request context nor Flask-Login, Flask-Limiter
or the session's re-encoding (together ~0.3 ms, more than the poll itself). The
session cookie's signature is checked with Flask's own serializer, once per cookie.

Anything unusual (not logged in through the session, not seated, no such table,
the lobby) goes the ordinary way, through Flask, Flask-Login and the ORM, with its
errors.
"""
from __future__ import annotations

import collections
import contextlib
import logging
import re
import threading
import time
from typing import NamedTuple

from .. import service, store
from ..extensions import db
from . import held, tables, view
from .session import SessionLogin, SessionUsers
from .view import Answer, per_app, view_cache  # noqa: F401  (view_cache: tests clear it here)

log = logging.getLogger(__name__)

# ---------------------------------------------------------------- presence

class Presence:
    """Presence writes of this process, gathered and written together.

    Every player's poll records its presence at most every 10 s; with 1800 players
    that is 180 write transactions a second, each queueing for SQLite's one write
    lock behind the moves of the game. Here a poll only notes the time, and at most
    once every FLUSH_EVERY seconds one poll writes all the noted times in one
    transaction. A player's presence reaches the database a second or so later, far
    within the 20 s after which a player is shown as disconnected.
    """

    FLUSH_EVERY = 1.0

    def __init__(self):
        self._lock = threading.Lock()
        self._pending: dict[int, float] = {}
        self._flushed_at = float("-inf")

    def note(self, seat_id: int, now: float) -> None:
        with self._lock:
            self._pending[seat_id] = now

    def seen(self, seat_id: int, last_seen: float, now: float) -> None:
        """A poll of this seat's player: noted at most every PRESENCE_WRITE_EVERY."""
        if now - last_seen >= service.PRESENCE_WRITE_EVERY:
            self.note(seat_id, now)

    def due(self, now: float) -> bool:
        """Whether the next poll writes what was noted (``flush_if_due``)."""
        return bool(self._pending) and now - self._flushed_at >= self.FLUSH_EVERY

    def flush_if_due(self, app, now: float) -> None:
        """Called by every poll: writes what was noted, at most every FLUSH_EVERY seconds."""
        if not self.due(now):
            return
        with self._lock:
            if not self.due(now):
                return
            pending, self._pending, self._flushed_at = self._pending, {}, now
        with app.app_context():  # its own session, removed when the context ends
            try:
                store.write_presence(pending)
            except Exception:
                log.exception("writing the presence of %d players failed", len(pending))


def presence(app=None) -> Presence:
    return per_app("werewolf.presence", Presence, app)


def note_presence(app, seat_id: int, last_seen: float, now: float) -> None:
    """A poll of this seat's player: noted at most every PRESENCE_WRITE_EVERY, written together."""
    noted = presence(app)
    noted.seen(seat_id, last_seen, now)
    noted.flush_if_due(app, now)


# ---------------------------------------------------------------- overdue steps

_advancing: dict[int, threading.Event] = {}
_advancing_lock = threading.Lock()


def advance_once(app, game_id: int, now: float) -> None:
    """Advance an overdue game, one thread of this process at a time.

    When a step's deadline passes, every player's next poll finds it overdue; each
    attempt takes SQLite's write lock just to find that another one already moved
    the game on. Here the first poll of the process advances it and the others wait
    for that (a few ms) instead of queueing for the lock.
    """
    with _advancing_lock:
        running = _advancing.get(game_id)
        if running is None:
            running = _advancing[game_id] = threading.Event()
            mine = True
        else:
            mine = False
    if not mine:
        running.wait(timeout=5)
        return
    try:
        with app.app_context():
            service.advance_game(game_id, now)
    finally:
        with _advancing_lock:
            _advancing.pop(game_id, None)
        running.set()


# ---------------------------------------------------------------- the fast path

STATE_PATH = re.compile(r"/api/tables/([^/\x00]{1,64})/state")


def state_poll_of(environ: dict) -> str | None:
    """The table whose state this request asks for (GET), else None."""
    if environ.get("REQUEST_METHOD") != "GET":
        return None
    match = STATE_PATH.fullmatch(environ.get("PATH_INFO", ""))
    return match.group(1) if match else None


class PollGate:
    """WSGI middleware in front of Flask that answers the state poll of a seated player.

    Whatever ``fast_state`` declines goes on to Flask (``api.state``).
    """

    def __init__(self, app, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app
        self.sessions = SessionUsers(app)

    def __call__(self, environ, start_response):
        places = active_requests(self.app)
        method = environ.get("REQUEST_METHOD")
        places.acquire(write=method not in ("GET", "HEAD"))
        try:
            table_id = state_poll_of(environ)
            if table_id is not None:
                answer = self._answer(environ, table_id)
                if answer is not None:
                    start_response(answer.status, answer.headers)
                    return [answer.body]
            return self.wsgi_app(environ, start_response)
        finally:
            places.release()

    def answer_from_memory(self, environ: dict) -> Answer | None:
        """For a worker's event loop (web/worker.py): the 304 of a state poll when all it
        needs is in this process's memory; None for any other request, which runs as usual.

        Nothing here waits: no database, no lock held by a request, no place among the
        requests run at once (``ActiveRequests``)."""
        table_id = state_poll_of(environ)
        if table_id is None or (held_polls(self.app) is not None and requested_wait(environ) is not None):
            return None  # a poll this process may hold waits on a pool's thread
        return self._answer(environ, table_id, from_memory=True)

    def _answer(self, environ: dict, table_id: str, from_memory: bool = False) -> Answer | None:
        app = self.app
        try:
            login = self.sessions.login(environ)
            if login is None:
                return None
            clock = app.extensions["werewolf.clock"]
            if from_memory:
                return unchanged_from_memory(app, environ, table_id, login, clock())
            wait = requested_wait(environ)
            if wait is None:
                return fast_state(app, environ, table_id, login, clock())
            return held_state(app, environ, table_id, login, clock, wait)
        except Exception:  # Flask will answer, with its error handling
            log.exception("the fast state poll failed; answering it the ordinary way")
            return None


def _engine(app):
    sa_engine = app.extensions.get("werewolf.sa_engine")
    if sa_engine is None:
        with app.app_context():
            sa_engine = app.extensions["werewolf.sa_engine"] = db.engine
    return sa_engine


class PollReads:
    """Each table's poll read (``store.read_table_for_poll``), kept by this process.

    A kept read serves the table's polls while the table's counter on the change board
    (changes.py) stays as it was when the read was taken, and for TTL seconds at most:
    a player's presence and the spectators' count move without a bump. Without a board
    (PostgreSQL), every poll reads the table.
    """

    TTL = 1.0
    SIZE = 4096  # tables kept, at most: beyond it, all are read again

    def __init__(self, board):
        self.board = board
        self._items: dict[str, tuple[bytes, float, store.PollRead]] = {}

    def kept(self, table_id: str, now: float, token: bytes | None = None) -> store.PollRead | None:
        """The kept read of the table if it still holds, without reading; else None."""
        if self.board is None:
            return None
        kept = self._items.get(table_id)
        if token is None:
            token = self.board.token(table_id)
        if kept is not None and kept[0] == token and kept[1] <= now < kept[1] + self.TTL:
            return kept[2]
        return None

    def read(self, sa_engine, table_id: str, now: float, fresh: bool = False) -> store.PollRead | None:
        board, watching_since = self.board, now - service.WATCHING_WITHIN
        if board is None:
            return store.read_table_for_poll(sa_engine, table_id, watching_since)
        token = board.token(table_id)  # before the read: a write committed after it bumps it
        kept = None if fresh else self.kept(table_id, now, token)
        if kept is not None:
            return kept
        read = store.read_table_for_poll(sa_engine, table_id, watching_since)
        if read is not None:
            if len(self._items) >= self.SIZE:
                self._items.clear()
            self._items[table_id] = (token, now, read)
        return read


def poll_reads(app) -> PollReads:
    return per_app("werewolf.poll_reads", lambda: PollReads(store.change_board(_engine(app))), app)


# ---------------------------------------------------------------- held polls

_PREFER_WAIT = re.compile(r"(?:^|[,;])\s*wait\s*=\s*\"?(\d{1,6})\"?\s*(?:$|[,;])", re.IGNORECASE)


def requested_wait(environ: dict) -> float | None:
    """``Prefer: wait=N`` (seconds, RFC 7240), capped at held.MAX_WAIT; None without it, or 0."""
    match = _PREFER_WAIT.search(environ.get("HTTP_PREFER", ""))
    if match is None or int(match.group(1)) == 0:
        return None
    return min(float(match.group(1)), held.MAX_WAIT)


class ActiveRequests:
    """At most ``limit`` requests of this process run at once (0: no limit), first come
    first served; a held poll gives its place back while it waits.

    gunicorn's pool has a thread per held poll besides the ones that answer
    (gunicorn.conf.py): without this, a burst of requests would run on all of them at
    once, fighting over the GIL and the database's connections. A place is handed to the
    longest waiting request: with ``threading.Semaphore`` a newcomer may take it first,
    and under a steady stream a woken poll waited seconds.
    """

    def __init__(self, limit: int):
        self._limit = limit
        self._free = limit
        self._lock = threading.Lock()
        # Writes (a player waits for their answer) go before polls (a woken poll's player
        # sees the change a moment later; a new poll will mostly be held anyway).
        self._writes: collections.deque[threading.Lock] = collections.deque()
        self._reads: collections.deque[threading.Lock] = collections.deque()

    def acquire(self, write: bool = False) -> None:
        if self._limit <= 0:
            return
        with self._lock:
            if self._free > 0:
                self._free -= 1
                return
            handed = threading.Lock()
            handed.acquire()
            (self._writes if write else self._reads).append(handed)
        handed.acquire()  # release() hands its place over by releasing this lock

    def release(self) -> None:
        if self._limit <= 0:
            return
        with self._lock:
            if self._writes:
                self._writes.popleft().release()
            elif self._reads:
                self._reads.popleft().release()
            else:
                self._free += 1

    @contextlib.contextmanager
    def paused(self):
        """Around a wait that runs nothing: its place goes to another request meanwhile."""
        self.release()
        try:
            yield
        finally:
            self.acquire()


def active_requests(app) -> ActiveRequests:
    return per_app("werewolf.active_requests", lambda: ActiveRequests(int(app.config["ACTIVE_REQUESTS"])), app)


def held_polls(app) -> held.HeldPolls | None:
    # Kept in a tuple: per_app makes again whatever is None, and off (the default) is None,
    # asked by every poll of the page.
    return per_app("werewolf.held_polls",
                   lambda: (held.make(store.change_board(_engine(app)), int(app.config["HELD_POLLS"])),), app)[0]


def held_state(app, environ: dict, table_id: str, login: SessionLogin, clock, wait: float) -> Answer | None:
    """The state poll asked with ``Prefer: wait``: a 304 waits until the player's view
    changes (held.py).

    Every answer the gate gives then says ``Preference-Applied: wait=N``: the phone may ask
    again at once. Without it (PostgreSQL, the process's held polls all taken, the lobby
    answered by Flask), the phone polls again after its usual pause.
    """
    holding = held_polls(app)
    if holding is None:
        return fast_state(app, environ, table_id, login, clock())
    started = time.monotonic()
    token = holding.board.token(table_id)  # before the read: a write after it moves it
    answer = fast_state(app, environ, table_id, login, clock())
    if answer is None or not answer.status.startswith("304"):
        return _applied(answer, wait, None)
    if not holding.take():
        return answer
    shown = dict(answer.headers)["ETag"].strip('"')

    def unchanged() -> bool:
        """Run by the watcher thread when the table moved, and now and then: is the view
        still the one the phone has? (and the player's presence noted meanwhile)"""
        now = clock()
        found = current(app, table_id, login, now, advance=False)
        if found is None or found.etag != shown or overdue(found.read, now):
            return False
        note_presence(app, found.me.id, found.me.last_seen, now)
        return True

    try:
        end = started + wait
        while answer is not None and answer.status.startswith("304"):
            left = end - time.monotonic()
            if left <= 0:
                break
            now = clock()
            read = poll_reads(app).read(_engine(app), table_id, now)
            if read is not None and read.deadline is not None and read.deadline > now:
                # The deadline job moves the game on at the step's end; if it has not a
                # moment later, this poll does.
                left = min(left, read.deadline - now + held.STEP_GRACE)
            with active_requests(app).paused():
                holding.wait(table_id, token, left, unchanged)
            if holding.closed:
                break
            token = holding.board.token(table_id)
            answer = fast_state(app, environ, table_id, login, clock())
    finally:
        holding.give_back()
    return _applied(answer, wait, time.monotonic() - started)


def _applied(answer: Answer | None, wait: float, held_for: float | None) -> Answer | None:
    if answer is None:
        return None
    headers = [*answer.headers, ("Preference-Applied", f"wait={wait:g}")]
    if held_for is not None:
        headers.append(("Server-Timing", f"held;dur={held_for * 1000:.0f}"))
    return answer._replace(headers=headers)


class Current(NamedTuple):
    """What a poll of one player finds: the table's read, the player's seat, the seats
    shown as connected, the decoded game and the ETag of the player's view."""
    read: store.PollRead
    me: object
    connected: tuple
    game: object
    etag: str


def current(app, table_id: str, login: SessionLogin, now: float, advance: bool = True) -> Current | None:
    """The player's ETag as a poll now would answer it; None where the gate declines.
    ``advance``: move an overdue game on first (the poll does; a held poll's check does not)."""
    sa_engine, reads = _engine(app), poll_reads(app)
    read = reads.read(sa_engine, table_id, now)
    if read is None:
        return None
    if advance and overdue(read, now):
        advance_once(app, read.game_id, now)  # play goes on even if no scheduler runs
        read = reads.read(sa_engine, table_id, now, fresh=True)
        if read is None:
            return None
    return _seen_by(table_id, login, read, now, lambda: _decode(sa_engine, read))


def _seen_by(table_id: str, login: SessionLogin, read: store.PollRead, now: float, decode=None) -> Current | None:
    """``current`` once the table is read; ``decode``: how to get a game not in the cache
    (None: decline)."""
    me = next((s for s in read.seats if s.user_id == login.user_id), None)
    if me is None or not login.matches(me.password_hash, me.session_tokens):
        return None
    if read.game_id is None:
        return None  # the lobby
    # I am connected: my presence is noted by this poll, or was written less than 10 s ago.
    connected = view.connected_seats(read.seats, me.number, now)
    game = store.game_cache.get(read.game_id, read.game_rev)
    if game is None:
        game = decode() if decode is not None else None
        if game is None:
            return None
    etag = view.etag_of(table_id, read.lobby_rev, me.number, connected,
                        (read.game_id, game.version_for(me.number)), read.spectators)
    return Current(read, me, connected, game, etag)


def unchanged_from_memory(app, environ: dict, table_id: str, login: SessionLogin, now: float) -> Answer | None:
    """The poll's 304 from what this process holds (the table's kept read, the decoded
    game), or None: whatever needs the database (a read, the presence's write, an overdue
    step) or answers a view goes the way of ``fast_state``."""
    read = poll_reads(app).kept(table_id, now)
    if read is None or overdue(read, now):
        return None
    found = _seen_by(table_id, login, read, now)
    if found is None or not view.has_etag(environ, found.etag):
        return None
    noted = presence(app)
    if noted.due(now):
        return None
    noted.seen(found.me.id, found.me.last_seen, now)
    return view.not_modified(found.etag)


def overdue(read: store.PollRead, now: float) -> bool:
    return read.game_status == "running" and read.deadline is not None and read.deadline <= now


def fast_state(app, environ: dict, table_id: str, login: SessionLogin, now: float) -> Answer | None:
    """The state poll without the ORM: a 304, a cached view, or a view built from the game.

    None sends the request the ordinary way (``api.state``): not seated, no such
    table, a signed-out session, or the lobby (whose view needs the players' names).
    """
    found = current(app, table_id, login, now)
    if found is None:
        return None
    read, me, connected, game, etag = found
    note_presence(app, me.id, me.last_seen, now)

    def build():
        table = _table_part(app, environ, _engine(app), table_id, read)
        if table is None:
            return None
        return view.game_view(game, me.number, now), table, connected, game.deadline

    return view.answer(app, environ, now, etag, build)


def _decode(sa_engine, read: store.PollRead):
    """Decode the game of ``read`` into the shared cache; None if it moved on meanwhile."""
    row = store.read_game(read.game_id, sa_engine)
    if row is None or row.rev != read.game_rev:
        return None
    return store.load_game(row)


def _table_part(app, environ: dict, sa_engine, table_id: str, read: store.PollRead) -> dict | None:
    """The view's ``table`` of the table as ``read`` saw it, cached by its lobby_rev and status.

    Shared by every view of the table: read only. Built once per table and lobby_rev
    in a process, in a request context of its own (``url_for`` needs one).
    """
    key = (table_id, read.lobby_rev, read.game_status, view.host_key(environ), read.spectators)
    cache = view.table_cache(app)
    found = cache.get(key)
    if found is not None:
        return found[0]
    row = store.read_table_row(sa_engine, table_id)
    if row is None or row.lobby_rev != read.lobby_rev:
        return None  # changed since: let the ordinary way read it all again
    host_seat = next((s.number for s in read.seats if s.user_id == row.host_user_id), None)
    with app.request_context(environ):
        # Never the lobby here (the gate declines it), so never listed as public.
        found = tables.table_json(table_id, row.code, row.name, read.game_status, host_seat,
                                  len(read.seats), row.settings, False, read.spectators, row.screen_rev)
    cache.put(key, found, None)
    return found
