"""The long secrecy audit: thousands of random complete games, every response checked.

    .venv/bin/python -m bench.audit --games 10000 [--seed 1] [--workers 2] [--small-tables] [--mixed] [--engine]

Run from the repository's root. The oracle, the random player and the runner are
tests/kit/audit.py (what tests/web/test_audit.py runs in CI: over 500 mixed games, most
of them on the engine). A leak names its game's seed; ``tests.kit.audit.replay(seed, ...)``
plays that one game again.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from tests.kit.audit import run_many


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes, each with its own app and database")
    parser.add_argument("--small-tables", action="store_true", help="sizes leaning towards 6 (as in CI)")
    parser.add_argument("--variants", action="store_true", help="each variant role (Guard, Thief, Possessed, Cursed, Jester, Plague-Bearer) in about half the games")
    parser.add_argument("--options", action="store_true", help="a random option set in every game")
    parser.add_argument("--box", action="store_true", help="RULES-BOX's cards too, each in about 40%% of the games")
    parser.add_argument("--mixed", action="store_true", help="every card and option of the registry (as in CI)")
    parser.add_argument("--engine", action="store_true", help="on the engine's own calls, without the web (faster)")
    args = parser.parse_args()
    started = time.time()
    stats = run_many(args.games, args.seed, args.workers, args.small_tables,
                     progress=max(1, min(50, args.games // args.workers // 20)), variants=args.variants,
                     options=args.options, box=args.box, mixed=args.mixed, engine=args.engine)
    print(stats.line())
    print(f"steps {dict(stats.steps)}")
    print(f"roles in play (games) {dict(stats.roles)}; table sizes {dict(sorted(stats.sizes.items()))}")
    print(f"options drawn (games) {dict(stats.options)}")
    print(f"no leak found in {stats.games} games, {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
