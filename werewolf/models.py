"""Database rows. The engine state of a game is one JSON column of ``Game``;
``werewolf.store`` is the only code that turns it into an engine game and back."""
import functools
import hashlib
import secrets

from flask_login import UserMixin
from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db

# Short table codes avoid look-alike characters (I/1, O/0) so they can be read aloud.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5


def random_id() -> str:
    return secrets.token_hex(8)


def random_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


# A password hash starting with this can match no password (as in /etc/shadow): the
# account is disabled by an operator ("!" + its hash) or deleted ("!deleted").
LOCKED = "!"
# A guest's account (joined by a table's link with only a name): no password opens it, so
# only its own sessions do, until its owner protects it with one. Each guest's mark is its
# own, so that the session key drawn from it (session_key) is too.
GUEST = "guest$"
DELETED_HASH = LOCKED + "deleted"
# Live sessions an account keeps (logged in on a phone, a laptop...): a new one beyond it
# ends the oldest.
MAX_SESSIONS = 20


@functools.lru_cache(maxsize=4096)  # every poll checks it
def session_key(password_hash: str) -> str:
    """The part of a session (and remember) cookie that must match the account's hash.

    It changes with the hash: a new password, a disabled or a deleted account signs
    out every session made before. Not secret (cookies are signed, not encrypted):
    a digest of the salted hash tells nothing about the password.
    """
    return hashlib.blake2b(password_hash.encode(), digest_size=8).hexdigest()


def deleted_name_key(user_id: int) -> str:
    """What a deleted account's ``name_key`` becomes, freeing its name: DEL is not printable,
    so no registered name can ever be this."""
    return f"\x7f{user_id}"


class User(UserMixin, db.Model):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # Names are unique regardless of case: "Alice" and "alice" are one account.
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[float]
    # The server's record of the account's live sessions, space-separated, oldest first: each
    # log-in adds one, its log-out removes it, "log out everywhere" clears them all. A session
    # or remember cookie names one (``get_id``) and is good only while it is here.
    session_tokens: Mapped[str] = mapped_column(Text, default="", server_default="")
    # Which of them this request's session is: set at log-in and by the user loader.
    session_token = None

    @property
    def is_active(self) -> bool:  # Flask-Login refuses to log in an inactive user
        return not self.password_hash.startswith(LOCKED)

    @property
    def is_guest(self) -> bool:
        return self.password_hash.startswith(GUEST)

    @property
    def status(self) -> str:
        if self.password_hash == DELETED_HASH:
            return "deleted"
        return "active" if self.is_active else "disabled"

    def get_id(self) -> str:
        """What Flask-Login keeps in the session and the remember cookie (its "alternative
        token"): "id:key.session", the key checked against the password's hash and the
        session against ``session_tokens`` (web/session.py)."""
        return f"{self.id}:{session_key(self.password_hash)}.{self.session_token or ''}"


class Table(db.Model):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=random_id)
    code: Mapped[str] = mapped_column(String(CODE_LENGTH), unique=True)
    name: Mapped[str] = mapped_column(String(60))
    host_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    settings: Mapped[str] = mapped_column(Text)  # JSON, validated by engine.merge_settings
    # Bumped by every lobby change (seats, host, settings, start, new game): part of the ETag.
    lobby_rev: Mapped[int] = mapped_column(default=0)
    # Bumped when the host renews the room screen's link: the older keys stop working (web/screen.py).
    screen_rev: Mapped[int] = mapped_column(default=0, server_default="0")
    current_game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", use_alter=True, name="fk_tables_current_game"))
    created_at: Mapped[float]

    seats: Mapped[list["Seat"]] = relationship(
        back_populates="table", order_by="Seat.joined_at, Seat.id", cascade="all, delete-orphan"
    )
    current_game: Mapped["Game | None"] = relationship(foreign_keys=[current_game_id])


class Seat(db.Model):
    """A user seated at a table. ``number`` is the seat in the game (1..n, renumbered at the start)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    number: Mapped[int]
    joined_at: Mapped[float]
    last_seen: Mapped[float] = mapped_column(default=0.0)

    table: Mapped[Table] = relationship(back_populates="seats")
    user: Mapped[User] = relationship()


class Game(db.Model):
    """A game, running or finished. A finished one stays when its table moves on (a new
    game, the table cleared out): ``table_id`` is then None, ``table_name`` still says it."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_due", "status", "deadline"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), index=True)
    status: Mapped[str] = mapped_column(String(10))  # engine status: "running" | "ended"
    deadline: Mapped[float | None]  # POSIX seconds of the current step's limit
    rev: Mapped[int] = mapped_column(default=1)  # +1 at every save of the state
    state: Mapped[str] = mapped_column(Text)  # engine.Game.to_dict() as JSON
    created_at: Mapped[float]
    # What the replay is computed from (werewolf/history.py): one JSON line for the deal
    # (names, settings, seed, start), then one per input that changed the game. None for
    # a game started before it was recorded (its end is kept, not its replay).
    moves: Mapped[str | None] = mapped_column(Text)
    table_name: Mapped[str | None] = mapped_column(String(60))
    host_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # the table's host at the start
    # The host's read-only link to the end and the public replay; None: not shared.
    share_key: Mapped[str | None] = mapped_column(String(32), unique=True)


class GamePlayer(db.Model):
    """Who sat in which seat of a game: what makes a past game mine."""

    __tablename__ = "game_players"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)


class Spectator(db.Model):
    """An account not seated that watches a table (option ``spectators``): when it last polled."""

    __tablename__ = "spectators"
    __table_args__ = (UniqueConstraint("table_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    last_seen: Mapped[float]


class PublicTable(db.Model):
    """A waiting table its host listed for everyone; the others are joined by link, code or QR."""

    __tablename__ = "public_tables"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    since: Mapped[float]


class PushSubscription(db.Model):
    """A browser's Web Push subscription (the W3C Push API's endpoint and keys), so "your turn"
    reaches a phone whose page is closed (werewolf/push.py). ``lang``: the page's language when it
    subscribed, the notification's words."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(40))
    lang: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[float]
