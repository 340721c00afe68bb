"""The database's settings and its transactions: SQLite's pragmas and write lock, the
write transaction every change runs in, the schema's lock, the statements that need no
transaction of their own.

SQLite has one write lock for the whole file. Writers queue for it here, in the kernel,
rather than in SQLite's busy handler (see ``_SqliteWriter``); on PostgreSQL correctness
comes from the rev guard and row locks (``SELECT ... FOR UPDATE``) alone.
"""
import contextlib
import contextvars
import fcntl
import functools
import os
import threading

from sqlalchemy import event, text

from . import changes
from .extensions import db

SQLITE_BUSY_TIMEOUT_MS = 10_000
WAL_AUTOCHECKPOINT_PAGES = 20_000  # ~80 MB

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


# SQLite: a connection for every request that reads at once, never a wait for one. A
# pooled connection is a file handle, with no server to spare: a pool's limit (SQLAlchemy's
# default is 5 + 10 overflow) only made requests queue for it, among them a writer holding
# the write lock while every other writer waited behind it. This many stay open between uses.
SQLITE_POOL = {"pool_size": 32, "max_overflow": -1}


def engine_options(uri: str, options: dict | None) -> dict:
    """SQLAlchemy's engine options for ``uri`` (SQLALCHEMY_ENGINE_OPTIONS): SQLite's pool
    unless the settings give one; PostgreSQL keeps SQLAlchemy's defaults."""
    options = dict(options or {})
    if uri.startswith("sqlite") and ":memory:" not in uri and "poolclass" not in options:
        options = {**SQLITE_POOL, **options}
    return options


def configure_engine(sa_engine) -> None:
    """SQLite: WAL, a busy timeout, and transactions begun by us (BEGIN or BEGIN IMMEDIATE).

    pysqlite's own transaction handling starts transactions late and never with
    IMMEDIATE; a read-modify-write that upgrades a read lock can fail at once with
    "database is locked". Taking the write lock first makes writers queue instead.
    (SQLAlchemy's documented recipe for pysqlite's transactions, with IMMEDIATE.)
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


NOTIFY = text("SELECT pg_notify(:channel, :table_id)")


def notify_changes(connection, tables) -> None:
    """PostgreSQL: tell the other servers which tables this transaction changes (sent at
    its commit, changes.py); ``tables`` as in ``write_transaction``."""
    if connection.dialect.name == "postgresql" and tables != ():
        for table_id in [changes.EVERY_TABLE] if tables is None else sorted(set(tables)):
            connection.execute(NOTIFY, {"channel": changes.CHANNEL, "table_id": table_id})


@contextlib.contextmanager
def write_transaction(tables=None):
    """One write transaction holding the database's (SQLite) write lock from its start.

    Rows read inside it with ``FOR UPDATE`` (see ``store.lock_table``) are locked on
    PostgreSQL too. Commits on success, rolls back on any exception.

    ``tables``: the ids of the tables whose poll reads it changes (``()``: none); None,
    the default, tells the polls that any table may have changed (see changes.py).
    """
    db.session.rollback()  # end any read transaction, whose snapshot may be stale
    sa_engine = db.engine
    with writer_lock(sa_engine):
        token = _immediate.set(True)
        try:
            db.session.connection()  # begins now, while the flag is set
        finally:
            _immediate.reset(token)
        try:
            yield db.session
            notify_changes(db.session.connection(), tables)
            db.session.commit()
        except BaseException:
            db.session.rollback()
            raise
        if tables != ():
            changes.of(sa_engine).bump(tables)  # after the commit, still under the lock


def writer_lock(sa_engine):
    """SQLite: the database's write lock, queued for by threads and processes alike; elsewhere
    nothing (PostgreSQL locks rows)."""
    if sa_engine.dialect.name != "sqlite":
        return contextlib.nullcontext()
    return _sqlite_writer.hold(sa_engine.url.database)


@functools.lru_cache(maxsize=64)
def _for_driver(statement, dialect) -> tuple[str, tuple | None]:
    """``statement`` (a ``text()``) as SQLAlchemy compiles it for the driver: its SQL in the
    driver's parameter style, and for a positional style the parameters' names in order."""
    compiled = statement.compile(dialect=dialect)
    return compiled.string, tuple(compiled.positiontup) if compiled.positional else None


def execute(cursor, sa_engine, statement, params: dict):
    """Run ``statement`` with ``params`` (by name) on a DB-API ``cursor`` of ``sa_engine``."""
    sql, names = _for_driver(statement, sa_engine.dialect)
    cursor.execute(sql, params if names is None else tuple(params[name] for name in names))
    return cursor


@contextlib.contextmanager
def driver_cursor(sa_engine, writing: bool = False):
    """A DB-API cursor on a pooled connection (``Engine.raw_connection``), for the hottest
    statements: each atomic alone, so none needs a transaction around it. Measured: through
    a Core ``Connection``, a game's read cost 6 times as much CPU as the query itself.

    PostgreSQL: in autocommit, one round trip a statement instead of three (BEGIN, it,
    COMMIT). SQLite: its own autocommit; when ``writing``, one BEGIN IMMEDIATE ... COMMIT
    (the caller holds ``writer_lock``). Rolled back on any exception.
    """
    connection = sa_engine.raw_connection()
    postgresql = sa_engine.dialect.name == "postgresql"
    try:
        if postgresql:
            connection.driver_connection.autocommit = True
        cursor = connection.cursor()
        try:
            if writing and not postgresql:
                cursor.execute("BEGIN IMMEDIATE")
            yield cursor
            if writing:
                connection.commit()
        except BaseException:
            connection.rollback()
            raise
        finally:
            cursor.close()
    finally:
        if postgresql:
            try:
                connection.driver_connection.autocommit = False  # as the pool's other users expect it
            except Exception:  # a broken connection: never hand it out again
                connection.invalidate()
        connection.close()  # back to the pool, its transaction (if any) rolled back
