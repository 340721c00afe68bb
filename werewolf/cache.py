"""One small cache for every per-process cache of the server: bounded, least recently used
first out, safe to share between threads."""
import threading
from collections import OrderedDict

_ABSENT = object()


class LRU:
    """At most ``size`` values by key; the least recently used leaves first."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, default=None):
        with self._lock:
            value = self._items.get(key, _ABSENT)
            if value is _ABSENT:
                return default
            self._items.move_to_end(key)
            return value

    def put(self, key, value, keep=None) -> None:
        """Keep ``value`` for ``key``, unless ``keep(current value)`` says the one there stays."""
        with self._lock:
            current = self._items.get(key, _ABSENT)
            if current is not _ABSENT and keep is not None and keep(current):
                return
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get_or_make(self, key, make):
        """The value kept for ``key``, else ``make()`` kept. Made outside the lock: two threads
        may both make it, and either is right."""
        value = self.get(key, _ABSENT)
        if value is _ABSENT:
            value = make()
            self.put(key, value)
        return value

    def pop(self, key, default=None):
        with self._lock:
            return self._items.pop(key, default)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
