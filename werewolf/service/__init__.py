"""Every change to an account, a table or a game, each as one write transaction.

The routes call the names below; each lives in the module of its job:
``accounts`` (registration, log-in, sessions, passwords), ``tables`` (the lobby,
starting and closing tables, spectators), ``play`` (the moves of a game and the
time-outs of its steps), ``inputs`` (the refusal every service raises, names and
codes cleaned).
"""
from ..engine import MAX_PLAYERS, MIN_PLAYERS
from .accounts import (
    NAME_MAX,
    PASSWORD_MAX,
    PASSWORD_MIN,
    REGISTRATION_MODES,
    authenticate,
    change_password,
    check_registration_open,
    delete_account,
    disable_user,
    end_all_sessions,
    end_session,
    find_user,
    list_users,
    register,
    start_session,
)
from .inputs import ServiceError, clean_name
from .play import MAX_ATTEMPTS, act, advance_due, advance_game, chat
from .tables import (
    PRESENCE_WRITE_EVERY,
    TABLE_NAME_MAX,
    WAITING_TABLE_TTL,
    WATCHING_WITHIN,
    clear_stale_tables,
    create_table,
    end_game,
    end_table,
    is_public,
    join_by_code,
    join_table,
    leave_table,
    list_tables,
    next_host,
    remove_seat,
    renew_screen_link,
    reopen_table,
    seat_of,
    set_public,
    spectator_count,
    spectators_allowed,
    start_game,
    table_status,
    update_settings,
    watch,
)

__all__ = [
    "MAX_ATTEMPTS", "MAX_PLAYERS", "MIN_PLAYERS", "NAME_MAX", "PASSWORD_MAX", "PASSWORD_MIN",
    "PRESENCE_WRITE_EVERY", "REGISTRATION_MODES", "TABLE_NAME_MAX", "WAITING_TABLE_TTL", "WATCHING_WITHIN",
    "ServiceError", "act", "advance_due", "advance_game", "authenticate", "change_password", "chat",
    "check_registration_open", "clean_name", "clear_stale_tables", "create_table", "delete_account",
    "disable_user", "end_all_sessions", "end_game", "end_session", "end_table", "find_user", "is_public",
    "join_by_code", "join_table", "leave_table", "list_tables", "list_users", "next_host", "register",
    "remove_seat", "renew_screen_link", "reopen_table", "seat_of", "set_public", "spectator_count",
    "spectators_allowed", "start_game", "start_session", "table_status", "update_settings", "watch",
]
