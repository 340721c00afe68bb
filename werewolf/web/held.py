"""State polls held until the player's view changes: ``Prefer: wait=N`` (RFC 7240, API.md).

A phone polls its state with ``If-None-Match``; most polls find nothing new. Asked with
``Prefer: wait=25``, a poll that would answer 304 waits here instead, asleep on its
thread of the worker's pool, until that player's view changes, and answers then (or with
a 304 at the end of the wait). A sleeping villager's phone sends one request per night
instead of one every 1.5 s, and sees the day come at once rather than at its next poll.

One watcher thread per process does the looking, so that a held poll's thread wakes only
to answer: every LOOK_EVERY seconds it looks at the change board (changes.py) for the
tables that have held polls (another worker's write bumps the board, not this process's
memory), and when a table moved it asks each of its held polls whether its player's view
changed (``unchanged``: the poll's ETag computed again, from the reads and the decoded
game the process keeps); only those whose view changed are woken. The wolves' votes at
night wake the wolves, not the village. Every SWEEP_EVERY seconds it asks every held
poll, a slice of the tables at each look: presence and spectators move without a bump,
and the waiting players' own presence is noted then.

A process holds at most ``limit`` polls (``WEREWOLF_HELD_POLLS``, off by default; gunicorn
gives its pool as many threads more than the ones that answer, gunicorn.conf.py); beyond
it, or without a board (PostgreSQL), polls answer at once and the phone polls again after
its usual 1.5 s. Why it is off by default: bench/README.md, "seventh session".
"""
from __future__ import annotations

import logging
import threading
import time
import weakref
from typing import Callable

log = logging.getLogger(__name__)

MAX_WAIT = 25.0    # seconds a poll is held at most, whatever it asks
LOOK_EVERY = 0.05  # seconds between two looks of the watcher at the board
SWEEP_EVERY = 5.0  # seconds between two checks of every held poll (presence, spectators)
STEP_GRACE = 0.02  # a held poll runs again this long after its step's deadline and moves
                   # the game on itself (advance_once) rather than wait for the deadline
                   # job's next tick, up to half a second later


class _Waiter:
    __slots__ = ("woken", "unchanged", "done")

    def __init__(self, unchanged: Callable[[], bool]):
        self.woken = threading.Event()
        self.unchanged = unchanged
        self.done = False  # its wait is over: never registered again

    def still_unchanged(self) -> bool:
        try:
            return self.unchanged()
        except Exception:  # the poll's own thread will answer, with its error handling
            log.exception("checking a held poll failed; waking it")
            return False


class HeldPolls:
    """The polls one process holds, by table and by the board's token they were checked at."""

    def __init__(self, board, limit: int):
        self.board = board
        self.limit = limit
        self._lock = threading.Lock()
        self._waiting: dict[str, dict[bytes, set[_Waiter]]] = {}
        self._held = 0
        self._closed = False
        self._someone_waits = threading.Event()
        self._watcher: threading.Thread | None = None
        self._looks = 0

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

    def wait(self, table_id: str, token: bytes, timeout: float, unchanged: Callable[[], bool]) -> bool:
        """Until ``unchanged()`` says False after ``table_id``'s token on the board moved
        from ``token`` (or at a sweep), or ``timeout`` seconds, or the process stops
        holding polls. True if woken before the timeout."""
        waiter = _Waiter(unchanged)
        with self._lock:
            if self._closed:
                return True
            self._register(table_id, token, waiter)
            self._ensure_watcher()
            self._someone_waits.set()
        woken = waiter.woken.wait(timeout)
        with self._lock:
            waiter.done = True
            groups = self._waiting.get(table_id)
            if groups is not None:
                for token_, waiters in list(groups.items()):
                    if waiter in waiters:
                        waiters.discard(waiter)
                        if not waiters:
                            del groups[token_]
                        break
                if not groups:
                    del self._waiting[table_id]
        return woken

    def close(self) -> None:
        """The worker stops: every held poll answers now, and no poll is held any more."""
        with self._lock:
            self._closed = True
            for groups in self._waiting.values():
                for waiters in groups.values():
                    for waiter in waiters:
                        waiter.woken.set()
            self._waiting.clear()
            self._someone_waits.set()

    def _register(self, table_id: str, token: bytes, waiter: _Waiter) -> None:
        self._waiting.setdefault(table_id, {}).setdefault(token, set()).add(waiter)

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
        """Check the held polls of the tables that moved on the board and of the tables
        whose turn it is to be swept, wake those whose view changed; how many were woken.

        Each table is swept once every SWEEP_EVERY seconds, a slice of the tables at each
        look: checking ~900 held polls in one look took 37-188 ms of CPU every 5 s,
        holding the GIL from every request of the process meanwhile (bench/README.md)."""
        slices = max(1, round(SWEEP_EVERY / LOOK_EVERY))
        turn, self._looks = self._looks % slices, self._looks + 1
        to_check: list[tuple[str, bytes, _Waiter]] = []
        with self._lock:
            for table_id, groups in list(self._waiting.items()):
                token = self.board.token(table_id)
                swept = hash(table_id) % slices == turn
                for old in [t for t in groups if swept or t != token]:
                    to_check.extend((table_id, token, w) for w in groups.pop(old))
                if not groups:
                    del self._waiting[table_id]
        # The checks read the database and decode games: outside the lock, so that polls
        # being held or answered meanwhile do not wait for them.
        checked = [(table_id, token, w, w.still_unchanged()) for table_id, token, w in to_check]
        woken = 0
        with self._lock:
            for table_id, token, waiter, unchanged in checked:
                if waiter.done:
                    continue
                if unchanged and not self._closed:
                    self._register(table_id, token, waiter)
                else:
                    waiter.woken.set()
                    woken += 1
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
