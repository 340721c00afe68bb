"""Tables: the lobby (seats, host, settings, public listing), starting and reopening a game,
closing tables, and the spectators who watch them."""
import json
import secrets

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from .. import database, engine, push, store
from ..engine import MAX_PLAYERS, MIN_PLAYERS  # the engine's limits are the one source
from ..extensions import db
from ..models import (
    Game,
    GamePlayer,
    PublicTable,
    Seat,
    Spectator,
    Table,
    User,
    random_code,
)
from .inputs import ServiceError, clean_name, table_code
from .play import play_move

TABLE_NAME_MAX = 40
PRESENCE_WRITE_EVERY = 5.0  # seconds between two presence writes of one player (web/poll.py: MAX_WAIT)
WAITING_TABLE_TTL = 24 * 3600.0  # a waiting table nobody touched for this long is cleared out
WATCHING_WITHIN = 20.0  # seconds since a spectator's last poll to be counted (RULES-VARIANTS A13)


def table_status(table: Table) -> str:
    """"lobby" without a game, else the game's own status ("running" | "ended")."""
    return table.current_game.status if table.current_game is not None else "lobby"


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


def _hosts_waiting_table(table_id, user: User) -> Table:
    """The table, locked, if ``user`` hosts it and its game has not started."""
    table = _locked_table(table_id)
    _require_host(table, user)
    _require_lobby(table)
    return table


def _seat(table: Table, user: User, now: float) -> Seat:
    number = max((s.number for s in table.seats), default=0) + 1
    seat = Seat(user_id=user.id, number=number, joined_at=now, last_seen=now)
    table.seats.append(seat)
    # A spectator who sits down is a player now, no longer counted as watching.
    db.session.execute(delete(Spectator).where(Spectator.table_id == table.id, Spectator.user_id == user.id))
    return seat


def create_table(user: User, name, now: float) -> Table:
    name = clean_name(name, TABLE_NAME_MAX) if name not in (None, "") else f"Table de {user.name}"[:TABLE_NAME_MAX]
    with database.write_transaction():
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
    with database.write_transaction():
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


def unseat(table: Table, seat: Seat) -> None:
    if table.host_user_id == seat.user_id:
        # The host passes to the player who joined next after them (seats are in join order).
        table.host_user_id = next_host(table, seat.user_id)
    table.seats.remove(seat)
    table.lobby_rev += 1


def leave_table(table_id, user: User, now: float) -> Table:
    with database.write_transaction():
        table = _locked_table(table_id)
        seat = seat_of(table, user.id)
        if seat is None:
            raise ServiceError(403, "not_seated", "You are not seated at this table.")
        if table_status(table) != "running":
            unseat(table, seat)
            return table
    # A running game: the seat stays (the game names it) but plays no more.
    play_move(table_id, user.id, now, lambda game, number: engine.leave(game, number, now), {"leave": True})
    with database.write_transaction():
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
    play_move(table_id, user.id, now, lambda game, seat: engine.stop(game, now, "stopped"), {"stop": "stopped"})
    db.session.expire_all()  # the game row was written on a raw connection
    return db.session.get(Table, table_id)


def remove_seat(table_id, user: User, number, now: float) -> Table:
    with database.write_transaction():
        table = _hosts_waiting_table(table_id, user)
        seat = next((s for s in table.seats if s.number == number), None) if type(number) is int else None
        if seat is None:
            raise ServiceError(404, "seat_not_found", "Nobody sits there.")
        if seat.user_id == user.id:
            raise ServiceError(400, "cannot_remove_self", "Leave the table instead.")
        unseat(table, seat)
    return table


def is_public(table: Table) -> bool:
    return db.session.get(PublicTable, table.id) is not None


def set_public(table_id, user: User, public, now: float) -> Table:
    """List a waiting table for everyone, or not (the default: joined by link, code or QR)."""
    if not isinstance(public, bool):
        raise ServiceError(400, "bad_request", "\"public\" must be true or false.")
    with database.write_transaction():
        table = _hosts_waiting_table(table_id, user)
        listed = db.session.get(PublicTable, table.id)
        if public and listed is None:
            db.session.add(PublicTable(table_id=table.id, since=now))
        elif not public and listed is not None:
            db.session.delete(listed)
        table.lobby_rev += 1
    return table


def renew_screen_link(table_id, user: User, now: float) -> Table:
    """A new key for the room's screen (web/screen.py); whoever held the old link sees no more."""
    with database.write_transaction():
        table = _locked_table(table_id)
        _require_host(table, user)
        table.screen_rev += 1
        table.lobby_rev += 1  # the host's view carries the new link
    return table


def join_by_code(code, user: User, now: float) -> Table | None:
    """Seat a player who arrived by a table's link; None if there is no such table.

    A table that has started or is full leaves the player unseated: its page says why.
    """
    code = table_code(code)
    table_id = db.session.scalar(select(Table.id).where(Table.code == code)) if code else None
    if table_id is None:
        return None
    try:
        return join_table(table_id, user, now)
    except ServiceError:
        return db.session.get(Table, table_id)


def update_settings(table_id, user: User, patch, now: float) -> Table:
    with database.write_transaction():
        table = _hosts_waiting_table(table_id, user)
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
    with database.write_transaction():
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
        with database.write_transaction():  # judged again under the lock: someone may have come back
            table = db.session.scalar(select(Table).where(Table.id == table_id, *_untouched_since(cutoff))
                                      .with_for_update())
            if table is not None:
                _close(table)
                cleared += 1
    return cleared


def list_tables() -> list[Table]:
    return list(db.session.scalars(select(Table).order_by(Table.created_at)))


def start_game(table_id, user: User, now: float, time_scale: float) -> Table:
    with database.write_transaction():
        table = _hosts_waiting_table(table_id, user)
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
    with database.write_transaction():
        table = _locked_table(table_id)
        _require_host(table, user)
        if table_status(table) != "ended":
            raise ServiceError(409, "game_not_ended", "The game is not over.")
        left = set(store.load_game(table.current_game).left)
        for seat in [s for s in table.seats if (s.number in left or not s.user.is_active) and s.user_id != user.id]:
            unseat(table, seat)  # who left the game, or whose account is gone, is not brought back
        table.current_game_id = None
        table.lobby_rev += 1
    return table



# ---------------------------------------------------------------- spectators

def spectators_allowed(table: Table) -> bool:
    return bool(json.loads(table.settings).get("options", {}).get("spectators"))


def watch(table_id: str, user_id: int, now: float) -> None:
    """Record that an account not seated watches this table, at most once per PRESENCE_WRITE_EVERY."""
    seen = db.session.scalar(select(Spectator.last_seen).where(
        Spectator.table_id == table_id, Spectator.user_id == user_id))
    db.session.rollback()  # its connection back to the pool: the poll reads again on another
    if seen is not None and now - seen < PRESENCE_WRITE_EVERY:
        return
    try:
        with database.write_transaction(tables=(table_id,)):
            changed = db.session.execute(update(Spectator).where(
                Spectator.table_id == table_id, Spectator.user_id == user_id).values(last_seen=now)).rowcount
            if not changed:
                db.session.add(Spectator(table_id=table_id, user_id=user_id, last_seen=now))
    except IntegrityError:  # another of this account's polls inserted it first
        db.session.rollback()


def spectator_count(table_id: str, now: float) -> int:
    return db.session.scalar(select(func.count(Spectator.id)).where(
        Spectator.table_id == table_id, Spectator.last_seen >= now - WATCHING_WITHIN)) or 0
