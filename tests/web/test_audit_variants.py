"""The secrecy audit with the variant roles (RULES-VARIANTS A9): random complete games over
HTTP with the Guard, the Thief, the Little Girl, the Owl-Man, the Freemasons and the Medium,
every response checked by the oracle's hand-written lines for them."""
import os

from tests.kit import audit

GAMES = 80


def test_random_games_with_the_guard_and_the_thief_leak_nothing():
    workers = 2 if (os.cpu_count() or 1) >= 2 else 1
    stats = audit.run_many(GAMES, seed=2027, workers=workers, small_tables=True, variants=True)
    print(stats.line())
    assert stats.games == GAMES
    assert {"guard", "thief", "little_girl", "owl_man", "freemason", "medium"} <= set(stats.roles)
    assert {"thief", "guard", "owl", "werewolves", "witch", "stake"} <= set(stats.steps)
    assert stats.views_checked > GAMES * 50
