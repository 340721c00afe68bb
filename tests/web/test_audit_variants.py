"""The secrecy audit with the variant roles (RULES-VARIANTS A9): the Guard, the Thief, the
Possessed, the Cursed, the Jester and the Plague-Bearer in random compositions; random
complete games over HTTP, every response checked by the oracle's hand-written lines for them."""
import os

from tests.kit import audit

GAMES = 80


def test_random_games_with_the_variant_roles_leak_nothing():
    workers = 2 if (os.cpu_count() or 1) >= 2 else 1
    stats = audit.run_many(GAMES, seed=2027, workers=workers, small_tables=True, variants=True)
    print(stats.line(), dict(stats.events))
    assert stats.games == GAMES
    assert {"guard", "thief", "possessed", "cursed", "jester", "plague_bearer"} <= set(stats.roles)
    assert {"thief", "guard", "plague", "werewolves", "witch"} <= set(stats.steps)
    # The games are random (not replayed alike from run to run): a batch without a bite or a
    # contamination plays a few more small batches rather than failing.
    for extra_seed in range(3000, 3005):
        if stats.events["cursed_bitten"] and stats.events["contaminated"]:
            break
        more = audit.run_many(20, seed=extra_seed, workers=workers, small_tables=True, variants=True)
        stats.events.update(more.events)
    assert stats.events["cursed_bitten"] and stats.events["contaminated"], "a bite and a contamination were audited"
    assert stats.views_checked > GAMES * 50
