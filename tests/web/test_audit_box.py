"""The secrecy audit with RULES-BOX's cards mixed in (tests/kit/audit.py, ``box=True``): random
complete games over HTTP, every response checked against the oracle written from B9."""
from tests.kit import audit


def test_box_games_leak_nothing():
    stats = audit.run(60, seed=36, small_tables=True, box=True)
    assert stats.games == 60
    dealt = {role for role in audit.BOX_ROLES if stats.roles[role]}
    assert dealt == set(audit.BOX_ROLES), dealt
