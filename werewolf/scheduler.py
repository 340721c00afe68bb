"""The alarm clock: an interval job that advances games whose step deadline passed.

A second job checkpoints SQLite's write-ahead log in the background, so that no
request's COMMIT has to (see database.configure_engine). A third clears out the
waiting tables nobody has touched for a day (service.clear_stale_tables).

The deadlines live in the database, so this job holds no state: any number of
processes may run it (each gunicorn worker does), and a restarted server picks
up where the game was. ``service.advance_game`` makes advancing idempotent.
"""
import logging
import threading

from apscheduler.schedulers.background import BackgroundScheduler

from . import database, service

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 0.5
CHECKPOINT_SECONDS = 2.0
SWEEP_SECONDS = 600.0

_lock = threading.Lock()
_schedulers: dict[int, BackgroundScheduler] = {}  # one per app object in this process


def tick(app) -> int:
    with app.app_context():
        return service.advance_due(app.extensions["werewolf.clock"]())


def checkpoint(app) -> None:
    with app.app_context():
        database.checkpoint()


def sweep(app) -> int:
    with app.app_context():
        return service.clear_stale_tables(app.extensions["werewolf.clock"]())


def start(app) -> BackgroundScheduler:
    """Start the job for ``app`` unless this process already runs it."""
    with _lock:
        scheduler = _schedulers.get(id(app))
        if scheduler is None:
            scheduler = BackgroundScheduler(daemon=True)
            scheduler.add_job(tick, "interval", args=[app], seconds=INTERVAL_SECONDS,
                              id="advance_due", max_instances=1, coalesce=True,
                              misfire_grace_time=None)
            scheduler.add_job(checkpoint, "interval", args=[app], seconds=CHECKPOINT_SECONDS,
                              id="checkpoint", max_instances=1, coalesce=True,
                              misfire_grace_time=None)
            scheduler.add_job(sweep, "interval", args=[app], seconds=SWEEP_SECONDS,
                              id="sweep", max_instances=1, coalesce=True,
                              misfire_grace_time=None)
            scheduler.start()
            _schedulers[id(app)] = scheduler
            log.info("deadline scheduler started")
        return scheduler


def stop(app) -> None:
    with _lock:
        scheduler = _schedulers.pop(id(app), None)
    if scheduler is not None:
        scheduler.shutdown(wait=True)


def stop_all() -> None:
    """Stop every scheduler of this process (gunicorn's worker_exit): at interpreter exit
    their thread pool closes first, and a tick submitted then fails with a traceback."""
    with _lock:
        running = list(_schedulers.values())
        _schedulers.clear()
    for scheduler in running:
        scheduler.shutdown(wait=True)
