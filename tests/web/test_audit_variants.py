"""The secrecy audit with the variant roles and table options (RULES-VARIANTS A9): random
complete games over HTTP with the Guard, the Thief, the Possessed, the Cursed, the Jester, the
Plague-Bearer, the Little Girl, the Owl-Man, the Freemasons and the Medium in random
compositions, the fixed night and the lovers' channel drawn at random; every response
checked by the oracle's hand-written lines for them."""
import os

from tests.conftest import requires_sqlite
from tests.kit import audit

GAMES = 80


@requires_sqlite  # it plays on SQLite files of its own (run_many): the SQLite run has done it
def test_random_games_with_the_variant_roles_leak_nothing():
    workers = 2 if (os.cpu_count() or 1) >= 2 else 1
    stats = audit.run_many(GAMES, seed=2027, workers=workers, small_tables=True, variants=True)
    print(stats.line(), dict(stats.events))
    assert stats.games == GAMES
    roles = {"guard", "thief", "possessed", "cursed", "jester", "plague_bearer",
             "little_girl", "owl_man", "freemason", "medium"}
    steps = {"thief", "guard", "owl", "plague", "werewolves", "witch", "night", "stake"}

    def covered() -> bool:
        return (roles <= set(stats.roles) and steps <= set(stats.steps)
                and stats.events["cursed_bitten"] > 0 and stats.events["contaminated"] > 0)

    # The games are random (not replayed alike from run to run): a batch that missed a role,
    # a step, a bite or a contamination plays a few more small batches rather than failing.
    for extra_seed in range(3000, 3006):
        if covered():
            break
        more = audit.run_many(20, seed=extra_seed, workers=workers, small_tables=True, variants=True)
        stats.roles.update(more.roles)
        stats.steps.update(more.steps)
        stats.events.update(more.events)
    assert roles <= set(stats.roles) and steps <= set(stats.steps), (stats.roles, stats.steps)
    assert stats.events["cursed_bitten"] and stats.events["contaminated"], "a bite and a contamination were audited"
    assert stats.views_checked > GAMES * 50
