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
# Connections per worker (a greenlet each): a phone's stream, one or two kept for its writes.
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "10000"))
# Streams and held polls a worker keeps at most (WEREWOLF_HELD_POLLS): half its connections.
os.environ.setdefault("WEREWOLF_HELD_POLLS", str(worker_connections // 2))
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
