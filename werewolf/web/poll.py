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

Anything unusual (not logged in through the session, not seated, no such table)
goes the ordinary way, through Flask-Login and the ORM, with its errors.
"""
from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from typing import NamedTuple

from types import SimpleNamespace

from flask import current_app, request, session

from sqlalchemy import bindparam, update

from .. import engine, service, store
from ..extensions import db, login_manager
from ..models import Seat
from .lobby import table_json

log = logging.getLogger(__name__)

# Seats that left meanwhile are simply not updated.
_PRESENCE_UPDATE = (update(Seat.__table__).where(Seat.__table__.c.id == bindparam("seat_id"))
                    .values(last_seen=bindparam("seen")))

CONNECTED_WITHIN = 20.0  # seconds since a player's last poll to be shown as connected

# In the cached body, step.seconds_left is this string, replaced at serving time.
# JSON escapes the NUL characters, and no name or message may hold control characters.
SECONDS_LEFT_MARK = "\x00seconds_left\x00"
_MARK_JSON = json.dumps(SECONDS_LEFT_MARK).encode()


def etag_of(table_id: str, lobby_rev: int, seat: int, connected: tuple, game_version) -> str:
    """``game_version`` is (game id, version for this seat) or None in the lobby."""
    parts = (table_id, lobby_rev, seat, connected, game_version)
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
    seats: list[SeatRow]


_SQL = (
    "SELECT s.user_id, s.number, s.last_seen, s.id, t.lobby_rev, t.current_game_id,"
    " g.rev, g.status, g.deadline"
    " FROM seats s JOIN tables t ON t.id = s.table_id"
    " LEFT JOIN games g ON g.id = t.current_game_id"
    " WHERE s.table_id = {p} ORDER BY s.joined_at, s.id"
)
_PLACEHOLDER = {"qmark": "?", "format": "%s", "pyformat": "%s", "numeric": ":1", "named": ":value"}


def _query(sql: str, value) -> list[tuple]:
    sa_engine = db.engine
    style = sa_engine.dialect.paramstyle
    sql = sql.format(p=_PLACEHOLDER[style])
    params = {"value": value} if style == "named" else (value,)
    connection = sa_engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        cursor.close()
    finally:
        connection.close()  # back to the pool, its transaction (if any) rolled back
    return rows


def _fetch_one(sql: str, value):
    rows = _query(sql, value)
    return rows[0] if rows else None


def read_table(table_id: str) -> TableRead | None:
    """The table's seats with its lobby and game revision, in one statement (one snapshot).

    Goes straight to the DB-API connection: the ORM, and even Core, cost more than
    the query itself here. None when the table does not exist or has nobody seated.
    """
    rows = _query(_SQL, table_id)
    if not rows:
        return None
    first = rows[0]
    return TableRead(first[4], first[5], first[6], first[7], first[8],
                     [SeatRow(r[0], r[1], r[2], r[3]) for r in rows])


# ---------------------------------------------------------------- serialized views

class ViewCache:
    """Serialized views by ETag (and host, which the table's URL depends on), LRU.

    Also holds each table's ``table`` part by (table, lobby_rev, status, host): every
    view of the table shares it, read only.
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


def _per_app(key: str, make):
    """One object per app (so a test's "restarted" app starts empty)."""
    extensions = current_app.extensions
    found = extensions.get(key)
    if found is None:
        found = extensions.setdefault(key, make())
    return found


def view_cache() -> ViewCache:
    return _per_app("werewolf.view_cache", ViewCache)


def serialize(view: dict) -> bytes:
    """The view as JSON bytes, with step.seconds_left left as a mark (see json_response)."""
    step = view.get("step")
    if step and "seconds_left" in step:
        view["step"] = {**step, "seconds_left": SECONDS_LEFT_MARK}
    return current_app.json.dumps(view, separators=(",", ":")).encode() + b"\n"


def json_response(body: bytes, deadline: float | None, now: float, etag: str):
    if deadline is not None:
        body = body.replace(_MARK_JSON, json.dumps(seconds_left(deadline, now)).encode(), 1)
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def not_modified(etag: str):
    response = current_app.response_class(status=304)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


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

    def flush_if_due(self, now: float) -> None:
        """Called by every poll: writes what was noted, at most every FLUSH_EVERY seconds."""
        if not self._pending or now - self._flushed_at < self.FLUSH_EVERY:
            return
        with self._lock:
            if not self._pending or now - self._flushed_at < self.FLUSH_EVERY:
                return
            pending, self._pending, self._flushed_at = self._pending, {}, now
        try:
            with store.write_transaction():
                db.session.execute(_PRESENCE_UPDATE, [{"seat_id": k, "seen": v} for k, v in pending.items()])
        except Exception:
            log.exception("writing the presence of %d players failed", len(pending))
        finally:
            db.session.rollback()


def presence() -> Presence:
    return _per_app("werewolf.presence", Presence)


# ---------------------------------------------------------------- overdue steps

_advancing: dict[int, threading.Event] = {}
_advancing_lock = threading.Lock()


def advance_once(game_id: int, now: float) -> None:
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
        service.advance_game(game_id, now)
    finally:
        db.session.rollback()
        with _advancing_lock:
            _advancing.pop(game_id, None)
        running.set()


# ---------------------------------------------------------------- the fast path

def session_user_id() -> int | None:
    """The logged-in user's id from the signed session, as Flask-Login reads it, or None.

    None sends the request the ordinary way (Flask-Login restores a remembered login
    from its cookie, refuses an anonymous one). With "strong" session protection
    Flask-Login may drop a session whose browser changed: then always go that way.
    """
    mode = current_app.config.get("SESSION_PROTECTION", login_manager.session_protection)
    if mode == "strong":
        return None
    user_id = session.get("_user_id")
    if isinstance(user_id, str) and user_id.isdigit():
        return int(user_id)
    return None


def fast_state(table_id: str, now: float):
    """The state poll without the ORM: a 304, a cached view, or a view built from the game.

    None sends the request the ordinary way (``api.state``): no session user, not
    seated, no such table, the lobby (whose view needs the players' names), or a
    game not decoded in this process yet.
    """
    user_id = session_user_id()
    if user_id is None or not isinstance(table_id, str):
        return None
    read = read_table(table_id)
    if read is None:
        return None
    if read.game_status == "running" and read.deadline is not None and read.deadline <= now:
        advance_once(read.game_id, now)  # play goes on even if no scheduler runs
        read = read_table(table_id)
        if read is None:
            return None
    me = next((s for s in read.seats if s.user_id == user_id), None)
    if me is None:
        return None
    if read.game_id is None:
        return None  # the lobby
    noted = presence()
    if now - me.last_seen >= service.PRESENCE_WRITE_EVERY:
        noted.note(me.id, now)
    noted.flush_if_due(now)
    # I am connected: my presence was just noted, or written less than 10 s ago.
    connected = tuple(s.number for s in read.seats if s is me or now - s.last_seen < CONNECTED_WITHIN)
    game = store.game_cache.get(read.game_id, read.game_rev)
    if game is None:
        game = _decode(read)
        if game is None:
            return None
    etag = etag_of(table_id, read.lobby_rev, me.number, connected,
                   (read.game_id, game.version_for(me.number)))
    if request.if_none_match.contains(etag):
        return not_modified(etag)
    key = (etag, request.host_url)
    views = view_cache()
    cached = views.get(key)
    if cached is None:
        table = _table_json(table_id, read)
        if table is None:
            return None
        view = dict(engine.view_for(game, me.number, now))
        view["version"] = int(etag[:12], 16)
        view["table"] = table
        view["players"] = [{**p, "connected": p["seat"] in connected} for p in view["players"]]
        deadline = game.deadline if view.get("step") else None
        cached = (serialize(view), deadline)
        views.put(key, *cached)
    return json_response(cached[0], cached[1], now, etag)


def _decode(read: TableRead):
    """Decode the game of ``read`` into the shared cache; None if it moved on meanwhile."""
    row = _fetch_one("SELECT id, rev, state FROM games WHERE id = {p}", read.game_id)
    if row is None or row[1] != read.game_rev:
        return None
    return store.load_game(SimpleNamespace(id=row[0], rev=row[1], state=row[2]))


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


def _table_json(table_id: str, read: TableRead) -> dict | None:
    """``lobby.table_json`` of the table as ``read`` saw it, cached by its lobby_rev and status.

    Shared by every view of the table: read only.
    """
    key = ("table", table_id, read.lobby_rev, read.game_status, request.host_url)
    cache = view_cache()
    found = cache.get(key)
    if found is not None:
        return found[0]
    row = _fetch_one("SELECT code, name, settings, host_user_id, lobby_rev FROM tables WHERE id = {p}",
                     table_id)
    if row is None or row[4] != read.lobby_rev:
        return None  # changed since: let the ordinary way read it all again
    table = _DuckTable(table_id, row[0], row[1], row[2], row[3], read.seats,
                       _DuckGame(read.game_status) if read.game_status else None)
    found = table_json(table)
    cache.put(key, found, None)
    return found
