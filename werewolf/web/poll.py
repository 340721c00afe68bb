"""The state poll: ``state_answer`` answers every view of a table (a seat's poll, a
spectator's, the room's screen, a stream's next event, the view a write answers with): the
session, one read of the table, the ETag, then a 304 or the view. Nothing else builds a
view. Held polls (``answer``, ``Prefer: wait=N``, RFC 7240) and streams (``stream``) wait in
one loop (``_looks``) for the table's next change (changes.py). What is kept in memory, and
why it stays right: docs/PERFORMANCE.md.
"""
from __future__ import annotations

import itertools
import json
import logging
import re
import threading
import time
import weakref
import zlib
from typing import NamedTuple

from flask import current_app

from .. import changes, engine, service, store
from ..cache import LRU
from ..extensions import db
from ..service import ServiceError
from . import tables, view
from .session import SessionLogin
from .view import Answer, per_app

log = logging.getLogger(__name__)

# A held poll notes its player's presence when it arrives, never while it waits: a page
# closed meanwhile must not look connected. So between two notes of a phone that is there
# pass at most PRESENCE_WRITE_EVERY + MAX_WAIT (+ a flush), under view.CONNECTED_WITHIN.
MAX_WAIT = 10.0     # seconds a poll is held at most, whatever it asks
RECHECK_EVERY = 5.0  # a held poll looks again this often: others' presence and spectators move without a change
STEP_GRACE = 0.02   # a held poll moves an overdue game on itself this long after its deadline
NIGHT_BEAT = 0.5    # at night a living seat's held poll answers on its table's beat, this often at most


class Viewer(NamedTuple):
    """Who asks: ``user_id`` None for the room's screen (the public view); ``login`` the
    session's, to check against the account as it is now (None: Flask-Login checked it);
    ``screen_rev``: the room's screen, the revision its key was made for (a key the host
    renewed shows nothing more, on a stream already open too)."""
    user_id: int | None
    login: SessionLogin | None = None
    screen_rev: int | None = None

    def signed_in_as(self, password_hash: str | None, session_tokens: str | None) -> bool:
        return self.login is None or self.login.matches(password_hash, session_tokens)


class Look(NamedTuple):
    """A state poll's answer, and what its wait for the next one needs to know."""
    answer: Answer
    deadline: float | None  # the running step's
    night: bool  # a living seat at night: its next answer waits for the table's beat


def state_answer(table_id: str, viewer: Viewer, now: float, environ: dict, if_none_match: str | None,
                 arriving: bool = True) -> Look:
    """A 304 when ``if_none_match`` (the request's If-None-Match) names the viewer's view,
    else the view. ``arriving``: the viewer's request is new (not a held poll looking
    again), so it shows the viewer is there: a seat's presence, a spectator counted.
    Raises ServiceError: no such table (404), not seated where nobody may watch (403), a
    session whose account changed its password (401)."""
    app = current_app._get_current_object()
    read = read_table(app, table_id, now)
    if read is not None and read.game_status == "running" and read.deadline is not None and read.deadline <= now:
        # Play goes on even if no scheduler runs. The polls woken with this one queue for the
        # game's move lock and find it moved on (a read each).
        service.advance_game(read.game_id, now)
        read = read_table(app, table_id, now, fresh=True)
    if read is None or (viewer.screen_rev is not None and read.screen_rev != viewer.screen_rev):
        raise ServiceError(404, "table_not_found", "No such table.")
    me = next((s for s in read.seats if s.user_id == viewer.user_id), None) if viewer.user_id else None
    if viewer.user_id is not None:
        known = (me.password_hash, me.session_tokens) if me else store.session_check_of(db.engine, viewer.user_id)
        if not viewer.signed_in_as(*known):
            raise ServiceError(401, "login_required", "Log in first.")
        if me is not None:
            if arriving:
                presence(app).seen(table_id, me.id, me.last_seen, now)
        elif json.loads(read.settings).get("options", {}).get("spectators"):
            if arriving:
                service.watch(table_id, viewer.user_id, now)
                read = read_table(app, table_id, now) or read  # counted now, if it wrote (read again)
        else:
            raise ServiceError(403, "not_seated", "You are not seated at this table.")
    presence(app).flush_if_due(now)
    number = me.number if me is not None else None
    connected = view.connected_seats(read.seats, number, now)
    game = _game(read)
    living = number is not None and _living(game, number)
    etag = view.etag_of(table_id, read.lobby_rev, number, connected,
                        (read.game_id, read.game_status, _version(game, number, living)) if game is not None else None,
                        read.spectators)  # the read's status: the table part's, maybe older than the game
    deadline = read.deadline if read.game_status == "running" else None
    night = living and game.is_night()
    if view.has_etag(if_none_match, etag):
        return Look(view.not_modified(etag), deadline, night)
    body, deadline_shown, padded = view.view_cache(app).get_or_make(
        (etag, view.host_key(environ)), lambda: _build(app, table_id, read, game, number, living, connected, etag, now, environ))
    return Look(view.json_response(body, deadline_shown, now, etag, padded), deadline, night)


def _build(app, table_id: str, read: store.PollRead, game, number: int | None, living: bool, connected: tuple,
           etag: str, now: float, environ: dict):
    """(serialized view, its step's deadline or None, the size to pad it to)."""
    together = _living_views(app, table_id, read, game, now, environ) if living else None
    if game is None:
        built = view.lobby_view([(s.number, s.name) for s in read.seats], number)
    elif together is not None:
        built = together.take(number, game, now)
    else:
        built = engine.view_for(game, number, now)
    built["version"] = int(etag[:12], 16)
    built["table"] = _table_part(app, table_id, read, environ, number)
    built["players"] = [{**p, "connected": p["seat"] in connected} for p in built["players"]]
    return view.serialize(built), game.deadline if game is not None and built.get("step") else None, \
        together.padded if together else 0


def _version(game, number: int | None, living: bool) -> tuple:
    """The version of this seat's view; while the game runs, for a living seat, every living
    seat's: their views move together, so how often a phone is answered tells nothing of who
    acts or who hears the wolves."""
    if not living:
        return ("seat", game.version_for(number))
    return ("living", tuple(game.version_for(p.seat) for p in game.players if p.alive))


def _living(game, number: int) -> bool:
    """A living seat of a running game: asked at every look of every stream, so by index (seats are 1..n)."""
    return (game is not None and game.status == "running" and 0 < number <= len(game.players)
            and game.player(number).alive)


class LivingViews:
    """Every living seat's view of a running game at one rev, made together for the phones a
    change wakes together, and the one size their bodies are padded to: a wolf's view holds
    the wolves' talk, the Seer's what she saw, and a size on the wire would tell them."""

    def __init__(self, game, now: float, host_table: dict):
        self.game = weakref.ref(game)  # the decoded game they were made from (not kept alive by this)
        # By seat, until that seat takes it: memory is held only for the wake-up.
        self._views = views = engine.views_for(game, [p.seat for p in game.players if p.alive], now)
        view.serialize_shared_once(views.values())
        self._lock = threading.Lock()
        # The largest view as the host's phone would get it, the longest version, no one
        # connected: the same size in every process, whoever asks first.
        largest = max(views.values(), key=lambda v: len(view.serialize(dict(v))))
        widest = {**largest, "version": 16 ** 12 - 1, "table": host_table,
                  "players": [{**p, "connected": False} for p in largest["players"]]}
        self.padded = view.padded_size(len(view.serialize(widest)))

    def take(self, number: int, game, now: float) -> dict:
        """The seat's view of ``game`` (theirs), made with the others (or again, if it asks
        a second time)."""
        with self._lock:
            made = self._views.pop(number, None)
        return made if made is not None else engine.view_for(game, number, now)


_living_kept = LRU(1024)  # by table: ((game, rev), LivingViews), the last rev's only


def _living_views(app, table_id: str, read: store.PollRead, game, now: float, environ: dict) -> LivingViews:
    """The living seats' views at this rev, made by the first poll that asks (nothing in it
    yields to the others woken with it). The last rev's only: the views of seats another
    process serves are never taken here, and would stay for the collector to scan."""
    kept = _living_kept.get(table_id)
    if kept is not None and kept[0] == (read.game_id, read.game_rev) and kept[1].game() is game:
        return kept[1]
    made = LivingViews(game, now, _table_part(app, table_id, read, environ, _host_seat(read)))
    _living_kept.put(table_id, ((read.game_id, read.game_rev), made),  # an older read's views are not kept
                     keep=lambda current: current[0] > (read.game_id, read.game_rev))
    return made


def _table_part(app, table_id: str, read: store.PollRead, environ: dict, number: int | None) -> dict:
    """The view's ``table`` part as seat ``number`` may see it (``tables.seen_from``), kept by
    all it is made of: the read's fields, the request's host (its links are made for it, in
    a context of that request), whether the seat is the table's host (the same for all others)."""
    status = read.game_status or "lobby"
    host_seat = _host_seat(read)
    made_of = (table_id, read.code, read.name, status, host_seat, len(read.seats), read.settings,
               status == "lobby" and read.public, read.spectators, read.screen_rev)
    key = (made_of, view.host_key(environ), number is not None and number == host_seat)

    def make() -> dict:
        with app.request_context(environ):
            return tables.seen_from(tables.table_json(*made_of), number)
    return per_app("werewolf.table_parts", lambda: LRU(4096), app).get_or_make(key, make)


def _host_seat(read: store.PollRead) -> int | None:
    return next((s.number for s in read.seats if s.user_id == read.host_user_id), None)


def _game(read: store.PollRead):
    """The decoded game of ``read`` (None in the lobby), from the cache or from its row."""
    if read.game_id is None:
        return None
    game = store.game_cache.get(read.game_id, read.game_rev)
    if game is None and (row := store.read_game(read.game_id)) is not None:
        game = store.load_game(row)  # it may have moved on since the read: a newer view, its own ETag
    return game


# ---------------------------------------------------------------- held polls

_PREFER_WAIT = re.compile(r"(?:^|[,;])\s*wait\s*=\s*\"?(\d{1,6})\"?\s*(?:$|[,;])", re.IGNORECASE)


def requested_wait(environ: dict) -> float | None:
    """``Prefer: wait=N`` (seconds, RFC 7240), capped at MAX_WAIT; None without it, or 0."""
    match = _PREFER_WAIT.search(environ.get("HTTP_PREFER", ""))
    if match is None or int(match.group(1)) == 0:
        return None
    return min(float(match.group(1)), MAX_WAIT)


def answer(table_id: str, viewer: Viewer, environ: dict) -> Answer:
    """``state_answer``, held while it is a 304 when asked with ``Prefer: wait=N``: it
    answers as soon as the viewer's view changes, or with the 304 at the end of the wait.
    Every held answer says ``Preference-Applied``: the page may ask again at once."""
    app = current_app._get_current_object()
    wait, started = requested_wait(environ), time.monotonic()
    looks = _looks(app, table_id, viewer, environ, environ.get("HTTP_IF_NONE_MATCH"), lambda: started + wait)
    found = next(looks)
    if wait is None:
        return found.answer
    if not found.answer.status.startswith("304"):
        return _applied(found.answer, wait, None)
    if not holding(app).take():
        return found.answer  # all taken: the page polls again after its usual pause
    try:
        for found in looks:
            if not found.answer.status.startswith("304") or time.monotonic() >= started + wait:
                break
    finally:
        holding(app).give_back()
    return _applied(found.answer, wait, time.monotonic() - started)


def _looks(app, table_id: str, viewer: Viewer, environ: dict, if_none_match: str | None, until):
    """The viewer's look as its request arrives (asked with ``if_none_match``), then a look
    each time the table's token moves, or after RECHECK_EVERY seconds, or at ``until()``
    (monotonic), or at the step's deadline (the look moves the game on); each asked with the
    ETag of the last view answered. At night a living seat's look waits for the table's
    beat: every living phone is answered at the same moments whoever acted, a beat's changes
    in one answer. Ends when the worker stops. The looks after the first run in the app's
    context (a request's would match its URL again); no database connection is kept asleep."""
    clock = app.extensions["werewolf.clock"]
    token = changes.of(db.engine).token(table_id)  # before the read: a write after it moves it
    found = state_answer(table_id, viewer, clock(), environ, if_none_match, arriving=True)
    while True:
        yield found
        if not found.answer.status.startswith("304"):
            if_none_match = found.answer.header("ETag")
        if _stopping:
            return
        with app.app_context():
            signal = changes.of(db.engine)
            left = min(until() - time.monotonic(), RECHECK_EVERY)
            if found.deadline is not None:
                left = min(left, max(0.0, found.deadline - clock()) + STEP_GRACE)
            if left > 0:
                db.session.remove()
                signal.wait(table_id, token, left)
                if found.night and (found.deadline is None or clock() < found.deadline):  # overdue: at once
                    time.sleep(until_night_beat(table_id, time.time()))
            token = signal.token(table_id)
            found = state_answer(table_id, viewer, clock(), environ, if_none_match, arriving=False)


def until_night_beat(table_id: str, wall: float) -> float:
    """Seconds from ``wall`` (POSIX time: the same on every worker) to the table's next beat."""
    offset = zlib.crc32(table_id.encode()) / 2 ** 32 * NIGHT_BEAT
    return NIGHT_BEAT - (wall - offset) % NIGHT_BEAT


def _applied(found: Answer, wait: float, held_for: float | None) -> Answer:
    headers = [*found.headers, ("Preference-Applied", f"wait={wait:g}")]
    if held_for is not None:
        headers.append(("Server-Timing", f"held;dur={held_for * 1000:.0f}"))
    return found._replace(headers=headers)


_stopping = False  # the worker stops: nothing is held any more


class Holding:
    """How many polls and streams this process holds, each a connection of the worker's, at
    most ``limit`` (``WEREWOLF_HELD_POLLS``, gunicorn.conf.py): beyond, polls answer at once."""

    def __init__(self, limit: int):
        self.limit, self.held = limit, 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if _stopping or self.held >= self.limit:
                return False
            self.held += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.held -= 1


def holding(app) -> Holding:
    return per_app("werewolf.holding", lambda: Holding(int(app.config["HELD_POLLS"])), app)


def stop_holding() -> None:
    """The worker stops (gunicorn.conf.py): held polls answer now, none is held any more."""
    global _stopping
    _stopping = True
    changes.wake_all()


# ---------------------------------------------------------------- the stream

HEARTBEAT = RECHECK_EVERY  # a stream with nothing new says so this often: the page knows its link lives
_EVENT_ID = re.compile(r"[0-9a-f]{1,64}")


def stream(table_id: str, viewer: Viewer, environ: dict):
    """The viewer's views as Server-Sent Events (``GET /api/tables/<id>/events``): each view
    a held poll would answer, on one connection. ``Last-Event-ID`` (the ETag of the view the
    browser has, sent when it reconnects) is its If-None-Match. Raises ServiceError like
    ``state_answer``, and 503 when this process holds all it may (the page polls instead),
    before anything is streamed; else returns the events (bytes)."""
    app = current_app._get_current_object()
    last = environ.get("HTTP_LAST_EVENT_ID", "")
    ends = time.monotonic() + float(app.config["STREAM_SECONDS"])
    beat_at = time.monotonic() + HEARTBEAT
    looks = _looks(app, table_id, viewer, environ, f'"{last}"' if _EVENT_ID.fullmatch(last) else None,
                   lambda: min(ends, beat_at))
    first = next(looks)
    if not holding(app).take():
        raise ServiceError(503, "too_busy", "The server holds all the streams it can: poll instead.")

    def events():
        """No context is kept across a ``yield``: a test may read other streams between. Only
        a request shows that its player is there (the page's, every 10 s): a phone gone
        silent keeps its connection open a long while, and writes to it still succeed."""
        nonlocal beat_at
        try:
            yield b"retry: 1000\n\n"  # the browser reconnects a second after a stream ends
            for look in itertools.chain([first], looks):
                if not look.answer.status.startswith("304"):
                    etag = look.answer.header("ETag").strip('"').encode()
                    yield b"id: %s\nevent: state\ndata: %s\n\n" % (etag, look.answer.body.rstrip(b"\n"))
                    beat_at = time.monotonic() + HEARTBEAT
                elif time.monotonic() >= beat_at:
                    yield b"event: beat\ndata: 1\n\n"
                    beat_at = time.monotonic() + HEARTBEAT
                if time.monotonic() >= ends:
                    return
        except ServiceError:
            return  # signed out, unseated, no table: the browser's next stream is told why
        finally:
            holding(app).give_back()

    return events()


# ---------------------------------------------------------------- the table's read

READ_KEPT_FOR = 1.0  # seconds: a player's presence and the spectators' count move without a change


def read_table(app, table_id: str, now: float, fresh: bool = False) -> store.PollRead | None:
    """The table's poll read, kept by this process while the table's token on the change
    signal stays as it was before the read, and READ_KEPT_FOR at most."""
    kept_reads = per_app("werewolf.poll_reads", lambda: LRU(4096), app)  # by table: (token, read at, read)
    token = changes.of(db.engine).token(table_id)  # before the read: a write committed after it moves it
    kept = None if fresh or token is None else kept_reads.get(table_id)
    if kept is not None and kept[0] == token and kept[1] <= now < kept[1] + READ_KEPT_FOR:
        return kept[2]
    read = store.read_table_for_poll(db.engine, table_id, now - service.WATCHING_WITHIN)
    if read is not None and token is not None:
        kept_reads.put(table_id, (token, now, read))
    return read


# ---------------------------------------------------------------- presence

class Presence:
    """The players' presence noted by this process's polls (each seat's at most every
    PRESENCE_WRITE_EVERY seconds), written by one poll in one transaction every FLUSH_EVERY
    rather than every poll queueing for the write lock; both far under view.CONNECTED_WITHIN."""

    FLUSH_EVERY = 1.0

    def __init__(self):
        self._lock = threading.Lock()
        self._pending: dict[int, float] = {}
        self._returning: set[str] = set()  # tables of players back after being shown as gone
        self._flushed_at = float("-inf")

    def seen(self, table_id: str, seat_id: int, last_seen: float, now: float) -> None:
        if now - last_seen >= service.PRESENCE_WRITE_EVERY:
            with self._lock:
                self._pending[seat_id] = now
                if now - last_seen >= view.CONNECTED_WITHIN:  # shown as gone: every view changes
                    self._returning.add(table_id)

    def flush_if_due(self, now: float) -> None:
        with self._lock:
            if not self._pending or now - self._flushed_at < self.FLUSH_EVERY:
                return
            pending, self._pending, self._flushed_at = self._pending, {}, now
            returning, self._returning = self._returning, set()
        try:
            store.write_presence(pending, tuple(returning))
        except Exception:
            log.exception("writing the presence of %d players failed", len(pending))


def presence(app) -> Presence:
    return per_app("werewolf.presence", Presence, app)
