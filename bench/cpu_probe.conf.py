"""gunicorn settings for measuring: the served tree's own gunicorn.conf.py, plus gunicorn's
documented pre_request/post_request hooks summing the CPU time of the thread that served
each request (time.thread_time: what other processes do does not change it), by kind.

    WEREWOLF_BENCH_CONFIG=<tree>/gunicorn.conf.py gunicorn --config bench/cpu_probe.conf.py app:app

(``bench/load.py --cpu-probe`` does this.) Each worker writes its sums, every 2 s and at
its exit, to ``bench/out/cpu-<pid>.txt``: kind, requests, CPU seconds; and the collector's
pauses by generation (``gc 2``: full collections, each pausing every greenlet of the worker),
their count and wall seconds. A held poll's CPU
is all it spent on its thread, its looks while held included. On gevent's worker (main's)
every greenlet shares the worker's one thread: a request's sum holds what the others ran
meanwhile, so there the sums tell the worker's CPU while requests run, not each kind's.
"""
import gc
import os
import threading
import time
from pathlib import Path

exec(compile(Path(os.environ["WEREWOLF_BENCH_CONFIG"]).read_text(), os.environ["WEREWOLF_BENCH_CONFIG"], "exec"))

_OUT = Path(__file__).resolve().parent / "out"
_sums: dict[str, list] = {}
_lock = threading.Lock()
_started = threading.local()


def pre_request(worker, req):
    _started.cpu = time.thread_time()


def post_request(worker, req, environ, resp):
    spent = time.thread_time() - getattr(_started, "cpu", time.thread_time())
    path, status = req.path, (resp.status_code if resp is not None else 0)
    if path.endswith("/state") and req.method == "GET":
        held = resp is not None and any(name.lower() == "server-timing" and "held" in value
                                        for name, value in resp.headers)
        kind = f"{'held' if held else 'poll'} {status}"
    elif path.endswith(("/act", "/chat")):
        kind = path.rsplit("/", 1)[1]
    else:
        kind = "other"
    with _lock:
        item = _sums.setdefault(kind, [0, 0.0])
        item[0] += 1
        item[1] += spent


_collections = {f"gc {generation}": [0, 0.0] for generation in range(3)}  # no lock: a collection may start anywhere
_collecting_since = [0.0]


def _timed_collection(phase, info):
    if phase == "start":
        _collecting_since[0] = time.perf_counter()
    else:
        item = _collections[f"gc {info['generation']}"]
        item[0] += 1
        item[1] += time.perf_counter() - _collecting_since[0]


gc.callbacks.append(_timed_collection)


def _write():
    with _lock:
        lines = [f"{kind}\t{n}\t{cpu:.4f}" for kind, (n, cpu) in sorted({**_sums, **_collections}.items())]
    (_OUT / f"cpu-{os.getpid()}.txt").write_text("\n".join(lines) + "\n")


_tree_post_worker_init = globals().get("post_worker_init")


def post_worker_init(worker):
    if _tree_post_worker_init:  # the tree's own (main's: gc.freeze, streams ended on SIGTERM)
        _tree_post_worker_init(worker)

    def every():
        while True:
            time.sleep(2)
            _write()
    threading.Thread(target=every, daemon=True, name="cpu-probe").start()


_tree_worker_exit = globals().get("worker_exit")


def worker_exit(server, worker):
    _write()
    if _tree_worker_exit:
        _tree_worker_exit(server, worker)
