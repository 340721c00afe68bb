"""The one cache class under every per-process cache (werewolf/cache.py)."""
from werewolf.cache import LRU


def test_the_least_recently_used_leaves_first():
    kept = LRU(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # "b" is now the least recently used
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, None, 3)
    assert len(kept) == 2


def test_a_value_kept_by_the_rule_is_not_replaced():
    kept = LRU(4)
    kept.put(7, (5, "rev 5"))
    kept.put(7, (4, "rev 4"), keep=lambda current: current[0] > 4)  # older: the newer one stays
    assert kept.get(7) == (5, "rev 5")
    kept.put(7, (6, "rev 6"), keep=lambda current: current[0] > 6)
    assert kept.get(7) == (6, "rev 6")


def test_made_once_then_kept():
    kept, made = LRU(4), []
    assert kept.get_or_make("k", lambda: made.append(1) or "v") == "v"
    assert kept.get_or_make("k", lambda: made.append(1) or "w") == "v"
    assert made == [1]
    assert kept.get("absent", "default") == "default"
    assert kept.pop("k") == "v" and kept.get("k") is None
    kept.put("x", None)  # None is a value like any other
    assert kept.get_or_make("x", lambda: "made") is None
