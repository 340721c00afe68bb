"""The room screen's link: the table's id and a read-only key, an HMAC of the table id and
its ``screen_rev`` under the app's secret key (see screen.py). Apart from the screen's
routes so that the table's JSON (tables.py), which the screen's poll builds, can name it."""
import hashlib
import hmac

from flask import current_app

from .http import public_url

KEY_LENGTH = 24


def screen_key(table_id: str, screen_rev: int) -> str:
    secret = current_app.config["SECRET_KEY"]
    secret = secret.encode() if isinstance(secret, str) else secret
    message = b"screen:" + table_id.encode() + (f":{screen_rev}".encode() if screen_rev else b"")
    return hmac.new(secret, message, hashlib.sha256).hexdigest()[:KEY_LENGTH]


def screen_url(table_id: str, screen_rev: int) -> str:
    return public_url("screen.screen_page", table_id=table_id, key=screen_key(table_id, screen_rev))
