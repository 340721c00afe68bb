"""Past games (issue 37): kept after the next game, seen by those who sat at them only, the
host's read-only link, the replay computed from the record, stats among the people I
played with, and `games prune`."""
import json
import random
from datetime import datetime

import pytest

from tests.kit import audit
from werewolf import engine, store
from werewolf.extensions import db
from werewolf.models import Game

from .conftest import Player


def _moment(view: dict) -> dict:
    """A seat's view without the countdown (it moves with the clock alone) nor what the web
    adds around the engine's view (presence, the table): what a replay step compares with."""
    out = {k: v for k, v in view.items() if k not in ("connected", "table", "version")}
    out["players"] = [{k: v for k, v in p.items() if k != "connected"} for p in view["players"]]
    if out.get("step"):
        out["step"] = {k: v for k, v in out["step"].items() if k != "seconds_left"}
    return out


def play_recording(table, rng: random.Random, chat: bool = True) -> dict[int, list[dict]]:
    """Play the table's game to its end through the API (random legal moves, time-outs,
    chat in every channel one may write in), polling every seat after each single input as
    its page would; returns each seat's distinct views in order."""
    seen: dict[int, list[dict]] = {seat: [] for seat in table.seats}

    def poll_all() -> dict[int, dict]:
        views = table.views()
        for seat, view in views.items():
            if not seen[seat] or seen[seat][-1] != _moment(view):
                seen[seat].append(_moment(view))
        return views

    views = poll_all()
    said = False
    for _ in range(2000):
        if views[1]["status"] == "ended":
            return seen
        writers = [(s, v["channels"]["write"]) for s, v in views.items() if v["channels"]["write"]]
        actors = [(seat, v["prompt"]) for seat, v in views.items() if v["prompt"]]
        roll = rng.random() if said else 0.0  # a first message as soon as someone may write
        if chat and writers and roll < 0.2:
            said = True
            seat, channel = rng.choice(writers)
            assert table.seats[seat].chat(table.id, channel, f"dit {seat} {len(seen[seat])}").status_code == 201
        elif actors and roll < 0.85:
            seat, prompt = rng.choice(actors)
            response = table.seats[seat].act(table.id, **audit.random_move(prompt, rng, abstain=0.1))
            assert response.status_code == 200, response.get_json()
        else:  # the step's time runs out: the first poll after its deadline moves the game on
            deadline = datetime.fromisoformat(views[1]["step"]["deadline"].replace("Z", "+00:00")).timestamp()
            table.clock.now = max(table.clock.now, deadline + 0.001)
        views = poll_all()
    raise AssertionError("the game did not end")


def game_id_of(player: Player) -> int:
    return player.client.get("/api/me/games").get_json()["games"][0]["id"]


@pytest.fixture
def played(make_table):
    """A 7-seat game played to its end, with every seat's views recorded while it ran."""
    table = make_table(7).start()
    seen = play_recording(table, random.Random(37))
    return table, seen, game_id_of(table.host)


def test_a_finished_game_is_shown_to_its_players_only(played, make_player, app):
    table, seen, game_id = played
    end_view = table.views()
    for seat, player in table.seats.items():
        response = player.client.get(f"/api/games/{game_id}")
        assert response.status_code == 200
        game = response.get_json()
        assert game["me"] == seat
        assert [(p["seat"], p["name"], p["role"]) for p in game["players"]] == \
            [(p["seat"], p["name"], p["role"]) for p in end_view[seat]["players"]]
        assert game["winner"] == end_view[seat]["winner"]
        assert game["events"] == end_view[seat]["events"]
        assert game["channels"] == end_view[seat]["chat"]
        assert player.client.get(f"/games/{game_id}").status_code == 200
    stranger = make_player()
    for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/replay", f"/api/games/{game_id}/replay?seat=1"):
        assert stranger.client.get(path).status_code == 404
        assert app.test_client().get(path).status_code == 404
        assert stranger.client.get(path).get_json()["error"]["code"] == "game_not_found"
    assert stranger.client.get(f"/games/{game_id}").status_code == 404
    assert stranger.client.get(f"/api/games/{game_id + 1000}").status_code == 404
    assert stranger.client.get("/api/games/abc").status_code == 404
    assert stranger.client.get("/api/me/games").get_json() == {"games": []}


def test_my_games_list_each_of_mine_newest_first(played):
    table, _, first_id = played
    assert table.host.post(f"/api/tables/{table.id}/reopen").status_code == 200
    table.start()
    play_recording(table, random.Random(3), chat=False)
    for seat, player in table.seats.items():
        games = player.client.get("/api/me/games").get_json()["games"]
        assert [g["id"] for g in games][1] == first_id and len(games) == 2  # the first one is kept
        latest = games[0]
        end = player.client.get(f"/api/games/{latest['id']}").get_json()
        mine = end["players"][latest["seat"] - 1]
        assert (latest["role"], latest["won"]) == (mine["role"], latest["seat"] in end["winner"]["seats"])
        assert latest["seat"] == seat and latest["table"] == "Thiercelieux"
        assert sorted(p["name"] for p in latest["players"]) == sorted(p.name for p in table.players)
        ended_at = datetime.fromisoformat(end["events"][-1]["at"].replace("Z", "+00:00")).timestamp()
        assert end["events"][-1]["kind"] == "game_end"
        assert latest["seconds"] == round(ended_at - latest["started_at"]) >= 0


def test_a_game_before_its_end_is_never_shown(make_table, make_player):
    table = make_table(6).start()
    with table.app.app_context():
        game_id = db.session.scalar(db.select(Game.id))
    for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/replay", f"/api/games/{game_id}/replay?seat=2"):
        assert table.host.client.get(path).status_code == 409  # a player knows it runs
        assert make_player().client.get(path).status_code == 404
    assert table.host.post(f"/api/games/{game_id}/share").status_code == 409
    assert table.host.client.get("/api/me/games").get_json() == {"games": []}


def test_the_replay_shows_each_seat_exactly_what_its_view_showed(played, app):
    table, seen, game_id = played
    player = table.seats[1]
    for seat in table.seats:
        steps = player.client.get(f"/api/games/{game_id}/replay?seat={seat}").get_json()["steps"]
        assert [_moment(s["view"]) for s in steps] == seen[seat], f"seat {seat}"
    public = player.client.get(f"/api/games/{game_id}/replay").get_json()
    assert public["seat"] is None
    assert all(s["view"]["me"] is None for s in public["steps"])
    # No secret in the public steps before the end: only the dead's cards.
    for step in public["steps"][:-1]:
        assert all("role" not in p or not p["alive"] for p in step["view"]["players"])
        assert "werewolves" not in step["view"]["chat"]


def test_the_replays_last_step_is_the_stored_end(played, app):
    table, _, game_id = played
    with app.app_context():
        stored = store.load_game(db.session.get(Game, game_id))
        for seat in (None, *table.seats):
            path = f"/api/games/{game_id}/replay" + (f"?seat={seat}" if seat else "")
            last = table.host.client.get(path).get_json()["steps"][-1]["view"]
            assert last == {k: v for k, v in engine.view_for(stored, seat, 0.0).items() if k != "version"}


def test_a_seat_outside_the_game_is_refused(played):
    table, _, game_id = played
    for seat, code in (("0", 404), ("8", 404), ("x", 400), ("-1", 400), ("1.5", 400)):
        response = table.host.client.get(f"/api/games/{game_id}/replay?seat={seat}")
        assert response.status_code == code, seat


def test_the_shared_link_is_read_only_and_revocable(played, make_player, app):
    table, _, game_id = played
    host, other = table.host, next(p for p in table.players if p is not table.host)
    assert other.post(f"/api/games/{game_id}/share").status_code == 403
    assert make_player().post(f"/api/games/{game_id}/share").status_code == 404
    assert app.test_client().post(f"/api/games/{game_id}/share").status_code in (400, 401)  # CSRF or login first
    response = host.post(f"/api/games/{game_id}/share")
    assert response.status_code == 200
    url = response.get_json()["url"]
    assert host.post(f"/api/games/{game_id}/share").get_json()["url"] == url  # the same link
    assert host.client.get(f"/api/games/{game_id}").get_json()["share_url"] == url
    assert other.client.get(f"/api/games/{game_id}").get_json()["share_url"] is None
    key = url.split("key=")[1]
    anonymous = app.test_client()
    page = anonymous.get(f"/games/{game_id}?key={key}")
    assert page.status_code == 200 and b"data-key" in page.data
    game = anonymous.get(f"/api/games/{game_id}?key={key}").get_json()
    assert game["me"] is None and not game["host"] and game["share_url"] is None
    assert all("role" in p for p in game["players"])
    steps = anonymous.get(f"/api/games/{game_id}/replay?key={key}").get_json()["steps"]
    assert steps[-1]["view"]["status"] == "ended"
    assert anonymous.get(f"/api/games/{game_id}/replay?seat=1&key={key}").status_code == 404
    assert anonymous.get(f"/api/games/{game_id}?key={key}x").status_code == 404
    # Read-only: the link opens nothing else, and sharing stays the host's.
    assert anonymous.post(f"/api/games/{game_id}/share?key={key}").status_code in (400, 401)
    assert host.request("DELETE", f"/api/games/{game_id}/share").status_code == 200
    for path in (f"/api/games/{game_id}?key={key}", f"/api/games/{game_id}/replay?key={key}",
                 f"/games/{game_id}?key={key}"):
        assert anonymous.get(path).status_code == 404
    assert host.client.get(f"/api/games/{game_id}").get_json()["shared"] is False


def test_finished_games_outlive_their_table(played, app):
    table, _, game_id = played
    result = app.test_cli_runner().invoke(args=["tables", "end", table.id])
    assert result.exit_code == 0, result.output
    game = table.host.client.get(f"/api/games/{game_id}").get_json()
    assert game["table"] == "Thiercelieux"
    assert table.host.client.get(f"/api/games/{game_id}/replay?seat=2").status_code == 200


def test_stats_count_the_games_played_among_friends(make_table, make_player, app):
    table = make_table(6).start()
    ends = []
    for rounds in range(2):
        play_recording(table, random.Random(100 + rounds), chat=False)
        ends.append(table.views())
        assert table.host.post(f"/api/tables/{table.id}/reopen").status_code == 200
        table.start()
    elsewhere = make_table(6).start()  # strangers: none of them is in anyone's group here
    play_recording(elsewhere, random.Random(5), chat=False)

    by_name = {p.name: p for p in table.players}
    for player in table.players:
        stats = player.client.get("/api/me/stats").get_json()
        mine = [(v["me"]["role"], v["me"]["seat"] in v["winner"]["seats"], v["me"]["alive"])
                for v in (next(v for v in end.values() if v["me"]["name"] == player.name) for end in ends)]
        wins = sum(won for _, won, _ in mine)
        assert (stats["games"], stats["wins"]) == (2, wins)
        assert stats["win_rate"] == round(wins / 2, 3)
        assert stats["survival"]["alive_at_end"] == sum(alive for *_, alive in mine)
        cards = {}
        for role, won, _ in mine:
            cards.setdefault(role, [0, 0])
            cards[role][0] += 1
            cards[role][1] += won
        assert {c["role"]: [c["games"], c["wins"]] for c in stats["by_card"]} == cards
        assert sum(c["games"] for c in stats["by_camp"]) == 2
        board = {row["name"]: row for row in stats["leaderboard"]}
        assert set(board) == set(by_name)  # my group, nobody else
        for name, row in board.items():
            won = sum(next(v for v in end.values() if v["me"]["name"] == name)["me"]["seat"]
                      in end[1]["winner"]["seats"] for end in ends)
            assert (row["games"], row["wins"]) == (2, won)
            assert row["me"] == (name == player.name)
    assert make_player().client.get("/api/me/stats").get_json()["games"] == 0


def test_prune_removes_old_finished_games_only(played, make_table, app, clock):
    table, _, game_id = played
    running = make_table(6).start()
    clock.advance(3 * 24 * 3600)
    runner = app.test_cli_runner()
    kept = runner.invoke(args=["games", "prune", "--older-than", "4"])
    assert kept.exit_code == 0 and "removed 0" in kept.output, kept.output
    assert table.host.client.get(f"/api/games/{game_id}").status_code == 200
    result = runner.invoke(args=["games", "prune", "--older-than", "2"])
    assert result.exit_code == 0 and "removed 1 " in result.output, result.output
    assert table.host.client.get(f"/api/games/{game_id}").status_code == 404
    assert table.host.client.get("/api/me/games").get_json() == {"games": []}
    assert table.host.state(table.id)["status"] == "lobby"  # its table goes back to waiting
    assert running.host.state(running.id)["status"] == "running"
    assert runner.invoke(args=["games", "prune", "--older-than", "-1"]).exit_code != 0


def test_a_recorded_game_is_its_deal_then_its_moves(played, app):
    """The record holds no view and no chat text (each message by its place in the end)."""
    table, _, game_id = played
    with app.app_context():
        row = db.session.get(Game, game_id)
        lines = [json.loads(line) for line in row.moves.splitlines()]
        stored = store.load_game(row)
    assert set(lines[0]) == {"deal"} and lines[0]["deal"]["names"] == [p.name for p in stored.players]
    said = [line for line in lines if "chat" in line]
    assert said and all("text" not in line for line in said)
    assert [stored.chat[line["line"]]["seat"] for line in said] == [line["seat"] for line in said]


def test_moves_arriving_together_replay_to_the_same_end(make_table, app):
    """Votes and night acts sent at the same moment (played together on one copy, written
    once, some judged again): the record keeps them in the order they were played."""
    from .test_concurrency import at_once
    rng = random.Random(8)
    table = make_table(8).start()
    for _ in range(60):
        views = table.views()
        if views[1]["status"] == "ended":
            break
        actors = [(seat, v["prompt"]) for seat, v in views.items() if v["prompt"]]
        if not actors:
            table.finish_step()
            continue
        calls = [lambda s=seat, p=prompt: table.seats[s].act(table.id, **audit.random_move(p, rng, abstain=0.1))
                 for seat, prompt in actors]
        at_once(*calls)
    if table.host.state(table.id)["status"] == "running":
        assert table.host.post(f"/api/tables/{table.id}/end").status_code == 200
    game_id = game_id_of(table.host)
    for seat in (None, *table.seats):
        response = table.host.client.get(f"/api/games/{game_id}/replay" + (f"?seat={seat}" if seat else ""))
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["steps"][-1]["view"]["status"] == "ended"
