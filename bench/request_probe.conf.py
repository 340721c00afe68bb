"""gunicorn.conf.py plus a line per request inside each worker (``load.py --request-log``).

The load client tags each measured request with ``X-Bench-Id``; this writes, per worker,
to ``bench/out/requests-<pid>.txt``: the id, when the worker's thread started on it and
when the answer was written (``time.time()``, the clock the client reads too), the
thread's CPU time, and how long the request waited for a place among the requests the
app runs at once (``poll.ActiveRequests``, held polls only). Joined with the client's
send and receive times, a request's latency splits into: before the app (gunicorn's
queue, the worker's wake-up), in the app, and after it (the client's own event loop).
With held polls, ``looks-<pid>.txt`` has a line per look of the watcher that woke some:
how many, and its wall and CPU time. Nothing here changes what the server answers, nor
which thread answers it.
"""
import os
import threading
import time
from pathlib import Path

_here = Path(__file__).resolve().parent
exec(compile((_here.parent / "gunicorn.conf.py").read_text(), str(_here.parent / "gunicorn.conf.py"), "exec"))

_base_post_worker_init = globals().get("post_worker_init")


def post_worker_init(worker):
    if _base_post_worker_init is not None:
        _base_post_worker_init(worker)
    from werewolf.web import held, poll

    out = open(_here / "out" / f"requests-{os.getpid()}.txt", "w", buffering=1)
    local = threading.local()
    acquire = poll.ActiveRequests.acquire

    def timed_acquire(self, write=False):
        started = time.perf_counter()
        try:
            acquire(self, write)
        finally:
            local.waited = getattr(local, "waited", 0.0) + time.perf_counter() - started

    poll.ActiveRequests.acquire = timed_acquire
    looks = open(_here / "out" / f"looks-{os.getpid()}.txt", "w", buffering=1)
    look = held.HeldPolls.look

    def timed_look(self):
        began, cpu = time.time(), time.thread_time()
        woken = look(self)
        if woken:
            looks.write(f"{began:.6f} {woken} {(time.time() - began) * 1000:.3f} "
                        f"{(time.thread_time() - cpu) * 1000:.3f} {self.held}\n")
        return woken

    held.HeldPolls.look = timed_look
    wsgi = worker.wsgi

    def probed(environ, start_response):
        bench_id = environ.get("HTTP_X_BENCH_ID")
        if bench_id is None:
            return wsgi(environ, start_response)
        began, cpu = time.time(), time.thread_time()
        local.waited = 0.0
        body = wsgi(environ, start_response)

        def written():  # gunicorn closes the answer once it has sent it
            out.write(f"{bench_id} {began:.6f} {time.time():.6f} {(time.thread_time() - cpu) * 1000:.3f} "
                      f"{local.waited * 1000:.3f}\n")

        return _Closing(body, written)

    # The worker's event loop answers some polls itself (web/worker.py): their line too,
    # "written" when the answer is ready, the loop sending it at once.
    gate = wsgi.extensions.get("werewolf.poll_gate")
    if gate is not None:
        answer_from_memory = gate.answer_from_memory

        def timed_answer(environ):
            began, cpu = time.time(), time.thread_time()
            answer = answer_from_memory(environ)
            bench_id = environ.get("HTTP_X_BENCH_ID")
            if answer is not None and bench_id is not None:
                out.write(f"{bench_id} {began:.6f} {time.time():.6f} {(time.thread_time() - cpu) * 1000:.3f} 0.000\n")
            return answer

        gate.answer_from_memory = timed_answer
    probed.extensions = wsgi.extensions
    worker.wsgi = probed


class _Closing:
    """The app's answer, with ``then`` called after its own ``close``."""

    def __init__(self, body, then):
        self.body, self.then = body, then

    def __iter__(self):
        return iter(self.body)

    def close(self):
        try:
            if hasattr(self.body, "close"):
                self.body.close()
        finally:
            self.then()
