"""Response headers every page and API answer carries, cookie flags, and rate limits.

- Content-Security-Policy without 'unsafe-inline': pages load their scripts and
  styles from /static only (no inline <script>, no on... attributes, no style="").
- Cookies get ``Secure`` whenever the request came over HTTPS (directly, or through
  a proxy trusted by gunicorn's ``forwarded_allow_ips`` or ``WEREWOLF_PROXY_COUNT``),
  so the same server works on plain http://localhost and behind TLS.
- Rate limits (Flask-Limiter) on a few routes only: registrations per client address
  (each costs a slow password hash), failed logins (growing delays for the client that
  fails, a limit per account name for clients already failing it, names failed per
  client address: ``FailedLogins``), wrong passwords given to change or delete an account,
  chat messages per account, actions per seat, and table codes tried that match no table
  (per account and address). The state poll and every other route are never limited. The
  client address is the connection's, or with ``WEREWOLF_PROXY_COUNT`` = n the one the n-th
  proxy from the end saw (ProxyFix); a client cannot forge it otherwise.
  Storage is in memory, per process: it needs no extra service, a restart forgets it,
  and with W gunicorn workers an account gets at most W times the limit (a login
  guesser still gets only W x 10 tries a minute). The ``limits`` library has no SQL
  backend, and writing every attempt to SQLite would add a write per chat message.
"""
import functools
import math
import threading

from flask import current_app, g, request
from flask_limiter import Limiter
from flask_login import current_user

from ..cache import LRU
from ..service import ServiceError
from .http import error_response
from .session import verified_user_id

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

DEFAULT_LIMITS = {
    # Accounts created (or names found taken) from one client address: each costs a hash.
    "REGISTRATION_RATE_LIMIT": "5 per minute; 30 per hour",
    # Failed logins of one account name, from clients already failing for it (a correct
    # password never counts; a client that has not failed for the name is never held back).
    "LOGIN_RATE_LIMIT": "10 per minute; 50 per hour",
    # Names failed from one client address (each costs a hash): guessing many accounts.
    # Failing one name again and again does not count, so it blocks nobody else there.
    "LOGIN_ADDRESS_RATE_LIMIT": "30 per minute; 200 per hour",
    # Chat messages of one account, all tables together.
    "CHAT_RATE_LIMIT": "10 per 10 seconds; 60 per minute",
    # Actions of one seat (one account at one table): a quick player changing his mind
    # between three names, twice a second for a whole vote, stays under it.
    "ACT_RATE_LIMIT": "30 per 10 seconds; 120 per minute",
    # Table codes looked up that match no table (GET /api/tables/by-code), per account and
    # per client address: a mistyped code costs nothing, guessing one is slow.
    "CODE_LOOKUP_RATE_LIMIT": "10 per minute; 60 per hour",
    "CODE_LOOKUP_ADDRESS_RATE_LIMIT": "30 per minute; 300 per hour",
}

def _login_name() -> str | None:
    body = request.get_json(silent=True)
    name = body.get("name") if isinstance(body, dict) else None
    return " ".join(name.split()).casefold()[:64] if isinstance(name, str) else None


class FailedLogins:
    """Failed logins of each client for each name, in this process: growing delays.

    A client is its address with the name it tries: the failing one waits 1, 2, 4...
    seconds (at most MAX_DELAY) after its FREE first failures, and is the only one the
    per-name limit holds back. The owner, from any other client, and the others behind
    the same home router, each trying their own name, go through. A client's count is
    forgotten FORGET_AFTER seconds after its last failure, or at its next success.
    """

    FREE, MAX_DELAY, FORGET_AFTER, SIZE = 3, 300.0, 900.0, 20000

    def __init__(self):
        self._lock = threading.Lock()  # a failure counts under it: read, add one, write
        self._clients = LRU(self.SIZE)  # by client: (failures, time of the last)

    def _entry(self, client: tuple, now: float) -> tuple[int, float]:
        count, last = self._clients.get(client, (0, 0.0))
        return (0, 0.0) if count and now - last > self.FORGET_AFTER else (count, last)

    def failing(self, client: tuple, now: float) -> bool:
        with self._lock:
            return self._entry(client, now)[0] > 0

    def wait(self, client: tuple, now: float) -> float:
        """Seconds this client must still wait before its next try."""
        with self._lock:
            count, last = self._entry(client, now)
        if count < self.FREE:
            return 0.0
        return max(0.0, last + min(2.0 ** (count - self.FREE), self.MAX_DELAY) - now)

    def failed(self, client: tuple, now: float) -> int:
        """Count a failure; how many this client has now."""
        with self._lock:
            count = self._entry(client, now)[0] + 1
            self._clients.put(client, (count, now))
        return count

    def succeeded(self, client: tuple) -> None:
        with self._lock:
            self._clients.pop(client, None)


def _login_client() -> tuple:
    return (request.remote_addr or "-", _login_name())


def _clock():
    return current_app.extensions["werewolf.clock"]()


def _failed_logins() -> FailedLogins:
    return current_app.extensions["werewolf.failed_logins"]


def _slowed(view):
    """The log-in route with growing delays for a client that keeps failing."""
    @functools.wraps(view)
    def login(*args, **kwargs):
        client, now, failures = _login_client(), _clock(), _failed_logins()
        wait = failures.wait(client, now)
        if wait > 0:
            response, status = error_response(429, "too_many_requests", "Too many failed logins: wait a little.")
            response.headers["Retry-After"] = str(math.ceil(wait))
            return response, status
        try:
            answer = view(*args, **kwargs)
        except ServiceError as error:
            if error.status == 401:
                g.werewolf_new_failing_name = failures.failed(client, now) == 1
            raise
        failures.succeeded(client)
        return answer
    return login


def _login_key() -> str:
    name = _login_name()
    return "login:" + name if name is not None else "login-ip:" + (request.remote_addr or "-")


def _address_key() -> str:
    return "ip:" + (request.remote_addr or "-")


def _user_key() -> str:
    user_id = verified_user_id()
    if user_id is not None:  # without loading the user row (see api._BY_SESSION_ID)
        return f"user:{user_id}"
    if current_user.is_authenticated:
        return f"user:{current_user.id}"
    return "ip:" + (request.remote_addr or "-")


def _seat_key() -> str:
    return f"{_user_key()}:table:{(request.view_args or {}).get('table_id', '')}"[:120]


def _config_limit(name: str):
    return lambda: current_app.config[name]


class SecureCookies:
    """WSGI middleware: add ``Secure`` to every cookie of a response to an HTTPS request.

    It runs outside Flask, so it also sees the session cookie (saved after every
    ``after_request`` hook). The scheme is read when the response starts, after
    ProxyFix (inside it) has rewritten it from X-Forwarded-Proto.
    """

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        def start(status, headers, exc_info=None):
            if environ.get("wsgi.url_scheme") == "https":
                headers = [(k, _with_secure(v) if k.lower() == "set-cookie" else v) for k, v in headers]
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)


def _with_secure(cookie: str) -> str:
    flags = [part.strip().lower() for part in cookie.split(";")[1:]]
    return cookie if "secure" in flags else cookie + "; Secure"


def register(app) -> None:
    for key, value in DEFAULT_LIMITS.items():
        app.config.setdefault(key, value)
    # One limiter per app: tests build many apps in one process. The sliding window counter
    # (a moving window's estimate from two counters): the in-memory storage scans every key
    # every 10 ms while hits come; with a moving window's lists of hits, 4.0 ms per scan at
    # 1,440 players' keys (17 % of a worker's CPU at 80 tables), with counters 0.4 ms.
    limiter = Limiter(key_func=lambda: request.remote_addr or "-", app=app, storage_uri="memory://",
                      strategy="sliding-window-counter", headers_enabled=True)

    # Limits are attached here, by endpoint, so the route modules stay as they are.
    def failed(status: int):
        return lambda response: response.status_code == status

    app.extensions["werewolf.failed_logins"] = FailedLogins()
    limits = {
        # A refusal before any hashing (bad input, registration closed) does not count.
        "auth.register": [limiter.limit(_config_limit("REGISTRATION_RATE_LIMIT"), key_func=_address_key,
                                        deduct_when=lambda response: response.status_code in (201, 409))],
        "auth.login": [limiter.limit(_config_limit("LOGIN_RATE_LIMIT"), key_func=_login_key,
                                     deduct_when=failed(401),
                                     exempt_when=lambda: not _failed_logins().failing(_login_client(), _clock())),
                       limiter.limit(_config_limit("LOGIN_ADDRESS_RATE_LIMIT"), key_func=_address_key,
                                     deduct_when=lambda response: response.status_code == 401
                                     and g.get("werewolf_new_failing_name", False))],
        # Someone else's open session must not become a way to guess the password.
        "auth.change_password": [limiter.limit(_config_limit("LOGIN_RATE_LIMIT"), key_func=_user_key,
                                               deduct_when=failed(403))],
        "auth.delete_me": [limiter.limit(_config_limit("LOGIN_RATE_LIMIT"), key_func=_user_key,
                                         deduct_when=failed(403))],
        "api.chat": [limiter.limit(_config_limit("CHAT_RATE_LIMIT"), key_func=_user_key)],
        "api.act": [limiter.limit(_config_limit("ACT_RATE_LIMIT"), key_func=_seat_key)],
        "lobby.by_code": [limiter.limit(_config_limit("CODE_LOOKUP_RATE_LIMIT"), key_func=_user_key,
                                        deduct_when=failed(404)),
                          limiter.limit(_config_limit("CODE_LOOKUP_ADDRESS_RATE_LIMIT"), key_func=_address_key,
                                        deduct_when=failed(404))],
    }
    for endpoint, endpoint_limits in limits.items():
        for limit in endpoint_limits:
            app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    # Outside the limits: a client told to wait is refused before any of them is counted.
    app.view_functions["auth.login"] = _slowed(app.view_functions["auth.login"])
    # Every limit here is a route's own (its wrapper checks it): the other routes, the
    # state poll first, skip Flask-Limiter's look-up of limits before each request (its
    # documented request filter), which found none for them: a 304 329 -> 287 us in
    # process (bench/poll_profile.py). Its hooks still run around every request.
    limited = frozenset(limits)
    limiter.request_filter(lambda: request.endpoint not in limited)

    @app.after_request
    def _headers(response):
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    app.wsgi_app = SecureCookies(app.wsgi_app)
