"""gunicorn settings: ``./scripts/serve`` or ``gunicorn --config gunicorn.conf.py app:app``.

gunicorn's gevent worker (documented by gunicorn for Flask apps). A phone's state poll
waits on the server until that player's view changes (Prefer: wait, werewolf/web/poll.py):
a waiting poll is a greenlet asleep on its connection, not an OS thread, so thousands cost
little and a table's wake-up does not set threads fighting for the GIL (docs/PERFORMANCE.md).
Each worker runs its own deadline job; advancing a game is idempotent.
"""
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
worker_class = "gevent"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Open connections per worker: every phone keeps one alive, its held poll waits on it.
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "2000"))
# Polls a worker holds at most (the app's WEREWOLF_HELD_POLLS): a few connections stay for the rest.
os.environ.setdefault("WEREWOLF_HELD_POLLS", str(max(0, worker_connections - 100)))
timeout, graceful_timeout = 30, 10
# gunicorn's documented maximum (4094 by default): the app answers a longer URL in JSON (web/errors.py).
limit_request_line = 8190
keepalive = 30  # a phone asks again at once after its held poll answers
reuse_port = True  # a socket per worker: the kernel spreads the phones' connections evenly
# No access log unless asked for (GUNICORN_ACCESS_LOG=- for stdout, or a file path).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
# Trust X-Forwarded-* only from a proxy on this machine (see README, "Behind a reverse proxy").
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def worker_int(worker):
    """SIGINT, SIGQUIT: waiting polls answer now rather than at their end."""
    from werewolf.web import poll
    poll.stop_holding()


def worker_exit(server, worker):
    """Stop the worker's deadline jobs while their thread pool still takes work."""
    from werewolf import scheduler
    scheduler.stop_all()
