"""The lean path of the state poll: a 304 in one SQL statement, a repeated view from memory.

Every seated player polls every 1.5 s, so this is the server's hottest path. The
ETag depends on (table, lobby_rev, my seat, who is connected, game id, my view's
version): all of it comes from one read of the table's seats joined with its table
and game rows, plus the version kept in the decoded game (``store.game_cache``,
keyed by the row's ``rev``). So a poll whose ETag matches answers 304 without the
ORM, without loading the user row and without building the view.

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

import hashlib
import json
import logging
import re
import threading
import time
from collections import OrderedDict
from typing import NamedTuple

from flask import current_app, session
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadData
from sqlalchemy import bindparam, update
from werkzeug.http import parse_cookie, parse_etags

from .. import engine, service, store
from ..extensions import db, login_manager
from ..models import Seat
from .lobby import table_json
from .security import HEADERS

log = logging.getLogger(__name__)

# Seats that left meanwhile are simply not updated.
_PRESENCE_UPDATE = (update(Seat.__table__).where(Seat.__table__.c.id == bindparam("seat_id"))
                    .values(last_seen=bindparam("seen")))

CONNECTED_WITHIN = 20.0  # seconds since a player's last poll to be shown as connected

# In the cached body, step.seconds_left is this string, replaced at serving time.
# JSON escapes the NUL characters, and no name or message may hold control characters.
SECONDS_LEFT_MARK = "\x00seconds_left\x00"
_MARK_JSON = json.dumps(SECONDS_LEFT_MARK).encode()


def etag_of(table_id: str, lobby_rev: int, seat: int | None, connected: tuple, game_version,
            spectators: int = 0) -> str:
    """``game_version`` is (game id, version for this seat) or None in the lobby; seat None: a spectator."""
    parts = (table_id, lobby_rev, seat, connected, game_version, spectators)
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:24]


def seconds_left(deadline: float | None, now: float):
    """As the engine computes it for ``step.seconds_left`` (see engine.views._step)."""
    return max(0, round(deadline - now, 1))


# ---------------------------------------------------------------- the one read

class SeatRow(NamedTuple):
    user_id: int
    number: int
    last_seen: float
    id: int  # user_id and number are what lobby.table_json needs of a seat


class TableRead(NamedTuple):
    lobby_rev: int
    game_id: int | None
    game_rev: int | None
    game_status: str | None
    deadline: float | None
    spectators: int  # accounts not seated that polled within service.WATCHING_WITHIN
    seats: list[SeatRow]


_SQL = (
    "SELECT s.user_id, s.number, s.last_seen, s.id, t.lobby_rev, t.current_game_id,"
    " g.rev, g.status, g.deadline,"
    " (SELECT COUNT(*) FROM spectators v WHERE v.table_id = {p} AND v.last_seen >= {p})"
    " FROM seats s JOIN tables t ON t.id = s.table_id"
    " LEFT JOIN games g ON g.id = t.current_game_id"
    " WHERE s.table_id = {p} ORDER BY s.joined_at, s.id"
)


def read_table(sa_engine, table_id: str, now: float) -> TableRead | None:
    """The table's seats with its lobby and game revision, in one statement (one snapshot).

    Goes straight to the DB-API connection: the ORM, and even Core, cost more than
    the query itself here. None when the table does not exist or has nobody seated.
    """
    rows = store.raw_query(sa_engine, _SQL, table_id, now - service.WATCHING_WITHIN, table_id)
    if not rows:
        return None
    first = rows[0]
    return TableRead(first[4], first[5], first[6], first[7], first[8], first[9],
                     [SeatRow(r[0], r[1], r[2], r[3]) for r in rows])


# ---------------------------------------------------------------- serialized views

class ViewCache:
    """Serialized views by ETag and host (the table's URL in a view depends on it), LRU.

    A second one (``table_cache``) keeps each table's ``table`` part by (table,
    lobby_rev, status, host): every view of the table shares it, read only.
    """

    def __init__(self, size: int = 2048):
        self._size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key, body, deadline: float | None) -> None:
        with self._lock:
            self._items[key] = (body, deadline)
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


def _per_app(key: str, make, app=None):
    """One object per app (so a test's "restarted" app starts empty)."""
    extensions = (app or current_app).extensions
    found = extensions.get(key)
    if found is None:
        found = extensions.setdefault(key, make())
    return found


def view_cache(app=None) -> ViewCache:
    return _per_app("werewolf.view_cache", ViewCache, app)


def table_cache(app=None) -> ViewCache:
    return _per_app("werewolf.table_cache", lambda: ViewCache(512), app)


def serialize(view: dict, app=None) -> bytes:
    """The view as JSON bytes, with step.seconds_left left as a mark (see json_response)."""
    step = view.get("step")
    if step and "seconds_left" in step:
        view["step"] = {**step, "seconds_left": SECONDS_LEFT_MARK}
    return (app or current_app).json.dumps(view, separators=(",", ":")).encode() + b"\n"


def host_key(environ: dict) -> str:
    """The scheme and host a request came for: the table's URL in a view depends on it."""
    host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
    return f"{environ.get('wsgi.url_scheme', 'http')}://{host}{environ.get('SCRIPT_NAME', '')}"


class Answer(NamedTuple):
    """A poll's response, before any framework: WSGI status, headers and body."""
    status: str
    headers: list
    body: bytes


_COMMON_HEADERS = [("Cache-Control", "no-cache, private"), ("Vary", "Cookie"), *HEADERS.items()]


def json_response(body: bytes, deadline: float | None, now: float, etag: str) -> Answer:
    if deadline is not None:
        body = body.replace(_MARK_JSON, json.dumps(seconds_left(deadline, now)).encode(), 1)
    return Answer("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                             ("ETag", f'"{etag}"'), *_COMMON_HEADERS], body)


def not_modified(etag: str) -> Answer:
    return Answer("304 NOT MODIFIED", [("ETag", f'"{etag}"'), *_COMMON_HEADERS], b"")


def flask_response(answer: Answer):
    return current_app.response_class(answer.body, status=answer.status, headers=answer.headers)


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

    def flush_if_due(self, app, now: float) -> None:
        """Called by every poll: writes what was noted, at most every FLUSH_EVERY seconds."""
        if not self._pending or now - self._flushed_at < self.FLUSH_EVERY:
            return
        with self._lock:
            if not self._pending or now - self._flushed_at < self.FLUSH_EVERY:
                return
            pending, self._pending, self._flushed_at = self._pending, {}, now
        with app.app_context():  # its own session, removed when the context ends
            try:
                with store.write_transaction():
                    db.session.execute(_PRESENCE_UPDATE,
                                       [{"seat_id": k, "seen": v} for k, v in pending.items()])
            except Exception:
                log.exception("writing the presence of %d players failed", len(pending))


def presence(app=None) -> Presence:
    return _per_app("werewolf.presence", Presence, app)


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

def session_protection(app) -> str | None:
    return app.config.get("SESSION_PROTECTION", login_manager.session_protection)


def session_user_id() -> int | None:
    """The logged-in user's id from Flask's session, as Flask-Login reads it, or None.

    None sends the request the ordinary way (Flask-Login restores a remembered login
    from its cookie, refuses an anonymous one). With "strong" session protection
    Flask-Login may drop a session whose browser changed: then always go that way.
    """
    if session_protection(current_app) == "strong":
        return None
    return _user_id_of(session.get("_user_id"))


def _user_id_of(value) -> int | None:
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


class SessionUsers:
    """The user id in a request's session cookie, checked as Flask checks it, per cookie.

    Flask's own signing serializer checks the signature and the age; a cookie header
    seen before (every poll of a player sends the same one) costs one dict lookup
    until the session would expire.
    """

    SIZE = 8192

    def __init__(self, app):
        self._app = app
        self._known: OrderedDict[str, tuple[int | None, float]] = OrderedDict()
        self._lock = threading.Lock()

    def user_id(self, environ: dict) -> int | None:
        app = self._app
        if session_protection(app) == "strong" or not isinstance(app.session_interface,
                                                                  SecureCookieSessionInterface):
            return None
        header = environ.get("HTTP_COOKIE")
        if not header:
            return None
        with self._lock:
            known = self._known.get(header)
        if known is not None and time.time() < known[1]:
            return known[0]
        user_id, until = self._check(header)
        with self._lock:
            self._known[header] = (user_id, until)
            while len(self._known) > self.SIZE:
                self._known.popitem(last=False)
        return user_id

    def _check(self, header: str) -> tuple[int | None, float]:
        app = self._app
        value = parse_cookie(header).get(app.config["SESSION_COOKIE_NAME"])
        serializer = app.session_interface.get_signing_serializer(app)
        if not value or serializer is None:
            return None, float("inf")
        lifetime = app.permanent_session_lifetime.total_seconds()
        try:
            data, signed_at = serializer.loads(value, max_age=int(lifetime), return_timestamp=True)
        except BadData:  # a bad or expired signature, or a payload that is not a session
            return None, float("inf")
        user_id = _user_id_of(data.get("_user_id")) if isinstance(data, dict) else None
        # Flask judges the age by the server's wall clock, as itsdangerous does.
        return user_id, signed_at.timestamp() + lifetime


STATE_PATH = re.compile(r"/api/tables/([^/]{1,64})/state")


class PollGate:
    """WSGI middleware in front of Flask that answers the state poll of a seated player.

    Whatever ``fast_state`` declines goes on to Flask (``api.state``).
    """

    def __init__(self, app, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app
        self.sessions = SessionUsers(app)

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET":
            match = STATE_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match is not None:
                answer = self._answer(environ, match.group(1))
                if answer is not None:
                    start_response(answer.status, answer.headers)
                    return [answer.body]
        return self.wsgi_app(environ, start_response)

    def _answer(self, environ: dict, table_id: str) -> Answer | None:
        app = self.app
        try:
            user_id = self.sessions.user_id(environ)
            if user_id is None:
                return None
            return fast_state(app, environ, table_id, user_id, app.extensions["werewolf.clock"]())
        except Exception:  # Flask will answer, with its error handling
            log.exception("the fast state poll failed; answering it the ordinary way")
            return None


def _engine(app):
    sa_engine = app.extensions.get("werewolf.sa_engine")
    if sa_engine is None:
        with app.app_context():
            sa_engine = app.extensions["werewolf.sa_engine"] = db.engine
    return sa_engine


def fast_state(app, environ: dict, table_id: str, user_id: int, now: float) -> Answer | None:
    """The state poll without the ORM: a 304, a cached view, or a view built from the game.

    None sends the request the ordinary way (``api.state``): not seated, no such
    table, or the lobby (whose view needs the players' names).
    """
    sa_engine = _engine(app)
    read = read_table(sa_engine, table_id, now)
    if read is None:
        return None
    if read.game_status == "running" and read.deadline is not None and read.deadline <= now:
        advance_once(app, read.game_id, now)  # play goes on even if no scheduler runs
        read = read_table(sa_engine, table_id, now)
        if read is None:
            return None
    me = next((s for s in read.seats if s.user_id == user_id), None)
    if me is None:
        return None
    if read.game_id is None:
        return None  # the lobby
    noted = presence(app)
    if now - me.last_seen >= service.PRESENCE_WRITE_EVERY:
        noted.note(me.id, now)
    noted.flush_if_due(app, now)
    # I am connected: my presence was just noted, or written less than 10 s ago.
    connected = tuple(s.number for s in read.seats if s is me or now - s.last_seen < CONNECTED_WITHIN)
    game = store.game_cache.get(read.game_id, read.game_rev)
    if game is None:
        game = _decode(sa_engine, read)
        if game is None:
            return None
    etag = etag_of(table_id, read.lobby_rev, me.number, connected,
                   (read.game_id, game.version_for(me.number)), read.spectators)
    if parse_etags(environ.get("HTTP_IF_NONE_MATCH")).contains(etag):
        return not_modified(etag)
    host = host_key(environ)
    views = view_cache(app)
    cached = views.get((etag, host))
    if cached is None:
        table = _table_json(app, environ, sa_engine, table_id, read, host)
        if table is None:
            return None
        view = dict(engine.view_for(game, me.number, now))
        view["version"] = int(etag[:12], 16)
        view["table"] = table
        view["players"] = [{**p, "connected": p["seat"] in connected} for p in view["players"]]
        deadline = game.deadline if view.get("step") else None
        cached = (serialize(view, app), deadline)
        views.put((etag, host), *cached)
    return json_response(cached[0], cached[1], now, etag)


def _decode(sa_engine, read: TableRead):
    """Decode the game of ``read`` into the shared cache; None if it moved on meanwhile."""
    row = store.read_game(read.game_id, sa_engine)
    if row is None or row.rev != read.game_rev:
        return None
    return store.load_game(row)


class _DuckTable(NamedTuple):
    """What ``lobby.table_json`` reads of a table, without the ORM."""
    id: str
    code: str
    name: str
    settings: str
    host_user_id: int | None
    seats: list
    current_game: object


class _DuckGame(NamedTuple):
    status: str


def _table_json(app, environ: dict, sa_engine, table_id: str, read: TableRead, host: str) -> dict | None:
    """``lobby.table_json`` of the table as ``read`` saw it, cached by its lobby_rev and status.

    Shared by every view of the table: read only. Built once per table and lobby_rev
    in a process, in a request context of its own (``url_for`` needs one).
    """
    key = (table_id, read.lobby_rev, read.game_status, host, read.spectators)
    cache = table_cache(app)
    found = cache.get(key)
    if found is not None:
        return found[0]
    rows = store.raw_query(sa_engine, "SELECT code, name, settings, host_user_id, lobby_rev FROM tables"
                                      " WHERE id = {p}", table_id)
    if not rows or rows[0][4] != read.lobby_rev:
        return None  # changed since: let the ordinary way read it all again
    code, name, settings, host_user_id, _ = rows[0]
    table = _DuckTable(table_id, code, name, settings, host_user_id, read.seats,
                       _DuckGame(read.game_status) if read.game_status else None)
    with app.request_context(environ):
        found = table_json(table, read.spectators)
    cache.put(key, found, None)
    return found
