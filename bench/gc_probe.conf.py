"""gunicorn.conf.py plus a record of each worker's garbage collections (``load.py --gc-log``).

Every collection of the cyclic garbage collector stops all the threads of its process
(it holds the GIL): this writes, per worker, one line per collection to
``bench/out/gc-<pid>.txt``: the time it ended, its generation, its wall and thread-CPU
duration (ms) and what it collected. Nothing here changes what the server does.
"""
import gc
import os
import threading
import time
from pathlib import Path

_here = Path(__file__).resolve().parent
exec(compile((_here.parent / "gunicorn.conf.py").read_text(), str(_here.parent / "gunicorn.conf.py"), "exec"))
_base_post_fork = globals().get("post_fork")


def post_fork(server, worker):
    if _base_post_fork is not None:
        _base_post_fork(server, worker)
    out = open(_here / "out" / f"gc-{os.getpid()}.txt", "w", buffering=1)
    started = threading.local()

    def record(phase, info):
        if phase == "start":
            started.t = (time.perf_counter(), time.thread_time())
        elif getattr(started, "t", None) is not None:
            wall, cpu = started.t
            started.t = None
            out.write(f"{time.time():.4f} {info['generation']} {(time.perf_counter() - wall) * 1000:.3f} "
                      f"{(time.thread_time() - cpu) * 1000:.3f} {info['collected']}\n")

    gc.callbacks.append(record)
