"""Who a request is logged in as, read from Flask's signed session without Flask-Login.

Flask-Login keeps ``User.get_id()`` in the session: "<user id>:<key>.<session>", where
the key is a digest of the account's password hash (``models.session_key``) and the
session one of the account's ``session_tokens``, the server's record of its live
sessions. A session is good only while the key still matches the account's hash (a
new password, a disabled or a deleted account signs every older session out) and its
token is still recorded (log-out removes it, "log out everywhere" all of them), so a
copy of the cookies kept from before is worth nothing. Whoever trusts a session's user
id must check both against the database (``verified_user_id``, or the poll gate's own
read).
"""
from __future__ import annotations

from typing import NamedTuple

from flask import current_app, g, session

from .. import store
from ..extensions import db, login_manager
from ..models import session_key


class SessionLogin(NamedTuple):
    user_id: int
    key: str  # the digest of the password hash it was made with
    token: str  # which of the account's sessions

    def matches(self, password_hash: str | None, session_tokens: str | None) -> bool:
        """Whether the account (its hash and live sessions as they are now) still has it."""
        return (password_hash is not None and session_key(password_hash) == self.key
                and self.token in (session_tokens or "").split())


def parse_login(value) -> SessionLogin | None:
    """The "<id>:<key>.<session>" of a session or remember cookie; None for anything else."""
    if not isinstance(value, str):
        return None
    user_id, _, rest = value.partition(":")
    key, _, token = rest.partition(".")
    if not (user_id.isdigit() and key and token):
        return None
    return SessionLogin(int(user_id), key, token)


def session_protection(app) -> str | None:
    return app.config.get("SESSION_PROTECTION", login_manager.session_protection)


def session_login() -> SessionLogin | None:
    """The "<id>:<key>.<session>" in Flask's session, not checked yet; None with "strong"
    session protection (Flask-Login may drop a session whose browser changed)."""
    if session_protection(current_app) == "strong":
        return None
    return parse_login(session.get("_user_id"))


def verified_user_id() -> int | None:
    """The logged-in user's id from Flask's session, its key checked, or None.

    One small SQL read instead of Flask-Login's loading of the user row. None sends
    the request the ordinary way (Flask-Login restores a remembered login from its
    cookie, refuses an anonymous or signed-out one). With "strong" session protection
    Flask-Login may drop a session whose browser changed: then always go that way.
    """
    if "werewolf_user_id" in g:
        return g.werewolf_user_id
    user_id = None
    login = session_login()
    if login is not None and login.matches(*store.session_check_of(db.engine, login.user_id)):
        user_id = login.user_id
    g.werewolf_user_id = user_id
    return user_id
