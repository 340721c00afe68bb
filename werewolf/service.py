"""Every change to a table or a game, each as one write transaction.

A game action locks the game row, loads the engine game, applies the action,
saves and commits: two requests for the same step are serialized and the second
one sees the first one's result. ``advance_due`` moves on every game whose step
deadline has passed; advancing re-checks the deadline under the lock, so two
workers (or a restart) can never advance a step twice.
"""
import json
import logging
import secrets
import threading

from flask import current_app
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from . import engine, passwords, push, store
from .engine import MAX_PLAYERS, MIN_PLAYERS  # the engine's limits are the one source
from .engine import text as text_rules
from .extensions import db
from .models import (
    DELETED_HASH,
    GUEST,
    LOCKED,
    MAX_SESSIONS,
    Game,
    GamePlayer,
    PublicTable,
    PushSubscription,
    Seat,
    Spectator,
    Table,
    User,
    deleted_name_key,
    random_code,
)

log = logging.getLogger(__name__)

NAME_MAX, TABLE_NAME_MAX, PASSWORD_MIN, PASSWORD_MAX = 24, 40, 8, 200
PRESENCE_WRITE_EVERY = 10.0  # seconds between two presence writes of one player
WAITING_TABLE_TTL = 24 * 3600.0  # a waiting table nobody touched for this long is cleared out
REGISTRATION_MODES = ("open", "closed", "invite")
WATCHING_WITHIN = 20.0  # seconds since a spectator's last poll to be counted (RULES-VARIANTS A13)


class ServiceError(Exception):
    """A refused request outside the engine's rules; ``status`` is the HTTP status."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def table_status(table: Table) -> str:
    """"lobby" without a game, else the game's own status ("running" | "ended")."""
    return table.current_game.status if table.current_game is not None else "lobby"


# ---------------------------------------------------------------- accounts

def clean_name(value, limit: int) -> str:
    """A name that shows as itself (engine/text.py), whitespace folded."""
    try:
        return text_rules.name(value, limit)
    except text_rules.TextRefused as refused:
        raise ServiceError(400, refused.code, refused.message) from None


def _is_password(password) -> bool:
    """Text that can be hashed (no lone surrogate), at most PASSWORD_MAX long."""
    return isinstance(password, str) and len(password) <= PASSWORD_MAX and text_rules.is_unicode(password)


def _clean_password(password) -> str:
    if not _is_password(password) or len(password) < PASSWORD_MIN:
        raise ServiceError(400, "invalid_password",
                           f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters.")
    return password


_WEAKNESS_MESSAGES = {
    "password_is_name": "A password cannot be the account's name.",
    "password_too_simple": "This password repeats too few different characters.",
    "password_too_common": "This password is among the most common ones: choose another.",
}


def _new_password(password, name: str) -> str:
    """A password for a new account or a change: of a valid length, and not among the worst."""
    password = _clean_password(password)
    weakness = passwords.weakness(password, name)
    if weakness is not None:
        raise ServiceError(400, weakness, _WEAKNESS_MESSAGES[weakness])
    return password


def _hash(password: str) -> str:
    # Hashing is slow on purpose: never do it while holding the database's write lock.
    return generate_password_hash(password, current_app.config["PASSWORD_HASH_METHOD"])


def check_registration_open(mode: str, table_code) -> None:
    """``mode`` is WEREWOLF_REGISTRATION; in "invite" mode only an existing table's code lets one in."""
    if mode == "closed":
        raise ServiceError(403, "registration_closed", "Registration is closed on this server.")
    if mode == "invite":
        code = _table_code(table_code)
        if not code or db.session.scalar(select(Table.id).where(Table.code == code)) is None:
            raise ServiceError(403, "invite_required",
                               "Registration needs a table's link or code on this server.")


def _table_code(value) -> str | None:
    """A table code as sent (any case, spaces around), or None if it cannot be one: a NUL
    would reach PostgreSQL, which refuses it in any query."""
    return value.strip().upper() if isinstance(value, str) and "\x00" not in value else None


def register(name, password, now: float, guest: bool = False) -> User:
    """A new account; ``guest``: with no password (see models.GUEST), protected later."""
    name = clean_name(name, NAME_MAX)
    password_hash = GUEST + secrets.token_hex(16) if guest else _hash(_new_password(password, name))
    try:
        with store.write_transaction():
            if db.session.scalar(select(User.id).where(User.name_key == name.casefold())):
                raise ServiceError(409, "name_taken", "This name is already taken.")
            user = User(name=name, name_key=name.casefold(), password_hash=password_hash, created_at=now)
            db.session.add(user)
    except IntegrityError:
        # PostgreSQL: another server registered the same name between our check and insert.
        raise ServiceError(409, "name_taken", "This name is already taken.") from None
    return user


def _dummy_hash() -> str:
    """A hash of no one's password, made with the configured method, once per process."""
    method = current_app.config["PASSWORD_HASH_METHOD"]
    found = _DUMMY_HASHES.get(method)
    if found is None:
        found = _DUMMY_HASHES.setdefault(method, generate_password_hash(secrets.token_hex(16), method))
    return found


_DUMMY_HASHES: dict[str, str] = {}


def authenticate(name, password) -> User:
    """The account, if the password is its own. An unknown or disabled name costs the
    same hashing as a wrong password, so the time taken tells nobody which names exist."""
    key = text_rules.folded(name).casefold() if isinstance(name, str) and text_rules.is_unicode(name) else ""
    if _is_password(password):
        # No name has a control character (clean_name), and PostgreSQL refuses a NUL in a query.
        user = db.session.scalar(select(User).where(User.name_key == key)) if key.isprintable() else None
        usable = user is not None and user.is_active
        if check_password_hash(user.password_hash if usable else _dummy_hash(), password) and usable:
            return user
    raise ServiceError(401, "bad_credentials", "Wrong name or password.")


def start_session(user: User) -> User:
    """Record a new session of the account (a log-in); the user, with it as ``session_token``.
    Beyond MAX_SESSIONS the oldest ends."""
    token = secrets.token_hex(8)
    user_id = user.id
    with store.write_transaction():
        row = db.session.scalar(select(User).where(User.id == user_id).with_for_update())
        row.session_tokens = " ".join([*row.session_tokens.split()[-(MAX_SESSIONS - 1):], token])
    row.session_token = token
    return row


def end_session(user_id: int, token) -> None:
    """Log-out: this session's cookies, and any copy of them, no longer log anyone in."""
    with store.write_transaction():
        row = db.session.scalar(select(User).where(User.id == user_id).with_for_update())
        if row is not None:
            row.session_tokens = " ".join(t for t in row.session_tokens.split() if t != token)


def end_all_sessions(user_id: int) -> None:
    """"Log out everywhere": every device of the account must log in again."""
    with store.write_transaction():
        db.session.execute(update(User).where(User.id == user_id).values(session_tokens=""))


def _require_password(user: User, password) -> None:
    if user.is_guest:   # no password yet: the session alone is the key
        return
    if not (_is_password(password) and user.is_active
            and check_password_hash(user.password_hash, password)):
        raise ServiceError(403, "wrong_password", "Wrong password.")


def change_password(user: User, old_password, new_password) -> User:
    """Every other session of the account ends with it (see models.session_key). A guest
    gives a first password with no old one."""
    _require_password(user, old_password)
    password_hash = _hash(_new_password(new_password, user.name))
    user_id, token = user.id, user.session_token or ""
    with store.write_transaction():
        db.session.execute(update(User).where(User.id == user_id)
                           .values(password_hash=password_hash, session_tokens=token))
        # Signed out everywhere, told nothing there either (this page subscribes again).
        db.session.execute(delete(PushSubscription).where(PushSubscription.user_id == user_id))
    changed = db.session.get(User, user_id)
    changed.session_token = token
    return changed


def delete_account(user: User, password, now: float) -> None:
    """Sign out everywhere, free the seats of waiting tables and the name.

    The row stays (disabled, its name freed): finished games keep the name as text,
    and a fresh account never gets its id, which old cookies still name.
    """
    _require_password(user, password)
    user_id = user.id
    with store.write_transaction():
        me = db.session.scalar(select(User).where(User.id == user_id).with_for_update())
        tables = db.session.scalars(
            select(Table).join(Seat, Seat.table_id == Table.id).where(Seat.user_id == user_id)
            .with_for_update()).unique().all()
        for table in tables:
            seat = seat_of(table, user_id)
            if table_status(table) == "lobby":
                _unseat(table, seat)
            elif table.host_user_id == user_id:  # seat kept in its game; hosting passes on
                table.host_user_id = next_host(table, user_id)
                table.lobby_rev += 1
        db.session.execute(delete(Spectator).where(Spectator.user_id == user_id))  # watches nothing now
        db.session.execute(delete(PushSubscription).where(PushSubscription.user_id == user_id))  # and is told nothing
        me.name_key = deleted_name_key(user_id)
        me.password_hash = DELETED_HASH
        me.session_tokens = ""


def find_user(name) -> User:
    user = db.session.scalar(select(User).where(User.name_key == " ".join(str(name).split()).casefold()))
    if user is None:
        raise ServiceError(404, "user_not_found", "No account has this name.")
    return user


def disable_user(name) -> User:
    """An operator's decision: the account cannot log in, and its sessions stop working."""
    user = find_user(name)
    with store.write_transaction():
        user = db.session.get(User, user.id)
        if user.is_active:
            user.password_hash = LOCKED + user.password_hash
            user.session_tokens = ""
            for table in db.session.scalars(select(Table).where(Table.host_user_id == user.id).with_for_update()):
                table.host_user_id = next_host(table, user.id)  # someone must still be able to end it
                table.lobby_rev += 1
    return user


def list_users() -> list[User]:
    return list(db.session.scalars(select(User).order_by(User.id)))


# ---------------------------------------------------------------- tables (lobby)

def _locked_table(table_id: str) -> Table:
    table = store.lock_table(table_id) if isinstance(table_id, str) else None
    if table is None:
        raise ServiceError(404, "table_not_found", "No such table.")
    return table


def seat_of(table: Table, user_id: int) -> Seat | None:
    return next((s for s in table.seats if s.user_id == user_id), None)


def next_host(table: Table, leaving_user_id: int) -> int | None:
    """Who hosts the table after ``leaving_user_id``: the first seated (in join order) whose
    account can still log in and who has not left its game, so that someone can always end
    or reopen it; None if nobody can."""
    left = set(store.load_game(table.current_game).left) if table.current_game is not None else set()
    return next((s.user_id for s in table.seats
                 if s.user_id != leaving_user_id and s.user.is_active and s.number not in left), None)


def _require_host(table: Table, user: User) -> None:
    if seat_of(table, user.id) is None:
        raise ServiceError(403, "not_seated", "You are not seated at this table.")
    if table.host_user_id != user.id:
        raise ServiceError(403, "not_host", "Only the host can do this.")


def _require_lobby(table: Table) -> None:
    status = table_status(table)
    if status != "lobby":
        raise ServiceError(409, "game_" + status, "The game has already started.")


def _seat(table: Table, user: User, now: float) -> Seat:
    number = max((s.number for s in table.seats), default=0) + 1
    seat = Seat(user_id=user.id, number=number, joined_at=now, last_seen=now)
    table.seats.append(seat)
    # A spectator who sits down is a player now, no longer counted as watching.
    db.session.execute(delete(Spectator).where(Spectator.table_id == table.id, Spectator.user_id == user.id))
    return seat


def create_table(user: User, name, now: float) -> Table:
    name = clean_name(name, TABLE_NAME_MAX) if name not in (None, "") else f"Table de {user.name}"[:TABLE_NAME_MAX]
    with store.write_transaction():
        # The account's row, locked: two creations at once (PostgreSQL) count one after the other.
        db.session.execute(select(User.id).where(User.id == user.id).with_for_update())
        hosted = db.session.scalar(select(func.count(Table.id)).where(
            Table.host_user_id == user.id, Table.current_game_id.is_(None)))
        if hosted:
            raise ServiceError(409, "too_many_tables", "You already host a table that is waiting for players.")
        code = random_code()
        while db.session.scalar(select(Table.id).where(Table.code == code)):
            code = random_code()
        table = Table(code=code, name=name, host_user_id=user.id, created_at=now,
                      settings=json.dumps(engine.default_settings()))
        db.session.add(table)
        _seat(table, user, now)
    return table


def join_table(table_id, user: User, now: float) -> Table:
    with store.write_transaction():
        table = _locked_table(table_id)
        if seat_of(table, user.id) is not None:
            return table  # joining twice is harmless
        _require_lobby(table)
        if len(table.seats) >= MAX_PLAYERS:
            raise ServiceError(409, "table_full", f"This table already has {MAX_PLAYERS} players.")
        _seat(table, user, now)
        if table.host_user_id is None:
            table.host_user_id = user.id
        table.lobby_rev += 1
    return table


def _unseat(table: Table, seat: Seat) -> None:
    if table.host_user_id == seat.user_id:
        # The host passes to the player who joined next after them (seats are in join order).
        table.host_user_id = next_host(table, seat.user_id)
    table.seats.remove(seat)
    table.lobby_rev += 1


def leave_table(table_id, user: User, now: float) -> Table:
    with store.write_transaction():
        table = _locked_table(table_id)
        seat = seat_of(table, user.id)
        if seat is None:
            raise ServiceError(403, "not_seated", "You are not seated at this table.")
        if table_status(table) != "running":
            _unseat(table, seat)
            return table
    # A running game: the seat stays (the game names it) but plays no more.
    _play(table_id, user.id, now, lambda game, number: engine.leave(game, number, now), {"leave": True})
    with store.write_transaction():
        table = _locked_table(table_id)
        if table.host_user_id == user.id:
            # The host passes to the next player still playing, so someone can end the game.
            table.host_user_id = next_host(table, user.id) or user.id
            table.lobby_rev += 1
    return table


def end_game(table_id, user: User, now: float) -> Table:
    """The host ends a running game for everyone: no winner, every card shown."""
    table = db.session.get(Table, table_id) if isinstance(table_id, str) else None
    if table is None:
        raise ServiceError(404, "table_not_found", "No such table.")
    _require_host(table, user)
    if table_status(table) != "running":
        raise ServiceError(409, "game_not_running", "No game is running at this table.")
    _play(table_id, user.id, now, lambda game, seat: engine.stop(game, now, "stopped"), {"stop": "stopped"})
    db.session.expire_all()  # the game row was written on a raw connection
    return db.session.get(Table, table_id)


def remove_seat(table_id, user: User, number, now: float) -> Table:
    with store.write_transaction():
        table = _locked_table(table_id)
        _require_host(table, user)
        _require_lobby(table)
        seat = next((s for s in table.seats if s.number == number), None) if type(number) is int else None
        if seat is None:
            raise ServiceError(404, "seat_not_found", "Nobody sits there.")
        if seat.user_id == user.id:
            raise ServiceError(400, "cannot_remove_self", "Leave the table instead.")
        _unseat(table, seat)
    return table


def is_public(table: Table) -> bool:
    return db.session.get(PublicTable, table.id) is not None


def set_public(table_id, user: User, public, now: float) -> Table:
    """List a waiting table for everyone, or not (the default: joined by link, code or QR)."""
    if not isinstance(public, bool):
        raise ServiceError(400, "bad_request", "\"public\" must be true or false.")
    with store.write_transaction():
        table = _locked_table(table_id)
        _require_host(table, user)
        _require_lobby(table)
        listed = db.session.get(PublicTable, table.id)
        if public and listed is None:
            db.session.add(PublicTable(table_id=table.id, since=now))
        elif not public and listed is not None:
            db.session.delete(listed)
        table.lobby_rev += 1
    return table


def renew_screen_link(table_id, user: User, now: float) -> Table:
    """A new key for the room's screen (web/screen.py); whoever held the old link sees no more."""
    with store.write_transaction():
        table = _locked_table(table_id)
        _require_host(table, user)
        table.screen_rev += 1
        table.lobby_rev += 1  # the host's view carries the new link
    return table


def join_by_code(code, user: User, now: float) -> Table | None:
    """Seat a player who arrived by a table's link; None if there is no such table.

    A table that has started or is full leaves the player unseated: its page says why.
    """
    code = _table_code(code)
    table_id = db.session.scalar(select(Table.id).where(Table.code == code)) if code else None
    if table_id is None:
        return None
    try:
        return join_table(table_id, user, now)
    except ServiceError:
        return db.session.get(Table, table_id)


def update_settings(table_id, user: User, patch, now: float) -> Table:
    with store.write_transaction():
        table = _locked_table(table_id)
        _require_host(table, user)
        _require_lobby(table)
        if not isinstance(patch, dict):
            raise ServiceError(400, "invalid_settings", "Settings must be an object.")
        table.settings = json.dumps(engine.merge_settings(json.loads(table.settings), patch))
        table.lobby_rev += 1
    return table


def _close(table: Table) -> None:
    """Delete a table with its seats, its running game, its spectators and its public
    listing (rows that name it: foreign keys on PostgreSQL). Its finished games stay,
    detached from it (past games, see history.py; `games prune` removes them)."""
    table.current_game_id = None
    db.session.flush()
    running = select(Game.id).where(Game.table_id == table.id, Game.status != "ended").scalar_subquery()
    db.session.execute(delete(GamePlayer).where(GamePlayer.game_id.in_(running)))
    db.session.execute(delete(Game).where(Game.table_id == table.id, Game.status != "ended"))
    db.session.execute(update(Game).where(Game.table_id == table.id).values(table_id=None))
    db.session.execute(delete(Spectator).where(Spectator.table_id == table.id))
    db.session.execute(delete(PublicTable).where(PublicTable.table_id == table.id))
    db.session.delete(table)


def end_table(id_or_code: str) -> tuple[str, str]:
    """An operator's decision: the table, its seats and its games are gone, even mid-game.
    Returns the table's id and code."""
    with store.write_transaction():
        table = db.session.scalar(select(Table).where(
            or_(Table.id == id_or_code, Table.code == id_or_code.strip().upper())).with_for_update())
        if table is None:
            raise ServiceError(404, "table_not_found", "No table has this id or code.")
        ended = table.id, table.code
        _close(table)
    return ended


def _untouched_since(cutoff: float):
    """Waiting tables made before ``cutoff`` where nobody joined or was seen since."""
    recent = select(Seat.id).where(Seat.table_id == Table.id,
                                   or_(Seat.joined_at >= cutoff, Seat.last_seen >= cutoff)).exists()
    return (Table.current_game_id.is_(None), Table.created_at < cutoff, ~recent)


def clear_stale_tables(now: float) -> int:
    """Delete the waiting tables nobody has touched for WAITING_TABLE_TTL; how many."""
    cutoff = now - WAITING_TABLE_TTL
    stale = db.session.scalars(select(Table.id).where(*_untouched_since(cutoff))).all()
    db.session.rollback()  # end the read before the writes
    cleared = 0
    for table_id in stale:
        with store.write_transaction():  # judged again under the lock: someone may have come back
            table = db.session.scalar(select(Table).where(Table.id == table_id, *_untouched_since(cutoff))
                                      .with_for_update())
            if table is not None:
                _close(table)
                cleared += 1
    return cleared


def list_tables() -> list[Table]:
    return list(db.session.scalars(select(Table).order_by(Table.created_at)))


def start_game(table_id, user: User, now: float, time_scale: float) -> Table:
    with store.write_transaction():
        table = _locked_table(table_id)
        _require_host(table, user)
        _require_lobby(table)
        seats = list(table.seats)
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise ServiceError(409, "bad_player_count",
                               f"A game needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
        for number, seat in enumerate(seats, start=1):
            seat.number = number  # no gaps once the game runs
        deal = {"names": [s.user.name for s in seats], "settings": json.loads(table.settings),
                "seed": secrets.randbits(63), "now": now, "time_scale": time_scale}
        game = engine.new_game(deal["names"], deal["settings"], deal["seed"], now, time_scale=time_scale)
        row = store.new_game_row(table, game, now, deal)
        db.session.add_all(GamePlayer(game_id=row.id, seat=s.number, user_id=s.user_id) for s in seats)
        table.current_game_id = row.id
        table.lobby_rev += 1
    push.step_began(table.id, game, now)
    return table


def reopen_table(table_id, user: User, now: float) -> Table:
    """After the end, the host brings the same table and players back to the lobby."""
    with store.write_transaction():
        table = _locked_table(table_id)
        _require_host(table, user)
        if table_status(table) != "ended":
            raise ServiceError(409, "game_not_ended", "The game is not over.")
        left = set(store.load_game(table.current_game).left)
        for seat in [s for s in table.seats if (s.number in left or not s.user.is_active) and s.user_id != user.id]:
            _unseat(table, seat)  # who left the game, or whose account is gone, is not brought back
        table.current_game_id = None
        table.lobby_rev += 1
    return table


# ---------------------------------------------------------------- playing

# A move reads the game, applies the rules and writes only if nobody moved the game in
# between (store.save_if_unchanged); otherwise it starts again from the new state.
MAX_ATTEMPTS = 50

# Moves of one game queue here within a process, so only moves from different
# processes can collide and be redone. Striped: bounded memory; two games sharing a
# stripe wait at most one write for each other.
_GAME_STRIPES = [threading.Lock() for _ in range(64)]


def _one_move_at_a_time(game_id: int) -> threading.Lock:
    return _GAME_STRIPES[game_id % len(_GAME_STRIPES)]


class _Move:
    """``note``: the move as the game's record keeps it (history.replay plays it again)."""

    __slots__ = ("change", "note", "seat", "now", "done", "error")

    def __init__(self, change, note: dict, seat: int, now: float):
        self.change, self.note, self.seat, self.now, self.done, self.error = change, note, seat, now, False, None


class _PendingMoves:
    """Moves waiting for their game, per game id, in the order they arrived.

    Eighteen votes arrive within a second or two. Whoever holds the game's stripe
    plays every move waiting for that game on one decoded copy, each judged by the
    rules in turn exactly as if it had come alone, and writes the game once: one
    read, one encode and one write for the burst instead of one each.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._by_game: dict[int, list[_Move]] = {}

    def add(self, game_id: int, move: _Move) -> None:
        with self._lock:
            self._by_game.setdefault(game_id, []).append(move)

    def waiting(self, game_id: int) -> list[_Move]:
        with self._lock:
            return list(self._by_game.get(game_id, ()))

    def settle(self, game_id: int, moves: list[_Move], errors: list) -> None:
        with self._lock:
            left = [m for m in self._by_game.get(game_id, ()) if m not in moves]
            if left:
                self._by_game[game_id] = left
            else:
                self._by_game.pop(game_id, None)
        for move, error in zip(moves, errors):
            move.error, move.done = error, True


_pending = _PendingMoves()



def _play(table_id, user_id: int, now: float, change, note: dict, refuse_early=None) -> None:
    """Play ``change(game, seat)`` on the table's game, with the moves that arrived with it;
    ``note``: what replays it (with the seat and ``now``), kept in the game's record.

    ``refuse_early(game, seat)`` may refuse for good on the decoded game of this
    process (read only), without waiting for or writing the game: half the acts of a
    busy server come after their step ended.
    """
    found = store.seat_and_game(table_id, user_id) if isinstance(table_id, str) else None
    if found is None:
        raise ServiceError(404, "table_not_found", "No such table.")
    game_id, seat_number, rev = found
    if seat_number is None:
        raise ServiceError(403, "not_seated", "You are not seated at this table.")
    if game_id is None:
        raise ServiceError(409, "game_not_started", "The game has not started.")
    known = store.game_cache.get(game_id, rev) if refuse_early else None
    if known is not None:
        refuse_early(known, seat_number)
    move = _Move(change, note, seat_number, now)
    _pending.add(game_id, move)
    with _one_move_at_a_time(game_id):
        if not move.done:  # else another thread played it with its own
            _play_waiting_moves(game_id)
    if move.error is not None:
        raise move.error


def _play_waiting_moves(game_id: int) -> None:
    """Play the moves waiting for ``game_id`` on the game as it is now, and save it once.

    Every move waiting is settled, whatever happens: one that fails otherwise than by the
    rules (a bug, a state that cannot be saved) fails alone, with its own error, and the
    moves that came with it are played again, each on its own. Nothing stays queued to
    fail every later move of the game.
    """
    moves = _pending.waiting(game_id)
    try:
        errors = _play_together(game_id, moves)
    except Exception as error:  # noqa: BLE001 - raised in the move's own request
        errors = [error] if len(moves) == 1 else [_play_alone(game_id, move) for move in moves]
    _pending.settle(game_id, moves, errors)


def _play_alone(game_id: int, move: _Move) -> Exception | None:
    try:
        return _play_together(game_id, [move])[0]
    except Exception as error:  # noqa: BLE001 - raised in the move's own request
        return error


# What a move's change raises to refuse it, before changing anything (anything else: a bug).
_REFUSALS = (engine.IllegalAction, ServiceError)


def _announce_step(table_id: str, game, now: float, step_before: int) -> None:
    """After a saved write: "your turn" pushes when it began a step. The write is done, so a
    failing push is logged and never undoes or replays the moves."""
    if game.step_seq == step_before:
        return
    try:
        push.step_began(table_id, game, now)
    except Exception:  # noqa: BLE001 - the moves are saved; the push is a courtesy
        log.exception("push after a step began failed (table %s)", table_id)


def _play_together(game_id: int, moves: list[_Move]) -> list[Exception | None]:
    """Each move's refusal (None: played), the game saved once; raises if a move or the
    save fails otherwise than by the rules."""
    now = moves[0].now
    for _ in range(MAX_ATTEMPTS):
        read = store.read_game(game_id)
        game = store.load_for_update(read)
        step_before = game.step_seq
        # A step past its deadline times out first (play goes on even if no scheduler
        # runs), in the same write: a move meant for it is then too late.
        timed_out = game.status == "running" and game.deadline is not None and game.deadline <= now \
            and engine.advance(game, now)
        errors = []
        record = [{"advance": now}] if timed_out else []
        for move in moves:
            lines = len(game.chat)  # a message is recorded by its place, not its text again
            try:
                move.change(game, move.seat)
                errors.append(None)
                record.append({"seat": move.seat, **move.note, "now": move.now}
                              | ({"line": lines} if "chat" in move.note else {}))
            except _REFUSALS as error:
                errors.append(error)
        if all(errors) and not timed_out:  # nothing to write: refused by the game as it stands?
            if store.game_rev(game_id) == read.rev:
                return errors
        elif store.save_if_unchanged(read, game, record):
            _announce_step(read.table_id, game, now, step_before)
            return errors
        # The game moved on meanwhile (another process): judge them all again on the new state.
    return [ServiceError(503, "busy", "The game is too busy right now; try again.")] * len(moves)


def act(table_id, user_id: int, body: dict, now: float) -> None:
    _play(table_id, user_id, now, lambda game, seat: engine.apply(game, seat, body, now), {"body": body},
          lambda game, seat: engine.check_request(game, seat, body, past_only=True))


def chat(table_id, user_id: int, channel, text, now: float) -> None:
    _play(table_id, user_id, now, lambda game, seat: engine.post_chat(game, seat, channel, text, now),
          {"chat": channel})


def advance_game(game_id: int, now: float) -> bool:
    """Resolve the time-out of a game's step if its deadline has passed. Idempotent.

    Written only if nobody moved the game since it was read, so a step times out
    exactly once however many workers and polls try at the same moment.
    """
    for _ in range(MAX_ATTEMPTS):
        with _one_move_at_a_time(game_id):
            read = store.read_game(game_id)
            if read is None or read.status != "running" or read.deadline is None or read.deadline > now:
                return False  # someone else advanced it first, or it is not due
            game = store.load_for_update(read)
            step_before = game.step_seq
            if not engine.advance(game, now):
                return False
            if store.save_if_unchanged(read, game, [{"advance": now}]):
                _announce_step(read.table_id, game, now, step_before)
                return True
    return False


def advance_due(now: float, limit: int = 100) -> int:
    """Advance every game whose step deadline has passed; returns how many moved on."""
    due = db.session.scalars(
        select(Game.id).where(Game.status == "running", Game.deadline <= now)
        .order_by(Game.deadline).limit(limit)
    ).all()
    db.session.rollback()  # end the read before the writes
    advanced = 0
    for game_id in due:
        try:
            advanced += advance_game(game_id, now)
        except Exception:  # one broken game must not stop the others
            log.exception("advancing game %s failed", game_id)
    return advanced


# ---------------------------------------------------------------- spectators

def spectators_allowed(table: Table) -> bool:
    return bool(json.loads(table.settings).get("options", {}).get("spectators"))


def watch(table_id: str, user_id: int, now: float) -> None:
    """Record that an account not seated watches this table, at most once per PRESENCE_WRITE_EVERY."""
    seen = db.session.scalar(select(Spectator.last_seen).where(
        Spectator.table_id == table_id, Spectator.user_id == user_id))
    if seen is not None and now - seen < PRESENCE_WRITE_EVERY:
        return
    try:
        with store.write_transaction(tables=(table_id,)):
            changed = db.session.execute(update(Spectator).where(
                Spectator.table_id == table_id, Spectator.user_id == user_id).values(last_seen=now)).rowcount
            if not changed:
                db.session.add(Spectator(table_id=table_id, user_id=user_id, last_seen=now))
    except IntegrityError:  # another of this account's polls inserted it first
        db.session.rollback()


def spectator_count(table_id: str, now: float) -> int:
    return db.session.scalar(select(func.count(Spectator.id)).where(
        Spectator.table_id == table_id, Spectator.last_seen >= now - WATCHING_WITHIN)) or 0
