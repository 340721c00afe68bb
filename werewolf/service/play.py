"""Playing: every move of a game (acts, chat, leaving, the host's stop) and the time-outs of steps.

A move is optimistic: read the row, apply the rules on a private copy, then one
``UPDATE ... WHERE rev = <the rev read>`` (store.save_if_unchanged); if another process
moved the game meanwhile, the move is judged again on the new state. ``advance_due``
moves on every game whose step deadline has passed under the same guard, so two workers
(or a restart) never advance a step twice.
"""
import logging
import threading

from sqlalchemy import select

from .. import engine, push, store
from ..extensions import db
from ..models import Game
from .inputs import ServiceError

log = logging.getLogger(__name__)


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



def play_move(table_id, user_id: int, now: float, change, note: dict, refuse_early=None) -> None:
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
    play_move(table_id, user_id, now, lambda game, seat: engine.apply(game, seat, body, now), {"body": body},
          lambda game, seat: engine.check_request(game, seat, body, past_only=True))


def chat(table_id, user_id: int, channel, text, now: float) -> None:
    play_move(table_id, user_id, now, lambda game, seat: engine.post_chat(game, seat, channel, text, now),
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

