"""gunicorn's threaded worker, answering the unchanged state poll on its event loop.

In gunicorn's ``gthread`` worker every request crosses three threads: the event loop sees
the kept-alive connection readable and hands it to the pool, a pool thread parses and
answers it, and hands the connection back to the loop through a pipe. At 150 tables
(2,700 players, ~1,800 requests a second) a 304 took 0.1-0.2 ms in the app, but the
slowest waited 80-230 ms for those hand-offs, each worker's threads queued on its core
while the core was half idle (bench/README.md, tenth session).

Here the loop reads the request itself, and when it is a state poll that the poll gate
can answer from memory (``PollGate.answer_from_memory``: the player's view has not
changed, the table's read is kept, nothing to write) it writes the 304 at once, on the
same thread. Everything else — a first request on a connection, a request in pieces, a
view to send, a move, anything unusual — goes to the pool exactly as before, with the
bytes already read put back in front of gunicorn's parser.

The request line and headers are checked narrowly: anything outside plain HTTP/1.1 GETs
without a body, in one piece, goes the ordinary way, where gunicorn's parser judges it.
"""
from __future__ import annotations

import errno
import os
import re
import time
from email.utils import formatdate

from gunicorn import SERVER
from gunicorn.workers.gthread import ThreadWorker

_READ_AT_MOST = 16384
_REQUEST_LINE = re.compile(rb"GET (/api/tables/[0-9A-Za-z._~-]{1,64}/state)(?:\?([0-9A-Za-z._~=&-]{0,256}))? HTTP/1\.1")
# An RFC 9110 token, less "_": gunicorn drops such headers (header_map), so they go its way.
_HEADER_NAME = re.compile(rb"[!#$%&'*+.^`|~0-9A-Za-z-]+")
_HEADER_VALUE = re.compile(rb"[\t\x20-\x7e\x80-\xff]*")
# Headers that ask for more than a GET in one piece: a body, an upgrade, a closing.
_REFUSED = frozenset({b"content-length", b"transfer-encoding", b"upgrade", b"expect",
                      b"http2-settings", b"te", b"trailer"})


def parse_get(data: bytes) -> dict | None:
    """The WSGI environ of a state poll sent in one piece as ``data``, or None for
    anything else (gunicorn's parser then reads it)."""
    head, end, rest = data.partition(b"\r\n\r\n")
    if not end or rest:
        return None  # in pieces, or a second request behind it
    lines = head.split(b"\r\n")
    request = _REQUEST_LINE.fullmatch(lines[0])
    if request is None:
        return None
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": request.group(1).decode("ascii"),
               "QUERY_STRING": (request.group(2) or b"").decode("ascii"), "SCRIPT_NAME": "",
               "SERVER_PROTOCOL": "HTTP/1.1"}
    for line in lines[1:]:
        name, colon, value = line.partition(b":")
        if not colon or _HEADER_NAME.fullmatch(name) is None:
            return None  # also a folded line, which starts with a space
        value = value.strip(b" \t")
        lowered = name.lower()
        if lowered in _REFUSED or _HEADER_VALUE.fullmatch(value) is None:
            return None
        if lowered == b"connection" and value.lower() != b"keep-alive":
            return None
        key = "HTTP_" + name.decode("ascii").upper().replace("-", "_")
        if key in environ:
            return None  # a header twice: gunicorn's parser decides how they join
        environ[key] = value.decode("latin-1")
    return environ


class _Date:
    """The Date header, formatted once a second."""

    def __init__(self):
        self._second, self._value = None, ""

    def __call__(self) -> str:
        now = time.time()
        if int(now) != self._second:
            self._second, self._value = int(now), formatdate(now, usegmt=True)
        return self._value


def response_bytes(answer, date: str) -> bytes:
    """The poll gate's answer as gunicorn writes a kept-alive HTTP/1.1 response."""
    lines = [f"HTTP/1.1 {answer.status}", f"Server: {SERVER}", f"Date: {date}", "Connection: keep-alive",
             *(f"{name}: {value}" for name, value in answer.headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + answer.body


class PollWorker(ThreadWorker):
    """``gthread`` whose event loop answers the state polls it can answer from memory."""

    def init_process(self):
        self.answered_on_loop = 0
        self._date = _Date()
        super().init_process()

    def run(self):
        # The app is loaded and post_worker_init has run: find the poll gate, if this app has one.
        gate = getattr(self.wsgi, "extensions", {}).get("werewolf.poll_gate")
        self._answer = gate.answer_from_memory if gate is not None and self.plain(self.cfg) else None
        super().run()
        self.log.info("Worker %s answered %d of its %d requests on its event loop",
                      self.pid, self.answered_on_loop, self.nr)

    @staticmethod
    def plain(cfg) -> bool:
        """Whether gunicorn would serve a poll as this loop does: plain HTTP/1.1, no access
        log, no request hooks, no SCRIPT_NAME (else every request goes the ordinary way)."""
        hooks_as_shipped = all(cfg.settings[name].value is cfg.settings[name].default
                               for name in ("pre_request", "post_request"))
        return (not cfg.is_ssl and getattr(cfg, "protocol", "http") == "http" and not cfg.accesslog
                and hooks_as_shipped and "SCRIPT_NAME" not in cfg.env and "SCRIPT_NAME" not in os.environ)

    def on_client_socket_readable(self, conn, client):
        if self._answer is None or conn.is_http2 or conn.parser is None or not self.alive:
            return super().on_client_socket_readable(conn, client)
        try:
            data = conn.sock.recv(_READ_AT_MOST)
        except (BlockingIOError, InterruptedError):
            return  # woken for nothing: it stays on the loop
        except OSError as e:
            if e.errno not in (errno.ECONNRESET, errno.ENOTCONN, errno.EPIPE, errno.ETIMEDOUT):
                self.log.exception("reading a kept-alive connection")
            return self._drop(conn)
        if not data:
            return self._drop(conn)  # the client closed it
        if not self._answered(conn, data):
            conn.parser.unreader.unread(data)  # gunicorn's parser reads these bytes first
            super().on_client_socket_readable(conn, client)

    def _answered(self, conn, data: bytes) -> bool:
        environ = parse_get(data)
        if environ is None or self.nr + 1 >= self.max_requests \
                or len(self.keepalived_conns) > self.max_keepalived:
            return False
        environ["REMOTE_ADDR"] = conn.client[0] if isinstance(conn.client, tuple) else ""
        environ["wsgi.url_scheme"] = "http"
        answer = self._answer(environ)
        if answer is None:
            return False
        self.nr += 1
        self.answered_on_loop += 1
        payload = response_bytes(answer, self._date())
        try:
            sent = conn.sock.send(payload)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._drop(conn)
            return True
        conn.timeout = time.monotonic() + self.cfg.keepalive
        conn.renewed = True  # its place in keepalived_conns is now too early (murder_keepalived)
        if sent < len(payload):  # a full socket buffer: a pool thread writes the rest, blocking
            self.poller.unregister(conn.sock)
            self.keepalived_conns.remove(conn)
            future = self.tpool.submit(self._send_rest, conn, payload[sent:])
            future.add_done_callback(lambda fut: self.method_queue.defer(self.finish_request, conn, fut))
        return True

    @staticmethod
    def _send_rest(conn, rest: bytes) -> bool:
        conn.sock.setblocking(True)
        conn.sock.sendall(rest)
        return True  # kept alive: finish_request puts it back on the loop

    def _drop(self, conn) -> None:
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        try:
            self.keepalived_conns.remove(conn)
        except ValueError:
            pass
        self.nr_conns -= 1
        conn.close()

    def murder_keepalived(self, force=False):
        """gunicorn's, for a queue that a poll answered here leaves in its place: such a
        connection, met at the front with time left, moves to the back instead of ending
        the sweep."""
        now = time.monotonic()
        queue = self.keepalived_conns
        while queue and not force:
            conn = queue[0]
            if conn.timeout > now:
                if not getattr(conn, "renewed", False):
                    break
                conn.renewed = False
                queue.rotate(-1)
                continue
            self._drop(conn)
        if force:
            super().murder_keepalived(force=True)

