"""The rows of the game: reading them, the state poll's one read, and the optimistic write.

This is the only module that turns an engine game into a ``Game`` row and back (its stored
form: codec.py). Decoded games are kept in a small per-process cache keyed by (game id,
rev), so a poll that finds the same ``rev`` never decodes JSON again.

A move of the game is written optimistically (``read_game`` then
``save_if_unchanged``): decoding, the rules and encoding happen outside any lock,
and the write transaction only swaps the state if the row's ``rev`` is still the
one that was read. SQLite has one write lock for the whole file; holding it for a
single UPDATE instead of ~3 ms of Python (much longer when the worker's threads
compete for the GIL) is what keeps 100 tables' moves from queueing behind it.

The hottest reads and the write are ``text()`` statements, compiled by SQLAlchemy for the
driver and run on a DB-API connection of their own (database.driver_cursor): the ORM, and
even Core, cost more than the query itself there.
"""
from typing import NamedTuple

from sqlalchemy import bindparam, select, text, update

from . import changes, database
from .cache import LRU
from .codec import decode, encode, moves_text
from .extensions import db
from .models import Game, Seat, Table


def lock_table(table_id: str) -> Table | None:
    return db.session.execute(
        select(Table).where(Table.id == table_id).with_for_update()
    ).scalar_one_or_none()


class _GameCache:
    """Decoded engine games by game id, each with the rev it was decoded from.

    Cached games are shared between threads and must never be mutated: writers
    decode their own copy (``load_for_update``) and hand it over only after saving.
    """

    def __init__(self, size: int = 256):
        self._games = LRU(size)

    def get(self, game_id: int, rev: int):
        found = self._games.get(game_id)
        return found[1] if found is not None and found[0] == rev else None

    def put(self, game_id: int, rev: int, game) -> None:
        self._games.put(game_id, (rev, game), keep=lambda current: current[0] > rev)  # a newer one is known

    def clear(self) -> None:
        self._games.clear()


game_cache = _GameCache()


def _decode(row):
    """The engine game of a stored row (a Game or a GameRead)."""
    return decode(row.state)


def load_game(row: Game):
    """The engine game of ``row`` for reading only (shared, do not mutate)."""
    game = game_cache.get(row.id, row.rev)
    if game is None:
        game = _decode(row)
        game_cache.put(row.id, row.rev, game)
    return game


def load_for_update(row):
    """A private copy of the engine game of ``row`` (a Game or a GameRead), free to mutate."""
    return _decode(row)


class GameRead(NamedTuple):
    id: int
    rev: int
    status: str
    deadline: float | None
    state: str
    table_id: str


def query(sa_engine, statement, **params) -> list[tuple]:
    """The rows of one read-only ``statement`` (a ``text()``), on a DB-API connection of its own."""
    with database.driver_cursor(sa_engine) as cursor:
        return database.execute(cursor, sa_engine, statement, params).fetchall()


_READ_GAME = text("SELECT id, rev, status, deadline, state, table_id FROM games WHERE id = :game_id")
_GAME_REV = text("SELECT rev FROM games WHERE id = :game_id")


def read_game(game_id: int, sa_engine=None) -> GameRead | None:
    """The game's row as it is now, without locking it (``sa_engine``: outside an app context)."""
    rows = query(sa_engine or db.engine, _READ_GAME, game_id=game_id)
    return GameRead(*rows[0]) if rows else None


def game_rev(game_id: int) -> int | None:
    rows = query(db.engine, _GAME_REV, game_id=game_id)
    return rows[0][0] if rows else None


# ---------------------------------------------------------------- the state poll's reads


class SeatRow(NamedTuple):
    user_id: int
    number: int
    last_seen: float
    id: int
    password_hash: str  # of the seated user: their session's key must match it
    name: str
    session_tokens: str  # the seated user's live sessions: theirs must be one


class PollRead(NamedTuple):
    """A table as every poll of it sees it, in one statement (one snapshot)."""
    code: str
    name: str
    settings: str
    host_user_id: int | None
    public: bool
    lobby_rev: int
    screen_rev: int  # which key of the room's screen holds
    game_id: int | None
    game_rev: int | None
    game_status: str | None
    deadline: float | None
    spectators: int  # accounts not seated that polled since ``watching_since``
    seats: list[SeatRow]


_POLL_READ = text(
    "SELECT s.user_id, s.number, s.last_seen, s.id, u.password_hash, u.name, u.session_tokens,"
    " t.code, t.name, t.settings, t.host_user_id,"
    " (SELECT COUNT(*) FROM public_tables p WHERE p.table_id = t.id), t.lobby_rev, t.screen_rev,"
    " t.current_game_id,"
    " g.rev, g.status, g.deadline,"
    # Not correlated with the row (the table is a parameter): counted once, not once per seat.
    " (SELECT COUNT(*) FROM spectators v WHERE v.table_id = :table_id AND v.last_seen >= :watching_since)"
    " FROM seats s JOIN tables t ON t.id = s.table_id JOIN users u ON u.id = s.user_id"
    " LEFT JOIN games g ON g.id = t.current_game_id"
    " WHERE s.table_id = :table_id ORDER BY s.joined_at, s.id"
)


def read_table_for_poll(sa_engine, table_id: str, watching_since: float) -> PollRead | None:
    """The table, its seats (with their users' names, password hashes and live sessions),
    its game's revision and how many spectators polled since ``watching_since``: the same
    for every viewer of the table, so that it can be kept (``web.poll.read_table``).

    One statement, one snapshot. None when the table does not exist or has nobody seated.
    """
    rows = query(sa_engine, _POLL_READ, table_id=table_id, watching_since=watching_since)
    if not rows:
        return None
    first = rows[0]
    seats = [SeatRow(*r[:7]) for r in rows]
    return PollRead(*first[7:11], bool(first[11]), *first[12:], seats)


_SESSION_CHECK = text("SELECT password_hash, session_tokens FROM users WHERE id = :user_id")


def session_check_of(sa_engine, user_id: int) -> tuple[str | None, str | None]:
    """The account's password hash and live sessions (None, None without such an account)."""
    rows = query(sa_engine, _SESSION_CHECK, user_id=user_id)
    return rows[0] if rows else (None, None)


_SEAT_AND_GAME = text(
    "SELECT t.current_game_id, s.number, g.rev FROM tables t"
    " LEFT JOIN seats s ON s.table_id = t.id AND s.user_id = :user_id"
    " LEFT JOIN games g ON g.id = t.current_game_id WHERE t.id = :table_id")


def seat_and_game(table_id: str, user_id: int):
    """(current game id, the user's seat number, game rev) of a table, each None if absent;
    None without such a table. Ends the session's read transaction first: the session's reads
    after the move see it, and the move waits for its locks holding no connection. Read on a
    connection of its own, as the other reads are: through the session it was a sixth of a vote's CPU."""
    db.session.rollback()
    rows = query(db.engine, _SEAT_AND_GAME, user_id=user_id, table_id=table_id)
    return rows[0] if rows else None


# Seats that left meanwhile are simply not updated.
_PRESENCE_UPDATE = (update(Seat.__table__).where(Seat.__table__.c.id == bindparam("seat_id"))
                    .values(last_seen=bindparam("seen")))


def write_presence(seen_by_seat_id: dict[int, float], tables: tuple = ()) -> None:
    """When each seat's player was last seen, all in one write transaction; ``tables``: those
    whose views change (a player shown as gone is back)."""
    # Bumps no other table: a poll's read is at most poll.READ_KEPT_FOR old, and presence is
    # shown at a 20 s grain (view.CONNECTED_WITHIN).
    with database.write_transaction(tables=tables):
        db.session.execute(_PRESENCE_UPDATE, [{"seat_id": k, "seen": v} for k, v in seen_by_seat_id.items()])


# A game recorded from its deal gets its new moves appended (NULL || text stays NULL: a
# game started before moves were recorded keeps no partial record).
_SAVE = text("UPDATE games SET state = :state, status = :status, deadline = :deadline, rev = :rev,"
             " moves = moves || :moves WHERE id = :game_id AND rev = :read_rev")


def save_if_unchanged(read: GameRead, game, moves: list[dict]) -> bool:
    """Write ``game``, the next state of ``read``, unless the row moved on since it was read;
    ``moves``: the inputs that made it from ``read`` (appended to the game's record).

    Encodes outside the lock; the write is one UPDATE guarded by the rev (atomic on
    SQLite and PostgreSQL alike) on a connection of its own: the lock is held for three
    statements, and every bit of Python run while holding it also waits for the GIL.
    False: nothing was written, read again.
    """
    params = {"state": encode(game), "status": game.status, "deadline": game.deadline, "rev": read.rev + 1,
              "moves": moves_text(moves), "game_id": read.id, "read_rev": read.rev}
    sa_engine = db.engine
    with database.writer_lock(sa_engine):
        with database.driver_cursor(sa_engine, writing=True) as cursor:
            saved = database.execute(cursor, sa_engine, _SAVE, params).rowcount == 1
            if saved and sa_engine.dialect.name == "postgresql":
                database.execute(cursor, sa_engine, database.NOTIFY, {"channel": changes.CHANNEL,
                                                                       "table_id": read.table_id})
        if saved:
            changes.of(sa_engine).bump((read.table_id,))  # after the commit, still under the lock
    if saved:
        game_cache.put(read.id, read.rev + 1, game)
    return saved


def new_game_row(table: Table, game, now: float, deal: dict) -> Game:
    """``deal``: the arguments of engine.new_game that made ``game`` (the replay's first line)."""
    row = Game(table_id=table.id, created_at=now, rev=0, status="", state="", table_name=table.name,
               host_user_id=table.host_user_id, moves=moves_text([{"deal": deal}]))
    _write(row, game)
    db.session.add(row)
    db.session.flush()  # gives row.id
    return row


def _write(row: Game, game) -> None:
    row.state = encode(game)
    row.status = game.status
    row.deadline = game.deadline
    row.rev = (row.rev or 0) + 1
