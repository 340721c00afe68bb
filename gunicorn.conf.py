"""gunicorn settings: ``./scripts/serve`` or ``gunicorn --config gunicorn.conf.py app:app``.

gunicorn's own threaded worker (gthread). A phone's state poll waits on the server until
that player's view changes (Prefer: wait, werewolf/web/poll.py), asleep on a thread of
the pool: a worker holds as many waiting phones as it has threads, less a few kept for
everything else. Each worker runs its own deadline job; advancing a game is idempotent.
"""
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads per worker: one per waiting phone (18 per table, spread over the workers). Set
# it here (GUNICORN_THREADS), not with --threads: the app holds that many polls less 8.
threads = int(os.environ.get("GUNICORN_THREADS", "1000"))
os.environ.setdefault("WEREWOLF_HELD_POLLS", str(max(0, threads - 8)))
# Open connections per worker: every phone keeps one alive.
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "2000"))
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
