"""Which tables changed: one counter per table in a small file that every process of the
server maps into memory.

The state poll is nine requests in ten, and most of them find nothing new. Their one
SQL read of the table cost more than the rest of the poll over HTTP (the threads of a
worker hand the GIL back and forth around each SQLite call). With the board, a process
keeps each table's read (``web.poll.PollReads``) and reads the table again only when
the table's counter moved: every write bumps the counters of the tables it changed,
after its commit, so a poll that sees the old counter was taken before the write and
reads it again next time.

SQLite only: its processes are on one machine, beside the database file. Servers that
share a PostgreSQL database may be on several machines; they read the table at every
poll, as before.

A table's slot is a hash of its id: two tables sharing a slot only read each other's
changes again. Slot 0 is every table's ("any table may have changed"): the writes of
accounts, lobbies and settings, which are rare, bump it rather than list their tables.
"""
from __future__ import annotations

import mmap
import os
import threading
import zlib

SLOTS = 4096
_SIZE = (SLOTS + 1) * 8
_EVERY_TABLE = 0


class ChangeBoard:
    """The counters of one database file (``<database>-changes``), shared by its processes.

    Bumps happen under the database's write lock (``store._sqlite_writer``), so the
    read-and-increment of a counter is never lost between processes. A reader may see a
    counter half written: any such value differs from the old one, so it only reads
    again.
    """

    def __init__(self, path: str):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if os.fstat(fd).st_size < _SIZE:
                os.ftruncate(fd, _SIZE)  # zeros; never shrinks a file another process maps
            self._map = mmap.mmap(fd, _SIZE)
        finally:
            os.close(fd)

    @staticmethod
    def _offset(table_id: str) -> int:
        return 8 * (1 + zlib.crc32(table_id.encode()) % SLOTS)

    def token(self, table_id: str) -> bytes:
        """What has to stay the same for a read of ``table_id`` to still be the table as it is."""
        board, at = self._map, self._offset(table_id)
        return board[0:8] + board[at:at + 8]

    def bump(self, table_ids) -> None:
        """After a commit that changed these tables (None: any table)."""
        board = self._map
        offsets = [_EVERY_TABLE] if table_ids is None else {self._offset(t) for t in table_ids}
        for at in offsets:
            value = int.from_bytes(board[at:at + 8], "little") + 1
            board[at:at + 8] = (value % 2 ** 64).to_bytes(8, "little")


_boards: dict[tuple[int, str], ChangeBoard] = {}
_boards_lock = threading.Lock()


def board_of(database: str | None) -> ChangeBoard | None:
    """The board of an SQLite database file, opened once per process; None for anything else."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    key = (os.getpid(), database)  # a forked worker maps the file again
    with _boards_lock:
        found = _boards.get(key)
        if found is None:
            found = _boards[key] = ChangeBoard(database + "-changes")
    return found
