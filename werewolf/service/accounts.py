"""Accounts: registration, log-in and sessions, passwords, deletion, the operator's disabling."""
import secrets

from flask import current_app
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from .. import database, passwords
from ..cache import LRU
from ..engine import text as text_rules
from ..extensions import db
from ..models import (
    DELETED_HASH,
    GUEST,
    LOCKED,
    MAX_SESSIONS,
    PushSubscription,
    Seat,
    Spectator,
    Table,
    User,
    deleted_name_key,
)
from .inputs import ServiceError, clean_name, table_code
from .tables import next_host, seat_of, table_status, unseat

NAME_MAX, PASSWORD_MIN, PASSWORD_MAX = 24, 8, 200
REGISTRATION_MODES = ("open", "closed", "invite")


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


def check_registration_open(mode: str, invite_code) -> None:
    """``mode`` is WEREWOLF_REGISTRATION; in "invite" mode only an existing table's code lets one in."""
    if mode == "closed":
        raise ServiceError(403, "registration_closed", "Registration is closed on this server.")
    if mode == "invite":
        code = table_code(invite_code)
        if not code or db.session.scalar(select(Table.id).where(Table.code == code)) is None:
            raise ServiceError(403, "invite_required",
                               "Registration needs a table's link or code on this server.")



def register(name, password, now: float, guest: bool = False) -> User:
    """A new account; ``guest``: with no password (see models.GUEST), protected later."""
    name = clean_name(name, NAME_MAX)
    password_hash = GUEST + secrets.token_hex(16) if guest else _hash(_new_password(password, name))
    try:
        with database.write_transaction():
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
    return _DUMMY_HASHES.get_or_make(method, lambda: generate_password_hash(secrets.token_hex(16), method))


_DUMMY_HASHES = LRU(8)  # by hashing method


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
    with database.write_transaction():
        row = db.session.scalar(select(User).where(User.id == user_id).with_for_update())
        row.session_tokens = " ".join([*row.session_tokens.split()[-(MAX_SESSIONS - 1):], token])
    row.session_token = token
    return row


def end_session(user_id: int, token) -> None:
    """Log-out: this session's cookies, and any copy of them, no longer log anyone in."""
    with database.write_transaction():
        row = db.session.scalar(select(User).where(User.id == user_id).with_for_update())
        if row is not None:
            row.session_tokens = " ".join(t for t in row.session_tokens.split() if t != token)


def end_all_sessions(user_id: int) -> None:
    """"Log out everywhere": every device of the account must log in again."""
    with database.write_transaction():
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
    with database.write_transaction():
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
    with database.write_transaction():
        me = db.session.scalar(select(User).where(User.id == user_id).with_for_update())
        tables = db.session.scalars(
            select(Table).join(Seat, Seat.table_id == Table.id).where(Seat.user_id == user_id)
            .with_for_update()).unique().all()
        for table in tables:
            seat = seat_of(table, user_id)
            if table_status(table) == "lobby":
                unseat(table, seat)
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
    with database.write_transaction():
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

