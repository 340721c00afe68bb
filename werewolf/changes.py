"""Which tables changed, told to every process of every server sharing the database.

Every write bumps the tables it changed, after its commit (``store``), and the waiting polls
of every process wake: on SQLite (one machine) by a counter per table in a file every
process maps into memory (``Board``), which a thread per process looks at every LOOK_EVERY
seconds; on PostgreSQL (several machines) by ``NOTIFY werewolf_tables, '<table id>'`` in the
write's transaction, which a thread per process LISTENs to on a connection of its own.
``token(table)`` must stay the same for a kept read of the table to be used
(``web.poll.read_table``): None while PostgreSQL's listener is not connected.
"""
from __future__ import annotations

import logging
import mmap
import os
import threading
import time
import weakref
import zlib

log = logging.getLogger(__name__)

CHANNEL = "werewolf_tables"
EVERY_TABLE = "*"  # a write that may have changed any table (accounts, settings)
LOOK_EVERY = 0.05  # seconds between two looks of the SQLite watcher at the board
SLOTS = 4096


class Board:
    """The counters of one SQLite database file (``<database>-changes``).

    A table's slot is a hash of its id (two tables sharing one only wake each other);
    slot 0 is every table's. Bumps happen under the database's write lock, so an
    increment is never lost between processes; a counter read half written only
    differs from the old one, which costs one more read.
    """

    def __init__(self, path: str):
        size = (SLOTS + 1) * 8
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if os.fstat(fd).st_size < size:
                os.ftruncate(fd, size)  # zeros; never shrinks a file another process maps
            self._map = mmap.mmap(fd, size)
        finally:
            os.close(fd)

    @staticmethod
    def _offset(table_id: str) -> int:
        return 8 * (1 + zlib.crc32(table_id.encode()) % SLOTS)

    def token(self, table_id: str) -> bytes:
        at = self._offset(table_id)
        return self._map[0:8] + self._map[at:at + 8]

    def bump(self, table_ids) -> None:
        for at in [0] if table_ids is None else {self._offset(t) for t in table_ids}:
            value = int.from_bytes(self._map[at:at + 8], "little") + 1
            self._map[at:at + 8] = (value % 2 ** 64).to_bytes(8, "little")


class _Watched:
    __slots__ = ("event", "waiters", "token")

    def __init__(self, token):
        self.event, self.waiters, self.token = threading.Event(), 0, token


class Changes:
    """This process's news of one database's tables, and its polls waiting for it."""

    def __init__(self, url, board: Board | None):
        self.url, self.board = url, board
        self.postgres = url.get_backend_name() == "postgresql"
        self._lock = threading.Lock()
        self._heard: dict[str, int] = {}  # what this process wrote or heard, by table
        self._heard_all = 0
        self._listening = 0  # PostgreSQL: > 0 while LISTENing, one more at every connection
        self._watched: dict[str, _Watched] = {}
        self._someone_waits = threading.Event()
        self._thread: threading.Thread | None = None

    def token(self, table_id: str):
        """None when a read cannot be kept (a PostgreSQL listener not connected yet)."""
        if self.board is not None:
            return self.board.token(table_id)
        if self.postgres:  # else one process, no file (tests): what it wrote
            self._start()
            if self._listening <= 0:
                return None
        return self._listening, self._heard_all, self._heard.get(table_id, 0)

    def bump(self, table_ids) -> None:
        """After a commit that changed these tables (None: any table)."""
        if self.board is not None:
            self.board.bump(table_ids)
        self.heard(table_ids)

    def heard(self, table_ids) -> None:
        with self._lock:
            if table_ids is None:
                self._heard_all += 1
                table_ids = list(self._watched)
            for table_id in table_ids:
                self._heard[table_id] = self._heard.get(table_id, 0) + 1
                watched = self._watched.get(table_id)
                if watched is not None:
                    watched.event.set()
                    watched.event = threading.Event()

    def wait(self, table_id: str, token, timeout: float) -> None:
        """Until the table's token moves from ``token``, or ``timeout`` seconds."""
        now = self.token(table_id)  # outside the lock: it may start the listener, which takes it
        with self._lock:
            watched = self._watched.get(table_id)
            if watched is None:
                watched = self._watched[table_id] = _Watched(now)
            watched.waiters += 1
            event = watched.event
            self._someone_waits.set()
        self._start()
        try:
            if self.token(table_id) == token:
                event.wait(timeout)
        finally:
            with self._lock:
                watched.waiters -= 1
                if not watched.waiters and self._watched.get(table_id) is watched:
                    del self._watched[table_id]

    def _start(self) -> None:
        if self._thread is None and (self.board is not None or self.postgres):
            with self._lock:
                if self._thread is None:  # started on first use: in the worker, after the fork
                    target = self._listen if self.postgres else self._look
                    self._thread = threading.Thread(target=target, name="table-changes", daemon=True)
                    self._thread.start()

    def _look(self) -> None:
        """SQLite: wake the waiting polls of every table whose counter moved."""
        while True:
            self._someone_waits.wait()
            time.sleep(LOOK_EVERY)
            with self._lock:
                watched = list(self._watched.items())
                if not watched:
                    self._someone_waits.clear()
            moved = []
            for table_id, item in watched:
                token = self.board.token(table_id)
                if token != item.token:
                    item.token = token
                    moved.append(table_id)
            if moved:
                self.heard(moved)

    def _listen(self) -> None:
        """PostgreSQL: LISTEN, and wake the polls of each table notified; again if cut."""
        import psycopg

        conninfo = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                with psycopg.connect(conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    with self._lock:
                        self._listening = abs(self._listening) + 1  # reads kept before are old
                    self.heard(None)  # what was missed meanwhile: every waiting poll looks again
                    for notice in connection.notifies():
                        self.heard(None if notice.payload == EVERY_TABLE else (notice.payload,))
            except Exception:
                log.exception("listening to the tables' changes failed; again in a second")
            with self._lock:
                self._listening = -abs(self._listening)
            time.sleep(1)


_every: dict[tuple[int, str], Changes] = {}  # by process and database: engines of one database share it
_every_lock = threading.Lock()
_of_engine: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> (pid, Changes)


def of(sa_engine) -> Changes:
    """The changes of ``sa_engine``'s database, for this process (a forked worker has its own).
    Asked at every look of every poll: found by engine first (rendering its URL cost more)."""
    pid = os.getpid()
    known = _of_engine.get(sa_engine)
    if known is not None and known[0] == pid:
        return known[1]
    url = sa_engine.url
    key = (pid, url.render_as_string(hide_password=False))
    with _every_lock:
        found = _every.get(key)
        if found is None:
            database = url.database if url.get_backend_name() == "sqlite" else None
            on_disk = database and database != ":memory:" and not database.startswith("file:")
            found = _every[key] = Changes(url, Board(database + "-changes") if on_disk else None)
        _of_engine[sa_engine] = (pid, found)
    return found


def wake_all() -> None:
    """Every waiting poll of this process looks again (the worker stops)."""
    with _every_lock:
        every = list(_every.values())
    for found in every:
        found.heard(None)
