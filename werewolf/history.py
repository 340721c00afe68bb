"""The group's memory: finished games, their replay, stats among the people I played with,
the host's shared link, and pruning old games.

A finished game keeps its row (the end state) and its record (``Game.moves``: the deal,
then every input that changed it). The engine is deterministic, so the replay is
computed by playing the record again, never stored: each seat's view after each input
is ``engine.view_for`` of that moment, the very function that answered the polls. A
replay that does not reach the stored end (the rules changed since) is refused rather
than shown wrong.

Who may see what: a game is found only by those who sat at it (``GamePlayer``), and only
once it has ended; the host's link (``share_key``) opens its end and its public replay to
anyone holding it, never a seat's replay.
"""
from __future__ import annotations

import hmac
import json
import secrets
from datetime import datetime

from flask import current_app
from sqlalchemy import delete, select

from . import database, engine, store
from .cache import LRU
from .engine import registry
from .engine.game import iso
from .extensions import db
from .models import Game, GamePlayer, Table, User
from .service import ServiceError

DAY = 24 * 3600.0


def _kept(name: str, size: int) -> LRU:
    """What a finished game gives (its summary, its replays): an ended game never changes, so
    nothing kept can go stale (a pruned game is simply not asked again). One per app (a
    test's new app, over a new database, starts empty)."""
    return current_app.extensions.setdefault("werewolf.history." + name, LRU(size))


def summaries() -> LRU:
    return _kept("summaries", 4096)


def replays() -> LRU:
    return _kept("replays", 64)


def _key(row: Game) -> tuple:
    """What names one game for ever: SQLite may give a pruned game's id to a new one."""
    return row.id, row.created_at


def _not_found() -> ServiceError:
    return ServiceError(404, "game_not_found", "No such game.")


# ---------------------------------------------------------------- access

class Access:
    """A finished game as a reader may see it: ``seat`` is theirs (None through a shared link)."""

    def __init__(self, row: Game, seat: int | None, user_id: int | None):
        self.row, self.seat, self.user_id = row, seat, user_id

    @property
    def shared(self) -> bool:
        return self.seat is None


def seat_in(game_id: int, user_id: int | None) -> int | None:
    if user_id is None:
        return None
    return db.session.scalar(select(GamePlayer.seat).where(GamePlayer.game_id == game_id,
                                                           GamePlayer.user_id == user_id))


def access(game_id, user_id: int | None, key=None) -> Access:
    """The game if this reader may see its end: a player of it, or the holder of its shared
    link. Anyone else, and anything not ended, is told it does not exist (404), except a
    player of a running game (409: they know it is under way)."""
    row = db.session.get(Game, game_id) if type(game_id) is int else None
    if row is None:
        raise _not_found()
    seat = seat_in(row.id, user_id)
    if row.status != "ended":
        if seat is not None:
            raise ServiceError(409, "game_not_ended", "The game is not over.")
        raise _not_found()
    if seat is not None:
        return Access(row, seat, user_id)
    if isinstance(key, str) and row.share_key and hmac.compare_digest(key.encode(), row.share_key.encode()):
        return Access(row, None, user_id)
    raise _not_found()


# ---------------------------------------------------------------- the end

def _decoded(row: Game):
    """A finished game's engine state, decoded apart from the cache of the games being played
    (store.game_cache): reading many past games must not push the live ones out of it."""
    return store.load_for_update(row)


def _nights_lived(game, seat: int) -> int:
    """The night (counting from 1) in which this seat died, or the game's last one if it lived."""
    night = 0
    for event in game.events:
        if event["kind"] == "step" and event.get("night"):
            night = event["night"]
        elif event["kind"] == "deaths" and any(d["seat"] == seat for d in event["deaths"]):
            return max(night, 1)
    return max(game.night, 1)


def _at(event: dict) -> float:
    return datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()


def summary(row: Game) -> dict:
    """What lists and stats need of a finished game, independent of the reader (kept)."""
    def make():
        game = _decoded(row)
        winners = set(game.winner["seats"]) if game.winner else set()
        ended = next((e for e in reversed(game.events) if e["kind"] == "game_end"), game.events[-1])
        return {
            "id": row.id,
            "table": row.table_name,
            "started_at": row.created_at,
            "seconds": round(_at(ended) - row.created_at),
            "nights": game.night,
            "winner": game.winner,
            "players": [{"seat": p.seat, "name": p.name, "role": p.role, "camp": registry.camp(p.role),
                         "won": p.seat in winners, "alive": p.alive, "nights_lived": _nights_lived(game, p.seat)}
                        for p in game.players],
            "replay": row.moves is not None,
        }
    return summaries().get_or_make(_key(row), make)


def end(acc: Access, share_url: str | None) -> dict:
    """``GET /api/games/<id>``: the whole end screen (everything is revealed at the end)."""
    game = _decoded(acc.row)
    final = engine.view_for(game, None, 0.0)
    about = summary(acc.row)
    return {
        "id": acc.row.id,
        "table": about["table"],
        "started_at": about["started_at"],
        "seconds": about["seconds"],
        "nights": game.night,
        "days": game.day,
        "me": acc.seat,
        "host": acc.user_id is not None and acc.user_id == acc.row.host_user_id and not acc.shared,
        "shared": not acc.shared and acc.row.share_key is not None,
        "share_url": share_url,
        "replay": about["replay"],
        "composition": final["composition"],
        "settings": game.settings,
        "players": [{**p, "camp": registry.camp(p["role"]), "won": q["won"]}
                    for p, q in zip(final["players"], about["players"])],
        "winner": game.winner,
        "lovers": final.get("lovers", []),
        "middle": final.get("middle", []),
        "events": final["events"],
        "channels": final["chat"],
    }


# ---------------------------------------------------------------- the replay

class ReplayUnavailable(ServiceError):
    def __init__(self, message: str):
        super().__init__(409, "replay_unavailable", message)


def _record(row: Game) -> tuple[dict, list[dict]]:
    if row.moves is None:
        raise ReplayUnavailable("This game was played before games were recorded: only its end is kept.")
    lines = [json.loads(line) for line in row.moves.splitlines() if line]
    return lines[0]["deal"], lines[1:]


def _play_again(deal: dict, moves: list[dict], chat: list[dict]):
    """The engine game after the deal, then after each move: yields (game, now)."""
    game = engine.new_game(deal["names"], deal["settings"], deal["seed"], deal["now"], time_scale=deal["time_scale"])
    yield game, deal["now"]
    for move in moves:
        if "advance" in move:
            now = move["advance"]
            if not engine.advance(game, now):
                raise ReplayUnavailable("The recorded game does not replay with these rules.")
        else:
            now, seat = move["now"], move["seat"]
            if "body" in move:
                engine.apply(game, seat, dict(move["body"]), now)
            elif "chat" in move:
                engine.post_chat(game, seat, move["chat"], chat[move["line"]]["text"], now)
            elif "leave" in move:
                engine.leave(game, seat, now)
            else:
                engine.stop(game, now, move["stop"])
        yield game, now


def _same_moment(view: dict) -> dict:
    """A view without its countdown (which moves with the clock alone), to compare."""
    step = view.get("step")
    if step:
        view = {**view, "step": {k: v for k, v in step.items() if k != "seconds_left"}}
    return view


def replay(row: Game, seat: int | None) -> list[dict]:
    """The views of ``seat`` (None: the public one) in order, each new one when that view
    changed: ``[{"at": ISO time, "view": ...}]``; the last is the end's view."""
    def make():
        stored = _decoded(row)
        deal, moves = _record(row)
        steps, last, version = [], None, None
        try:
            for game, now in _play_again(deal, moves, stored.chat):
                # As the poll: a view that may have changed is one whose version moved (the ETag).
                if game.version_for(seat) == version:
                    continue
                version = game.version_for(seat)
                view = engine.view_for(game, seat, now)
                del view["version"]  # the engine's counter for polls, not part of what was shown
                moment = _same_moment(view)
                if moment != last:
                    steps.append({"at": iso(now), "view": view})
                    last = moment
        except (engine.IllegalAction, KeyError, IndexError, ValueError) as error:
            raise ReplayUnavailable("The recorded game does not replay with these rules.") from error
        if game.to_dict() != stored.to_dict():
            raise ReplayUnavailable("The recorded game does not replay to its stored end with these rules.")
        return steps
    return replays().get_or_make((*_key(row), seat), make)


def replay_seat(acc: Access, seat_arg) -> int | None:
    """The seat whose replay is asked (``?seat=N``): a player of the game may ask any seat's;
    a shared link only the public one."""
    if seat_arg is None:
        return None
    if acc.shared:
        raise _not_found()
    if not (isinstance(seat_arg, str) and seat_arg.isdigit()):
        raise ServiceError(400, "bad_request", "\"seat\" must be a seat number.")
    seat = int(seat_arg)
    if not 1 <= seat <= len(summary(acc.row)["players"]):
        raise ServiceError(404, "seat_not_found", "Nobody sat there.")
    return seat


# ---------------------------------------------------------------- mine

def _my_rows(user_id: int) -> list[tuple[Game, int]]:
    """My finished games, newest first, with my seat in each."""
    return list(db.session.execute(
        select(Game, GamePlayer.seat).join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(GamePlayer.user_id == user_id, Game.status == "ended")
        .order_by(Game.created_at.desc(), Game.id.desc())).all())


def my_games(user_id: int) -> list[dict]:
    """``GET /api/me/games``."""
    out = []
    for row, seat in _my_rows(user_id):
        about = summary(row)
        me = about["players"][seat - 1]
        out.append({"id": row.id, "table": about["table"], "started_at": about["started_at"],
                    "seconds": about["seconds"], "nights": about["nights"], "seat": seat,
                    "role": me["role"], "camp": me["camp"], "won": me["won"],
                    "winner": about["winner"],
                    "players": [{"seat": p["seat"], "name": p["name"]} for p in about["players"]]})
    return out


def _rate(wins: int, games: int) -> float:
    return round(wins / games, 3) if games else 0.0


def _tally(counts: dict, key, won: bool) -> None:
    entry = counts.setdefault(key, {"games": 0, "wins": 0})
    entry["games"] += 1
    entry["wins"] += won


def _rated(counts: dict, name: str) -> list[dict]:
    return sorted(({name: key, **v, "win_rate": _rate(v["wins"], v["games"])} for key, v in counts.items()),
                  key=lambda r: (-r["games"], -r["wins"], r[name]))


def my_stats(user_id: int) -> dict:
    """``GET /api/me/stats``: from my finished games only. The leaderboard counts, for each
    person who sat at one of them, the games we played together: nothing of any game I was
    not at, nobody I never played with."""
    rows = _my_rows(user_id)
    seats_of = {}  # game id -> {seat: user id}
    if rows:
        for game_id, seat, uid in db.session.execute(
                select(GamePlayer.game_id, GamePlayer.seat, GamePlayer.user_id)
                .where(GamePlayer.game_id.in_([row.id for row, _ in rows]))):
            seats_of.setdefault(game_id, {})[seat] = uid
    by_camp, by_card, group = {}, {}, {}
    wins = survived = lived = 0
    for row, seat in rows:
        about = summary(row)
        me = about["players"][seat - 1]
        wins += me["won"]
        survived += me["alive"]
        lived += me["nights_lived"]
        _tally(by_camp, me["camp"], me["won"])
        _tally(by_card, me["role"], me["won"])
        for other_seat, uid in seats_of.get(row.id, {}).items():
            _tally(group, uid, about["players"][other_seat - 1]["won"])
    names = {uid: name for uid, name in db.session.execute(select(User.id, User.name).where(User.id.in_(list(group))))} \
        if group else {}
    board = sorted(({"user_id": uid, "name": names.get(uid, "?"), "me": uid == user_id, **v,
                     "win_rate": _rate(v["wins"], v["games"])} for uid, v in group.items()),
                   key=lambda r: (-r["wins"], -r["win_rate"], r["name"].casefold()))
    games = len(rows)
    return {
        "games": games,
        "wins": wins,
        "win_rate": _rate(wins, games),
        "by_camp": _rated(by_camp, "camp"),
        "by_card": _rated(by_card, "role"),
        "survival": {"alive_at_end": survived, "nights_lived_average": round(lived / games, 2) if games else 0.0},
        "leaderboard": board,
    }


# ---------------------------------------------------------------- sharing

def _hosted(game_id, user_id: int) -> Game:
    acc = access(game_id, user_id)
    if acc.row.host_user_id != user_id:
        raise ServiceError(403, "not_host", "Only the host can do this.")
    return acc.row


def share(game_id, user_id: int) -> str:
    """The game's shared key, made once (sharing again gives the same link)."""
    with database.write_transaction(tables=()):
        row = _hosted(game_id, user_id)
        if row.share_key is None:
            row.share_key = secrets.token_urlsafe(16)
        return row.share_key


def unshare(game_id, user_id: int) -> None:
    with database.write_transaction(tables=()):
        _hosted(game_id, user_id).share_key = None


# ---------------------------------------------------------------- pruning

def prune(older_than_days: float, now: float) -> int:
    """Delete the finished games that started more than ``older_than_days`` ago, with their
    record, their players and their link; a table still showing one goes back to its
    waiting room. Running games are never pruned. Returns how many."""
    cutoff = now - older_than_days * DAY
    with database.write_transaction():
        old = select(Game.id).where(Game.status == "ended", Game.created_at < cutoff)
        ids = list(db.session.scalars(old))
        if not ids:
            return 0
        showing = db.session.scalars(select(Table).where(Table.current_game_id.in_(ids))).all()
        for table in showing:
            table.current_game_id = None
            table.lobby_rev += 1
        db.session.flush()
        db.session.execute(delete(GamePlayer).where(GamePlayer.game_id.in_(ids)))
        db.session.execute(delete(Game).where(Game.id.in_(ids)))
    summaries().clear()  # this process's; the servers' are keyed so that they cannot mistake a game
    replays().clear()
    return len(ids)
