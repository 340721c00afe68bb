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
import json
import threading
from collections import OrderedDict
from typing import NamedTuple

from sqlalchemy import event, select, update

from . import engine
from .extensions import db
from .models import Game, Table

SQLITE_BUSY_TIMEOUT_MS = 10_000

_AFTER_COMMIT = "werewolf_after_commit"

# Set while a write transaction starts, so SQLite begins it with BEGIN IMMEDIATE.
_immediate = contextvars.ContextVar("werewolf_immediate_transaction", default=False)

# SQLite: one writer per process at a time. Threads queue on this lock (woken at
# once) rather than in SQLite's busy handler, which polls with sleeps of up to 100 ms.
_sqlite_writer = threading.Lock()


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
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(sa_engine, "begin")
    def _on_begin(connection):
        connection.exec_driver_sql("BEGIN IMMEDIATE" if _immediate.get() else "BEGIN")


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
    serial = _sqlite_writer if db.engine.dialect.name == "sqlite" else contextlib.nullcontext()
    with serial:
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


def _decode(row: Game):
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


def read_game(game_id: int) -> GameRead | None:
    """The game's row as it is now, without locking it; ends the read at once."""
    row = db.session.execute(
        select(Game.id, Game.rev, Game.status, Game.deadline, Game.state).where(Game.id == game_id)
    ).first()
    db.session.rollback()
    return GameRead(*row) if row is not None else None


def game_rev(game_id: int) -> int | None:
    rev = db.session.scalar(select(Game.rev).where(Game.id == game_id))
    db.session.rollback()
    return rev


def save_if_unchanged(read: GameRead, game) -> bool:
    """Write ``game``, the next state of ``read``, unless the row moved on since it was read.

    Encodes outside the lock; the write transaction is one UPDATE guarded by the rev
    (atomic on SQLite and PostgreSQL alike). False: nothing was written, read again.
    """
    state = encode(game)
    rev = read.rev + 1
    with write_transaction():
        result = db.session.execute(
            update(Game.__table__).where(Game.__table__.c.id == read.id, Game.__table__.c.rev == read.rev)
            .values(state=state, status=game.status, deadline=game.deadline, rev=rev))
        if result.rowcount != 1:
            return False
    game_cache.put(read.id, rev, game)
    return True


def new_game_row(table: Table, game, now: float) -> Game:
    row = Game(table_id=table.id, created_at=now, rev=0, status="", state="")
    _write(row, game)
    db.session.add(row)
    db.session.flush()  # gives row.id
    return row


def encode(game) -> str:
    return json.dumps(game.to_dict(), separators=(",", ":"), ensure_ascii=False)


def _write(row: Game, game) -> None:
    row.state = encode(game)
    row.status = game.status
    row.deadline = game.deadline
    row.rev = (row.rev or 0) + 1
