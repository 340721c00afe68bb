"""The secrecy audit with random table options (RULES-VARIANTS A5, A6, A9): random complete
games over HTTP with a random option set each (ties, secret ballots, speaking turns,
testaments...), every response checked by the oracle's hand-written lines for them."""
import os

from tests.conftest import requires_sqlite
from tests.kit import audit

GAMES = 60


@requires_sqlite  # it plays on SQLite files of its own (run_many): the SQLite run has done it
def test_random_games_with_random_options_leak_nothing():
    workers = 2 if (os.cpu_count() or 1) >= 2 else 1
    stats = audit.run_many(GAMES, seed=2028, workers=workers, small_tables=True, options=True)
    print(stats.line())
    assert stats.games == GAMES

    def covered() -> bool:
        return {"tally", "defense", "speech"} <= set(stats.steps) and bool({"revote", "runoff"} & set(stats.steps))

    # The games are random (not replayed alike from run to run: a tie depends on who acted in
    # time): a batch that missed a step plays a few more small batches rather than failing.
    for extra_seed in range(4000, 4006):
        if covered():
            break
        stats.steps.update(audit.run_many(20, seed=extra_seed, workers=workers, small_tables=True,
                                          options=True).steps)
    assert {"tally", "defense", "speech"} <= set(stats.steps), stats.steps
    assert {"revote", "runoff"} & set(stats.steps), stats.steps
    assert stats.views_checked > GAMES * 50
