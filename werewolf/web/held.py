"""State polls held until their table changes: ``Prefer: wait=N`` (RFC 7240, API.md).

A phone polls its state with ``If-None-Match``; most polls find nothing new. Asked with
``Prefer: wait=25``, a poll that would answer 304 waits here instead, on its thread of
the worker's pool, until the table's counter on the change board (changes.py) moves,
then runs again: it answers as soon as the view of that player changed, and at the end
of the wait otherwise. A sleeping villager's phone then sends one request per night
instead of one every 1.5 s, and sees the day come at once rather than at its next poll.

One watcher thread per process looks at the board every LOOK_EVERY seconds for the
tables that have waiting polls (a write of another worker bumps the board, not this
process's memory), and wakes the polls whose table moved. A process holds at most
``limit`` polls (its pool has that many threads more than the ones that answer, see
gunicorn.conf.py); beyond it, or without a board (PostgreSQL), polls answer at once
and the phone polls again after its usual 1.5 s.
"""
from __future__ import annotations

import threading
import time
import weakref

MAX_WAIT = 25.0      # seconds a poll is held at most, whatever it asks
LOOK_EVERY = 0.05    # seconds between two looks of the watcher at the board
RECHECK_EVERY = 5.0  # a held poll runs again at least this often: presence and spectators
                     # move without a bump, and the player's own presence is noted then


class HeldPolls:
    """The polls one process holds, by table and by the board's token they were taken at."""

    def __init__(self, board, limit: int):
        self.board = board
        self.limit = limit
        self._lock = threading.Lock()
        self._waiting: dict[str, dict[bytes, set[threading.Event]]] = {}
        self._held = 0
        self._closed = False
        self._someone_waits = threading.Event()
        self._watcher: threading.Thread | None = None

    @property
    def held(self) -> int:
        return self._held

    @property
    def closed(self) -> bool:
        return self._closed

    def take(self) -> bool:
        """A place for one more held poll; False when full or closing."""
        with self._lock:
            if self._closed or self._held >= self.limit:
                return False
            self._held += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self._held -= 1

    def wait(self, table_id: str, token: bytes, timeout: float) -> bool:
        """Until ``table_id``'s token on the board differs from ``token``, or ``timeout``
        seconds, or the process stops holding polls. True if the table moved (or closing)."""
        moved = threading.Event()
        with self._lock:
            if self._closed:
                return True
            self._waiting.setdefault(table_id, {}).setdefault(token, set()).add(moved)
            self._ensure_watcher()
            self._someone_waits.set()
        if moved.wait(timeout):
            return True
        with self._lock:  # timed out: forget it (the watcher may have just dropped it)
            groups = self._waiting.get(table_id)
            waiters = groups.get(token) if groups else None
            if waiters is not None:
                waiters.discard(moved)
                if not waiters:
                    del groups[token]
                if not groups:
                    del self._waiting[table_id]
        return moved.is_set()

    def close(self) -> None:
        """The worker stops: every held poll answers now, and no poll is held any more."""
        with self._lock:
            self._closed = True
            for groups in self._waiting.values():
                for waiters in groups.values():
                    for moved in waiters:
                        moved.set()
            self._waiting.clear()
            self._someone_waits.set()

    def _ensure_watcher(self) -> None:
        # Under the lock. Started on first use, so that it lives in the worker (after the fork).
        if self._watcher is None or not self._watcher.is_alive():
            self._watcher = threading.Thread(target=self._watch, name="held-polls", daemon=True)
            self._watcher.start()

    def _watch(self) -> None:
        while True:
            self._someone_waits.wait()
            if self._closed:
                return
            self.look()
            time.sleep(LOOK_EVERY)

    def look(self) -> int:
        """Wake the polls whose table moved on the board; how many were woken."""
        woken = 0
        with self._lock:
            for table_id in list(self._waiting):
                groups = self._waiting[table_id]
                token = self.board.token(table_id)
                for old in [t for t in groups if t != token]:
                    for moved in groups.pop(old):
                        moved.set()
                        woken += 1
                if not groups:
                    del self._waiting[table_id]
            if not self._waiting and not self._closed:
                self._someone_waits.clear()
        return woken


_every: weakref.WeakSet[HeldPolls] = weakref.WeakSet()
_every_lock = threading.Lock()


def make(board, limit: int) -> HeldPolls | None:
    """This process's held polls of ``board``; None (polls answer at once) without one."""
    if board is None or limit <= 0:
        return None
    made = HeldPolls(board, limit)
    with _every_lock:
        _every.add(made)
    return made


def release_all() -> None:
    """The worker stops (gunicorn.conf.py): held polls answer, none is held any more."""
    with _every_lock:
        every = list(_every)
    for held in every:
        held.close()
