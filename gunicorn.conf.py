"""gunicorn settings: ``./scripts/serve`` or ``gunicorn --config gunicorn.conf.py app:app``.
gunicorn's gevent worker, documented for Flask: a phone's stream or held poll (web/poll.py) is a greenlet
asleep on its connection, not a thread: thousands cost little (docs/PERFORMANCE.md). A deadline job per worker."""
import os
import signal

import gevent

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
worker_class = "gevent"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "10000"))  # a phone's stream, one or two for writes
# Streams and held polls a worker keeps at most (WEREWOLF_HELD_POLLS): half its connections.
os.environ.setdefault("WEREWOLF_HELD_POLLS", str(worker_connections // 2))
timeout, graceful_timeout = 30, 10
limit_request_line = 8190  # gunicorn's documented maximum (4094 by default): longer URLs get JSON (web/errors.py)
keepalive = 30  # a phone asks again at once after its held poll answers
reuse_port = True  # a socket per worker: the kernel spreads the phones' connections evenly
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None  # none unless asked for: - for stdout, or a file
errorlog = "-"
# Trust X-Forwarded-* only from a proxy on this machine (see README, "Behind a reverse proxy").
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def post_worker_init(worker):
    """SIGTERM (a stop, a restart): streams and held polls end now, not at graceful_timeout.
    From a greenlet, as gunicorn's gevent worker does: a signal handler takes no lock."""
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
