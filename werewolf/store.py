"""Persistence: database transactions and the engine state of a game in its row.

This is the only module that turns an engine game into a ``Game`` row and back.
Decoded games are kept in a small per-process cache keyed by (game id, rev), so a
poll that finds the same ``rev`` never decodes JSON again.

A move of the game is written optimistically (``read_game`` then
``save_if_unchanged``): decoding, the rules and encoding happen outside any lock,
and the write transaction only swaps the state if the row's ``rev`` is still the
one that was read. SQLite has one write lock for the whole file; holding it for a
single UPDATE instead of ~3 ms of Python (much longer when the worker's threads
compete for the GIL) is what keeps 100 tables' moves from queueing behind it.
"""
import contextlib
import contextvars
import fcntl
import json
import os
import threading
from collections import OrderedDict
from typing import NamedTuple

from sqlalchemy import event, select

from . import engine
from .extensions import db
from .models import Game, Table

SQLITE_BUSY_TIMEOUT_MS = 10_000
WAL_AUTOCHECKPOINT_PAGES = 20_000  # ~80 MB

_AFTER_COMMIT = "werewolf_after_commit"

# Set while a write transaction starts, so SQLite begins it with BEGIN IMMEDIATE.
_immediate = contextvars.ContextVar("werewolf_immediate_transaction", default=False)


class _SqliteWriter:
    """SQLite's write lock, queued for in the kernel rather than in SQLite's busy handler.

    The busy handler polls with sleeps growing to 100 ms: a waiting worker sleeps
    while another worker's threads take the lock again and again, and under load a
    write waited out the 10 s busy timeout ("database is locked"). Here the threads
    of a process queue on a lock, and the processes on an exclusive ``flock`` of a
    file beside the database, which wakes a waiter as soon as it is released (and is
    released by the kernel if the process dies).
    """

    def __init__(self):
        self._threads = threading.Lock()
        self._files: dict[tuple[int, str], int] = {}

    @contextlib.contextmanager
    def hold(self, database: str | None):
        with self._threads:
            if not database or database == ":memory:":
                yield
                return
            fd = self._file(database)
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _file(self, database: str) -> int:
        key = (os.getpid(), database)  # a forked worker opens its own
        fd = self._files.get(key)
        if fd is None:
            fd = self._files[key] = os.open(database + "-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
        return fd


_sqlite_writer = _SqliteWriter()


def configure_engine(sa_engine) -> None:
    """SQLite: WAL, a busy timeout, and transactions begun by us (BEGIN or BEGIN IMMEDIATE).

    pysqlite's own transaction handling starts transactions late and never with
    IMMEDIATE; a read-modify-write that upgrades a read lock can fail at once with
    "database is locked". Taking the write lock first makes writers queue instead.
    """
    if sa_engine.dialect.name != "sqlite":
        return

    @event.listens_for(sa_engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        # A write that crosses the WAL's size limit checkpoints it inside its COMMIT,
        # copying megabytes while every other writer waits on the lock (a ~1 s stall
        # under load). The scheduler checkpoints in the background instead (see
        # checkpoint()); this larger limit is only the safety net without it.
        cursor.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(sa_engine, "begin")
    def _on_begin(connection):
        connection.exec_driver_sql("BEGIN IMMEDIATE" if _immediate.get() else "BEGIN")


def checkpoint() -> None:
    """Copy the SQLite WAL into the database file without blocking readers or writers."""
    if db.engine.dialect.name != "sqlite":
        return
    with db.engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")


def create_tables() -> None:
    """Create the missing tables in one write transaction (BEGIN IMMEDIATE on SQLite).

    Every gunicorn worker does this as it boots: on a fresh SQLite file, workers that
    each check then create would upgrade read locks to write locks and fail with
    "database is locked", killing the worker and the server. Holding the write lock
    from the start makes them queue; the later ones find the tables there.
    """
    token = _immediate.set(True)
    try:
        with db.engine.begin() as connection:
            db.metadata.create_all(connection)
    finally:
        _immediate.reset(token)


@contextlib.contextmanager
def write_transaction():
    """One write transaction holding the database's (SQLite) write lock from its start.

    Rows read inside it with ``FOR UPDATE`` (see ``lock_table``) are locked on
    PostgreSQL too. Commits on success, rolls back on any exception.
    """
    db.session.rollback()  # end any read transaction, whose snapshot may be stale
    sa_engine = db.engine
    sqlite = sa_engine.dialect.name == "sqlite"
    with _sqlite_writer.hold(sa_engine.url.database) if sqlite else contextlib.nullcontext():
        token = _immediate.set(True)
        try:
            db.session.connection()  # begins now, while the flag is set
        finally:
            _immediate.reset(token)
        callbacks = db.session.info.setdefault(_AFTER_COMMIT, [])
        callbacks.clear()
        try:
            yield db.session
            db.session.commit()
        except BaseException:
            callbacks.clear()
            db.session.rollback()
            raise
    for callback in callbacks:
        callback()
    callbacks.clear()


def lock_table(table_id: str) -> Table | None:
    return db.session.execute(
        select(Table).where(Table.id == table_id).with_for_update()
    ).scalar_one_or_none()


class _GameCache:
    """Decoded engine games by game id, each with the rev it was decoded from.

    Cached games are shared between threads and must never be mutated: writers
    decode their own copy (``load_for_update``) and hand it over only after saving.
    """

    def __init__(self, size: int = 256):
        self._size = size
        self._items: OrderedDict[int, tuple[int, object]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, rev: int):
        with self._lock:
            item = self._items.get(game_id)
            if item is None or item[0] != rev:
                return None
            self._items.move_to_end(game_id)
            return item[1]

    def put(self, game_id: int, rev: int, game) -> None:
        with self._lock:
            current = self._items.get(game_id)
            if current is not None and current[0] > rev:
                return  # a newer state is already known
            self._items[game_id] = (rev, game)
            self._items.move_to_end(game_id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


game_cache = _GameCache()


def encode(game) -> str:
    """The stored form of a game: its JSON, led by the state version its format has."""
    return f'{{"state_version":{engine.STATE_VERSION},' + game.to_json()[1:]


def _decode(row: Game):
    """The engine game of a stored state of any version (Game.from_dict upgrades it)."""
    return engine.Game.from_dict(json.loads(row.state))


def load_game(row: Game):
    """The engine game of ``row`` for reading only (shared, do not mutate)."""
    game = game_cache.get(row.id, row.rev)
    if game is None:
        game = _decode(row)
        game_cache.put(row.id, row.rev, game)
    return game


def load_for_update(row):
    """A private copy of the engine game of ``row`` (a Game or a GameRead), free to mutate."""
    return _decode(row)


class GameRead(NamedTuple):
    id: int
    rev: int
    status: str
    deadline: float | None
    state: str


_MARK = {"qmark": "?", "format": "%s", "pyformat": "%s"}


def _bind(paramstyle: str, sql: str, values: tuple):
    """``sql`` with one ``{p}`` per value, in the driver's own parameter style."""
    if paramstyle in _MARK:
        return sql.replace("{p}", _MARK[paramstyle]), values
    # numeric (:1, :2, ...) or named (:p0, :p1, ...), in order of appearance
    parts = sql.split("{p}")
    marks = [f":{i + 1}" if paramstyle == "numeric" else f":p{i}" for i in range(len(values))]
    sql = parts[0] + "".join(mark + rest for mark, rest in zip(marks, parts[1:]))
    return sql, values if paramstyle == "numeric" else {f"p{i}": v for i, v in enumerate(values)}


def raw_query(sa_engine, sql: str, *values) -> list[tuple]:
    """``sql`` with a ``{p}`` per value, on a pooled DB-API connection.

    For the hottest reads: the ORM, and even Core, cost more than the query itself.
    """
    sql, params = _bind(sa_engine.dialect.paramstyle, sql, values)
    connection = sa_engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        cursor.close()
    finally:
        connection.close()  # back to the pool, its transaction (if any) rolled back
    return rows


def read_game(game_id: int, sa_engine=None) -> GameRead | None:
    """The game's row as it is now, without locking it (``sa_engine``: outside an app context)."""
    rows = raw_query(sa_engine or db.engine, "SELECT id, rev, status, deadline, state FROM games WHERE id = {p}",
                     game_id)
    return GameRead(*rows[0]) if rows else None


def game_rev(game_id: int) -> int | None:
    rows = raw_query(db.engine, "SELECT rev FROM games WHERE id = {p}", game_id)
    return rows[0][0] if rows else None


_SAVE_SQL = "UPDATE games SET state = {p}, status = {p}, deadline = {p}, rev = {p} WHERE id = {p} AND rev = {p}"


def save_if_unchanged(read: GameRead, game) -> bool:
    """Write ``game``, the next state of ``read``, unless the row moved on since it was read.

    Encodes outside the lock; the write transaction is one UPDATE guarded by the rev
    (atomic on SQLite and PostgreSQL alike), on a bare DB-API connection: the lock
    is held for three statements, and every bit of Python run while holding it
    also waits for the GIL. False: nothing was written, read again.
    """
    state = encode(game)
    rev = read.rev + 1
    sa_engine = db.engine
    sql, params = _bind(sa_engine.dialect.paramstyle, _SAVE_SQL,
                        (state, game.status, game.deadline, rev, read.id, read.rev))
    sqlite = sa_engine.dialect.name == "sqlite"
    connection = sa_engine.raw_connection()
    try:
        with _sqlite_writer.hold(sa_engine.url.database) if sqlite else contextlib.nullcontext():
            cursor = connection.cursor()
            try:
                if sqlite:
                    cursor.execute("BEGIN IMMEDIATE")
                cursor.execute(sql, params)
                saved = cursor.rowcount == 1
                connection.commit()
            except BaseException:
                connection.rollback()
                raise
            finally:
                cursor.close()
    finally:
        connection.close()
    if saved:
        game_cache.put(read.id, rev, game)
    return saved


def new_game_row(table: Table, game, now: float) -> Game:
    row = Game(table_id=table.id, created_at=now, rev=0, status="", state="")
    _write(row, game)
    db.session.add(row)
    db.session.flush()  # gives row.id
    return row


def _write(row: Game, game) -> None:
    row.state = encode(game)
    row.status = game.status
    row.deadline = game.deadline
    row.rev = (row.rev or 0) + 1
