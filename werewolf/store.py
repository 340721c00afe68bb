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

from sqlalchemy import bindparam, event, select, text, update

from . import changes, engine
from .extensions import db
from .models import Game, Seat, Table

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


@contextlib.contextmanager
def schema_transaction():
    """A transaction in which to look at and change the tables, one process at a time.

    Every gunicorn worker of every server prepares the schema as it boots: on a fresh
    database, workers that each check then create would fail ("database is locked" on
    SQLite, a duplicate on PostgreSQL), killing the worker and the server. BEGIN
    IMMEDIATE on SQLite and an advisory lock on PostgreSQL make them queue; the later
    ones find the tables there.
    """
    with db.engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:  # a migration may copy a table that others refer to (outside a transaction)
            connection.connection.driver_connection.execute("PRAGMA foreign_keys = OFF")
        token = _immediate.set(True)
        try:
            with connection.begin():
                lock_schema(connection)
                yield connection
                if sqlite:
                    problems = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    assert not problems, f"rows refer to rows that do not exist: {problems[:5]}"
        finally:
            _immediate.reset(token)
            if sqlite:
                connection.connection.driver_connection.execute("PRAGMA foreign_keys = ON")


# Any 64-bit number of our own: the PostgreSQL advisory lock held while the schema changes.
SCHEMA_LOCK_KEY = 0x776572650001


def lock_schema(connection) -> None:
    """PostgreSQL: queue behind any other process creating or upgrading the tables (SQLite's
    BEGIN IMMEDIATE does this already). Released at the end of the transaction."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK_KEY})")


def _notify(execute, dialect: str, tables) -> None:
    """PostgreSQL: tell the other servers which tables this transaction changes (sent at
    its commit, changes.py)."""
    if dialect == "postgresql" and tables != ():
        for table_id in [changes.EVERY_TABLE] if tables is None else sorted(set(tables)):
            execute(table_id)


@contextlib.contextmanager
def write_transaction(tables=None):
    """One write transaction holding the database's (SQLite) write lock from its start.

    Rows read inside it with ``FOR UPDATE`` (see ``lock_table``) are locked on
    PostgreSQL too. Commits on success, rolls back on any exception.

    ``tables``: the ids of the tables whose poll reads it changes (``()``: none); None,
    the default, tells the polls that any table may have changed (see changes.py).
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
            _notify(lambda t: db.session.execute(text("SELECT pg_notify(:c, :t)"), {"c": changes.CHANNEL, "t": t}),
                    sa_engine.dialect.name, tables)
            db.session.commit()
        except BaseException:
            callbacks.clear()
            db.session.rollback()
            raise
        if tables != ():
            changes.of(sa_engine).bump(tables)  # after the commit, still under the lock
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
    table_id: str


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


@contextlib.contextmanager
def _single_statement(connection, sa_engine):
    """PostgreSQL: run one statement without BEGIN and COMMIT (it is atomic by itself):
    one round trip to the server instead of three. Elsewhere, as it is."""
    if sa_engine.dialect.name != "postgresql":
        yield
        return
    driver = connection.driver_connection
    driver.autocommit = True
    try:
        yield
    finally:
        try:
            driver.autocommit = False  # as the pool's other users expect it
        except Exception:  # a broken connection: never hand it out again
            connection.invalidate()


def raw_query(sa_engine, sql: str, *values) -> list[tuple]:
    """``sql`` with a ``{p}`` per value, on a pooled DB-API connection.

    For the hottest reads: the ORM, and even Core, cost more than the query itself.
    """
    sql, params = _bind(sa_engine.dialect.paramstyle, sql, values)
    connection = sa_engine.raw_connection()
    try:
        with _single_statement(connection, sa_engine):
            cursor = connection.cursor()
            cursor.execute(sql, params)
            rows = cursor.fetchall()
            cursor.close()
    finally:
        connection.close()  # back to the pool, its transaction (if any) rolled back
    return rows


def read_game(game_id: int, sa_engine=None) -> GameRead | None:
    """The game's row as it is now, without locking it (``sa_engine``: outside an app context)."""
    rows = raw_query(sa_engine or db.engine, "SELECT id, rev, status, deadline, state, table_id FROM games WHERE id = {p}",
                     game_id)
    return GameRead(*rows[0]) if rows else None


def game_rev(game_id: int) -> int | None:
    rows = raw_query(db.engine, "SELECT rev FROM games WHERE id = {p}", game_id)
    return rows[0][0] if rows else None


# ---------------------------------------------------------------- the state poll's reads


class SeatRow(NamedTuple):
    user_id: int
    number: int
    last_seen: float
    id: int
    password_hash: str  # of the seated user: their session's key must match it
    name: str
    session_tokens: str  # the seated user's live sessions: theirs must be one


class PollRead(NamedTuple):
    """A table as every poll of it sees it, in one statement (one snapshot)."""
    code: str
    name: str
    settings: str
    host_user_id: int | None
    public: bool
    lobby_rev: int
    screen_rev: int  # which key of the room's screen holds
    game_id: int | None
    game_rev: int | None
    game_status: str | None
    deadline: float | None
    spectators: int  # accounts not seated that polled since ``watching_since``
    seats: list[SeatRow]


_POLL_SQL = (
    "SELECT s.user_id, s.number, s.last_seen, s.id, u.password_hash, u.name, u.session_tokens,"
    " t.code, t.name, t.settings, t.host_user_id,"
    " (SELECT COUNT(*) FROM public_tables p WHERE p.table_id = t.id), t.lobby_rev, t.screen_rev,"
    " t.current_game_id,"
    " g.rev, g.status, g.deadline,"
    # Not correlated with the row (the table is a parameter): counted once, not once per seat.
    " (SELECT COUNT(*) FROM spectators v WHERE v.table_id = {p} AND v.last_seen >= {p})"
    " FROM seats s JOIN tables t ON t.id = s.table_id JOIN users u ON u.id = s.user_id"
    " LEFT JOIN games g ON g.id = t.current_game_id"
    " WHERE s.table_id = {p} ORDER BY s.joined_at, s.id"
)


def read_table_for_poll(sa_engine, table_id: str, watching_since: float) -> PollRead | None:
    """The table, its seats (with their users' names, password hashes and live sessions),
    its game's revision and how many spectators polled since ``watching_since``: the same
    for every viewer of the table, so that it can be kept (``web.poll.Reads``).

    Goes straight to the DB-API connection: the ORM, and even Core, cost more than
    the query itself here. None when the table does not exist or has nobody seated.
    """
    rows = raw_query(sa_engine, _POLL_SQL, table_id, watching_since, table_id)
    if not rows:
        return None
    first = rows[0]
    seats = [SeatRow(*r[:7]) for r in rows]
    return PollRead(*first[7:11], bool(first[11]), *first[12:], seats)


def session_check_of(sa_engine, user_id: int) -> tuple[str | None, str | None]:
    """The account's password hash and live sessions (None, None without such an account)."""
    rows = raw_query(sa_engine, "SELECT password_hash, session_tokens FROM users WHERE id = {p}", user_id)
    return tuple(rows[0]) if rows else (None, None)


_SEAT_AND_GAME = text(
    "SELECT t.current_game_id, s.number, g.rev FROM tables t"
    " LEFT JOIN seats s ON s.table_id = t.id AND s.user_id = :user_id"
    " LEFT JOIN games g ON g.id = t.current_game_id WHERE t.id = :table_id")


def seat_and_game(table_id: str, user_id: int):
    """(current game id, the user's seat number, game rev) of a table, each None if absent;
    None without such a table. Ends its read transaction."""
    found = db.session.execute(_SEAT_AND_GAME, {"user_id": user_id, "table_id": table_id}).first()
    db.session.rollback()
    return found


# Seats that left meanwhile are simply not updated.
_PRESENCE_UPDATE = (update(Seat.__table__).where(Seat.__table__.c.id == bindparam("seat_id"))
                    .values(last_seen=bindparam("seen")))


def write_presence(seen_by_seat_id: dict[int, float], tables: tuple = ()) -> None:
    """When each seat's player was last seen, all in one write transaction; ``tables``: those
    whose views change (a player shown as gone is back)."""
    # Bumps no other table: a poll's read is at most poll.Reads.TTL old, and presence is
    # shown at a 20 s grain (view.CONNECTED_WITHIN).
    with write_transaction(tables=tables):
        db.session.execute(_PRESENCE_UPDATE, [{"seat_id": k, "seen": v} for k, v in seen_by_seat_id.items()])


# A game recorded from its deal gets its new moves appended (NULL || text stays NULL: a
# game started before moves were recorded keeps no partial record).
_SAVE_SQL = ("UPDATE games SET state = {p}, status = {p}, deadline = {p}, rev = {p}, moves = moves || {p}"
             " WHERE id = {p} AND rev = {p}")


def moves_text(moves: list[dict]) -> str:
    """Moves as the ``moves`` column holds them: one JSON line each."""
    return "".join(json.dumps(move, separators=(",", ":"), ensure_ascii=False) + "\n" for move in moves)


def save_if_unchanged(read: GameRead, game, moves: list[dict]) -> bool:
    """Write ``game``, the next state of ``read``, unless the row moved on since it was read;
    ``moves``: the inputs that made it from ``read`` (appended to the game's record).

    Encodes outside the lock; the write transaction is one UPDATE guarded by the rev
    (atomic on SQLite and PostgreSQL alike), on a bare DB-API connection: the lock
    is held for three statements, and every bit of Python run while holding it
    also waits for the GIL. False: nothing was written, read again.
    """
    state = encode(game)
    rev = read.rev + 1
    sa_engine = db.engine
    sql, params = _bind(sa_engine.dialect.paramstyle, _SAVE_SQL,
                        (state, game.status, game.deadline, rev, moves_text(moves), read.id, read.rev))
    sqlite = sa_engine.dialect.name == "sqlite"
    connection = sa_engine.raw_connection()
    try:
        with _sqlite_writer.hold(sa_engine.url.database) if sqlite else _single_statement(connection, sa_engine):
            cursor = connection.cursor()
            try:
                if sqlite:
                    cursor.execute("BEGIN IMMEDIATE")
                cursor.execute(sql, params)
                saved = cursor.rowcount == 1
                if saved:
                    _notify(lambda t: cursor.execute(*_bind(sa_engine.dialect.paramstyle, "SELECT pg_notify({p}, {p})",
                                                            (changes.CHANNEL, t))),
                            sa_engine.dialect.name, (read.table_id,))
                connection.commit()
            except BaseException:
                connection.rollback()
                raise
            finally:
                cursor.close()
            if saved:
                changes.of(sa_engine).bump((read.table_id,))  # after the commit, still under the lock
    finally:
        connection.close()
    if saved:
        game_cache.put(read.id, rev, game)
    return saved


def new_game_row(table: Table, game, now: float, deal: dict) -> Game:
    """``deal``: the arguments of engine.new_game that made ``game`` (the replay's first line)."""
    row = Game(table_id=table.id, created_at=now, rev=0, status="", state="", table_name=table.name,
               host_user_id=table.host_user_id, moves=moves_text([{"deal": deal}]))
    _write(row, game)
    db.session.add(row)
    db.session.flush()  # gives row.id
    return row


def _write(row: Game, game) -> None:
    row.state = encode(game)
    row.status = game.status
    row.deadline = game.deadline
    row.rev = (row.rev or 0) + 1
