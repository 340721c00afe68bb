"""The parts of what a state poll answers (``poll.state_answer`` puts them together):
the ETag, the serialized view and its cache, the lobby's view, the 304.
"""
from __future__ import annotations

import hashlib
import json
from typing import NamedTuple

import orjson
from flask import current_app
from werkzeug.http import parse_etags

from .. import service
from ..cache import LRU
from ..engine.views import seconds_left
from .security import HEADERS

# Seconds since a player's last poll to be shown as connected: the one presence window, a
# spectator's too (service.WATCHING_WITHIN, RULES-VARIANTS A13).
CONNECTED_WITHIN = service.WATCHING_WITHIN

# In the cached body, step.seconds_left is this string, replaced at serving time.
# JSON escapes the NUL characters, and no name or message may hold control characters.
SECONDS_LEFT_MARK = "\x00seconds_left\x00"
_MARK_JSON = orjson.dumps(SECONDS_LEFT_MARK)


def etag_of(table_id: str, lobby_rev: int, seat: int | None, connected: tuple, game_version,
            spectators: int) -> str:
    """``game_version`` is (game id, its status as read, version for this seat) or None in the lobby; ``seat``
    None: the public view (a spectator, the room's screen); ``spectators``: how many watch."""
    parts = (table_id, lobby_rev, seat, connected, game_version, spectators)
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:24]


def connected_seats(seats, my_number: int | None, now: float) -> tuple:
    """Seats polled within CONNECTED_WITHIN, and mine (I am polling right now)."""
    within = CONNECTED_WITHIN  # every poll runs this over every seat: cheapest test first
    return tuple(s.number for s in seats if now - s.last_seen < within or s.number == my_number)


# ---------------------------------------------------------------- serialized views

def per_app(key: str, make, app=None):
    """One object per app (so a test's "restarted" app starts empty)."""
    extensions = (app or current_app).extensions
    found = extensions.get(key)
    if found is None:
        found = extensions.setdefault(key, make())
    return found


def view_cache(app=None) -> LRU:
    """Serialized views by ETag and host (the table's URL in a view depends on it)."""
    return per_app("werewolf.view_cache", lambda: LRU(2048), app)


def serialize(view: dict) -> bytes:
    """The view as JSON bytes, with step.seconds_left left as a mark (see json_response).
    orjson, not the json module: a phone's view took 95 us of CPU to encode, now 14; the
    same JSON, non-ASCII text as UTF-8 rather than escaped (every string in a view is valid
    Unicode: web/http.py refuses any other at the door, and orjson would raise on it)."""
    step = view.get("step")
    if step and "seconds_left" in step:
        view["step"] = {**step, "seconds_left": SECONDS_LEFT_MARK}
    return orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE)


def serialize_shared_once(views) -> None:
    """Views made together (engine.views_for) hold the same lists: a channel's lines, the
    events. Each list is serialized once, and every view holds those bytes in its place
    (orjson.Fragment), so ``serialize`` copies them instead of encoding them again."""
    done: dict[int, tuple] = {}  # id -> (the list, kept alive so its id stays its own; its bytes)

    def once(value: list) -> orjson.Fragment:
        found = done.get(id(value))
        if found is None:
            found = done[id(value)] = (value, orjson.Fragment(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)))
        return found[1]
    for made in views:
        made["events"] = once(made["events"])
        made["chat"] = {channel: once(lines) for channel, lines in made["chat"].items()}


def host_key(environ: dict) -> str:
    """The scheme and host a request came for: the table's URL in a view depends on it."""
    host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
    return f"{environ.get('wsgi.url_scheme', 'http')}://{host}{environ.get('SCRIPT_NAME', '')}"


class Answer(NamedTuple):
    """A poll's response, before any framework: WSGI status, headers and body."""
    status: str
    headers: list
    body: bytes

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


_COMMON_HEADERS = [("Cache-Control", "no-cache, private"), ("Vary", "Cookie"), *HEADERS.items()]
PAD_TO = 1024  # a padded body's size is a multiple of this


def padded_size(size: int) -> int:
    return -(-size // PAD_TO) * PAD_TO


def json_response(body: bytes, deadline: float | None, now: float, etag: str, size: int = 0) -> Answer:
    """``size``: pad the body with spaces to that many bytes (JSON allows them); a longer body
    (a phone that names the server by a longer host name) to the next multiple of PAD_TO."""
    if deadline is not None:
        body = body.replace(_MARK_JSON, json.dumps(seconds_left(deadline, now)).encode(), 1)
    if size:
        size = max(size, padded_size(len(body)))
        body = body[:-1] + b" " * (size - len(body)) + b"\n"
    return Answer("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                             ("ETag", f'"{etag}"'), *_COMMON_HEADERS], body)


def not_modified(etag: str) -> Answer:
    return Answer("304 NOT MODIFIED", [("ETag", f'"{etag}"'), *_COMMON_HEADERS], b"")


def flask_response(answer: Answer):
    return current_app.response_class(answer.body, status=answer.status, headers=answer.headers)


def event_stream(events):
    """The response of a stream of views (``poll.stream``): a seat's or the room's screen's."""
    return current_app.response_class(events, mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache, private", "X-Accel-Buffering": "no"})  # a proxy passes each event on at once


def lobby_view(names: list[tuple[int, str]], my_number: int | None) -> dict:
    """The waiting room's view: ``names`` are (seat, name) in seat order; ``my_number`` None:
    a spectator's or the screen's."""
    me = {"seat": my_number, "name": dict(names)[my_number], "captain": False} if my_number is not None else None
    return {
        "status": "lobby",
        "me": me,
        "players": [{"seat": number, "name": name, "alive": True, "captain": False} for number, name in names],
        "composition": {},
        "step": None,
        "prompt": None,
        "votes": {},
        "events": [],
        "chat": {},
        "channels": {"read": [], "write": None, "writable": []},
        "winner": None,
    }


def has_etag(if_none_match: str | None, etag: str) -> bool:
    """Whether an If-None-Match names ``etag``: the phone has this view."""
    return bool(if_none_match) and parse_etags(if_none_match).contains(etag)
