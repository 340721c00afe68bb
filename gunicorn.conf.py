"""gunicorn settings: ``./scripts/serve`` or ``gunicorn --config gunicorn.conf.py app:app``.

Two threads per worker carry the polling players: a poll is short, and more threads
only fight over the GIL (on a quiet machine, `bench/load.py --sweep` held 130 tables with
2 threads, 100 and 110 with 6; 6 had served more than 16: see bench/README.md). Each worker runs its own deadline job; advancing a game is
idempotent, so several workers are safe. The worker is gunicorn's ``gthread`` whose event
loop answers the unchanged state polls itself (``werewolf/web/worker.py``).
"""
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
# gunicorn's gthread worker whose event loop answers, itself, the state polls whose answer
# is an unchanged 304 from memory: most requests then cross no thread (werewolf/web/worker.py).
# GUNICORN_WORKER_CLASS=gthread: gunicorn's own, every request on a pool thread.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "werewolf.web.worker.PollWorker")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
# WEREWOLF_HELD_POLLS=N (off by default): each worker holds up to N state polls until the
# player's view changes (Prefer: wait, werewolf/web/held.py). Each keeps a thread while it
# waits, asleep: the pool has N more, created as they are needed, and the app runs no more
# than GUNICORN_THREADS requests at once (web/poll.ActiveRequests), writes first.
held_polls = int(os.environ.get("WEREWOLF_HELD_POLLS", "0"))
if held_polls > 0:
    os.environ["WEREWOLF_ACTIVE_REQUESTS"] = str(threads)
    threads += held_polls
# Every player's phone keeps a connection open (kept alive between polls 1.5 s apart):
# 100 tables are 1,800 connections, near gunicorn's default of 1,000 per worker.
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "4000"))
timeout = 30
# The longest request line gunicorn takes (its documented maximum; 4094 by default): up to
# it the app answers an over-long URL itself, in the API's JSON error shape (web/errors.py).
limit_request_line = 8190
graceful_timeout = 10
keepalive = 5
# Each worker listens on its own SO_REUSEPORT socket and the kernel spreads new
# connections evenly between them. With one shared socket, whichever worker woke first
# took the phones' long-lived connections: one worker could hold two thirds of them and
# run out of its core while the other idled (bench/README.md). GUNICORN_REUSE_PORT=0:
# one shared socket. With it on, a second server started on the same port by the same
# user shares the port instead of failing with "address already in use".
reuse_port = os.environ.get("GUNICORN_REUSE_PORT", "1") == "1"
# Each worker runs on a core of its own (GUNICORN_PIN_CPUS=0: anywhere). A worker is one
# Python process: its threads take turns holding the GIL, so it never uses more than one
# core, but left free the kernel wakes each thread on whichever core is idle and the GIL
# goes back and forth between cores. On a 2-core machine at 100 tables pinning cut the
# time the workers' threads waited for a CPU by a fifth and the median p99 of five runs
# from 407 to 190 ms (bench/README.md, ninth session). A worker that replaces a dead one
# takes the core it left.
pin_cpus = os.environ.get("GUNICORN_PIN_CPUS", "1") == "1" and hasattr(os, "sched_setaffinity")  # Linux


def pre_fork(server, worker):
    """In the master: the core with the fewest of the live workers goes to the new one."""
    cpus = sorted(os.sched_getaffinity(0)) if pin_cpus else []
    if len(cpus) < 2:
        worker.cpu = None
        return
    taken = [getattr(other, "cpu", None) for other in server.WORKERS.values()]
    worker.cpu = min(cpus, key=lambda cpu: (taken.count(cpu), cpu))


def post_fork(server, worker):
    # The worker has one thread yet: those it starts (its pool, its jobs) inherit the core.
    if worker.cpu is not None:
        os.sched_setaffinity(0, {worker.cpu})


# No access log unless asked for (GUNICORN_ACCESS_LOG=- for stdout, or a file path):
# every player polls every 1.5 s, so 100 tables would write ~1,200 lines a second
# (~10 GB a day), and the log's lock was where a fifth of the busy threads waited.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
# Trust X-Forwarded-* only from a proxy on this machine (see README, "Behind a reverse proxy").
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


# The objects a worker has once the app is loaded (~100,000: Flask, SQLAlchemy, the
# engine's catalog) live as long as the worker: GUNICORN_GC_FREEZE=1 (the default) moves
# them out of the garbage collector's sight (gc.freeze). Otherwise each full collection
# walks them again, ~60 ms with the GIL held, while every request of the worker waits.
gc_freeze = os.environ.get("GUNICORN_GC_FREEZE", "1") == "1"


def post_worker_init(worker):
    """On SIGTERM (a graceful stop), the held polls answer at once instead of keeping the
    worker up to their end; the objects of the loaded app are frozen (gc_freeze above)."""
    import gc
    import signal

    if gc_freeze:
        gc.freeze()

    from werewolf.web import held

    def stop(signum, frame):
        held.release_all()
        worker.handle_exit(signum, frame)

    signal.signal(signal.SIGTERM, stop)


def worker_int(worker):
    from werewolf.web import held
    held.release_all()


def worker_exit(server, worker):
    """Stop the worker's deadline jobs while their thread pool still takes work."""
    from werewolf import scheduler
    from werewolf.web import held
    held.release_all()
    scheduler.stop_all()
