"""The secrecy audit with RULES-BOX's cards (B9): random complete games over HTTP with the
Elder, the Village Idiot, the Scapegoat, the Pied Piper, the White Werewolf, the Wild Child,
the Fox and the Bear Tamer mixed in with every variant card and a random option set; every
response checked by the oracle's hand-written lines for them."""
import os

from tests.conftest import requires_sqlite
from tests.kit import audit

GAMES = 16   # 12-30 s a game on a shared core: 16 over two workers, 2-4 min


@requires_sqlite  # it plays on SQLite files of its own (run_many): the SQLite run has done it
def test_random_games_with_the_box_cards_leak_nothing():
    workers = 2 if (os.cpu_count() or 1) >= 2 else 1
    stats = audit.run_many(GAMES, seed=2036, workers=workers, small_tables=True, box=True, options=True)
    print(stats.line(), dict(stats.events))
    assert stats.games == GAMES
    roles = set(audit.BOX_ROLES)
    for extra_seed in range(3600, 3606):   # a batch that missed a card plays a few more
        if roles <= set(stats.roles):
            break
        stats.roles.update(audit.run_many(10, seed=extra_seed, workers=workers, small_tables=True, box=True,
                                          options=True).roles)
    assert roles <= set(stats.roles), stats.roles
    assert stats.views_checked > GAMES * 30
