"""gunicorn settings (``./scripts/serve``, or ``gunicorn --config gunicorn.conf.py app:app``). gevent's worker,
documented for Flask: a phone's stream or held poll is a greenlet asleep on its connection (docs/PERFORMANCE.md)."""
import gc
import os
import signal

import gevent

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
worker_class = "gevent"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "10000"))  # a phone's stream, one or two for writes
os.environ.setdefault("WEREWOLF_HELD_POLLS", str(worker_connections // 2))  # streams and held polls: half of them
timeout, graceful_timeout = 30, 10
limit_request_line = 8190  # gunicorn's documented maximum (4094 by default): longer URLs get JSON (web/errors.py)
keepalive = 30  # a phone asks again at once after its held poll answers
reuse_port = True  # a socket per worker: the kernel spreads the phones' connections evenly
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None  # none unless asked for: - for stdout, or a file
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")  # X-Forwarded-*: a proxy here only (README)


def post_worker_init(worker):
    """What exists now lives as long as the worker (gc.freeze); a full collection (~70 ms, every greenlet waits) after
    100 younger ones, not 10 (docs/PERFORMANCE.md). SIGTERM: streams and held polls end now, from a greenlet."""
    gc.freeze()
    gc.set_threshold(*gc.get_threshold()[:2], 100)
    from werewolf.web import poll
    graceful = signal.getsignal(signal.SIGTERM)
    def stop(signum, frame):
        gevent.spawn(poll.stop_holding)
        graceful(signum, frame)
    signal.signal(signal.SIGTERM, stop)


def worker_exit(server, worker):
    """Stop the worker's deadline jobs while their thread pool still takes work."""
    from werewolf import scheduler
    scheduler.stop_all()
