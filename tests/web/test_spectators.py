"""Spectators (RULES-VARIANTS A7.3, A13): accounts not seated watch the public view only."""
import random
import time

from werewolf import engine, store
from werewolf.extensions import db
from werewolf.models import Table
from werewolf.web import poll

from .test_auth import error_code
from .test_held_polls import InThread, held_poll, seats_by_role, wait_until_held
from .test_poll_reads import signed_in

SECRET_CHANNELS = {"werewolves", "dead", "lovers"}


def watching(table, on=True):
    response = table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"options": {"spectators": on}})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["table"]


def public_view(app, table_id, now):
    """What the engine gives a viewer with no seat, compared field by field with the HTTP view."""
    with app.app_context():
        row = db.session.get(Table, table_id).current_game
        return engine.view_for(store.load_game(row), None, now)


def assert_public_view(seen: dict, expected: dict) -> None:
    """``seen`` (an HTTP view) is the engine's public view, plus the table part and presence."""
    assert set(seen) - {"table"} == set(expected)
    for field in expected:
        if field not in ("version", "players"):
            assert seen[field] == expected[field], field
    assert [{k: v for k, v in p.items() if k != "connected"} for p in seen["players"]] == expected["players"]
    for p in seen["players"]:
        assert ("role" in p) == (not p["alive"]), p  # no living player's card
    assert set(seen["chat"]) == {"village"} and seen["channels"] == {"read": ["village"], "write": None, "writable": []}
    assert seen["me"] is None and seen["prompt"] is None and "designations" not in seen


def test_option_off_by_default_and_refused_to_strangers(make_table, make_player):
    table = make_table(3)
    settings = table.host.state(table.id)["table"]["settings"]
    assert settings["options"]["spectators"] is False
    stranger = make_player()
    response = stranger.state_response(table.id)
    assert response.status_code == 403 and error_code(response) == "not_seated"
    assert "spectators" not in table.host.state(table.id)["table"]


def test_option_is_validated(make_table):
    table = make_table(2)
    before = table.host.state(table.id)["table"]["settings"]["options"]
    for bad in ({"spectators": "yes"}, {"unknown": True}, ["spectators"]):
        response = table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"options": bad})
        assert response.status_code == 400 and error_code(response) == "invalid_settings"
    assert table.host.state(table.id)["table"]["settings"]["options"] == before and before["spectators"] is False


def test_a_spectator_watches_the_lobby_and_is_counted_for_20_seconds(make_table, make_player, clock):
    table = make_table(3)
    assert watching(table)["spectators"] == 0
    eve = make_player()
    view = eve.state(table.id)
    assert view["me"] is None and view["status"] == "lobby"
    assert [p["seat"] for p in view["players"]] == [1, 2, 3]
    assert view["table"]["spectators"] == 1
    assert table.host.state(table.id)["table"]["spectators"] == 1
    assert table.players[1].state(table.id)["table"]["spectators"] == 1
    clock.advance(21)  # Eve closed the page
    assert table.host.state(table.id)["table"]["spectators"] == 0
    # A spectator who sits down is a player, no longer a spectator.
    eve.state(table.id)
    assert eve.join(table.id).status_code == 200
    view = eve.state(table.id)
    assert view["me"]["seat"] == 4 and view["table"]["spectators"] == 0


def test_spectators_count_changes_a_seated_players_etag(make_table, make_player):
    table = make_table(6)
    watching(table)
    table.start()
    first = table.host.state_response(table.id)
    make_player().state(table.id)
    again = table.host.state_response(table.id, first.headers["ETag"])
    assert again.status_code == 200 and again.get_json()["table"]["spectators"] == 1
    assert table.host.state_response(table.id, again.headers["ETag"]).status_code == 304


def test_a_spectator_sees_exactly_the_public_view_and_never_acts(app, make_table, make_player, clock):
    table = make_table(8)
    watching(table)
    table.start()
    eve = make_player()
    truth = {seat: v["me"]["role"] for seat, v in table.views().items()}
    checked = 0

    def check(views):
        nonlocal checked
        response = eve.state_response(table.id)
        assert response.status_code == 200
        seen = response.get_json()
        assert seen["me"] is None and seen["prompt"] is None
        if seen["status"] == "ended":
            return
        assert_public_view(seen, public_view(app, table.id, clock.now))
        assert not SECRET_CHANNELS & set(seen["chat"])
        for event in seen["events"]:
            assert event["kind"] not in {"seer_look", "lover", "cupid_pair", "designation", "wolves_victim",
                                         "witch_victim", "witch_save", "witch_poison", "night_summary"}
        acted = eve.act(table.id, "vote.cast", target=1)
        assert acted.status_code == 403 and error_code(acted) == "not_seated"
        if checked < 5:  # chat is rate-limited per account
            wrote = eve.chat(table.id, "village", "psst")
            assert wrote.status_code == 403 and error_code(wrote) == "not_seated"
        checked += 1

    final = table.play_to_end(random.Random(5), on_views=check)
    assert checked > 10
    end = eve.state(table.id)  # at the end, everything, like the players
    assert {p["seat"]: p["role"] for p in end["players"]} == truth
    assert set(end["chat"]) == set(next(iter(final.values()))["chat"])


def test_a_spectator_polls_with_etags(make_table, make_player):
    table = make_table(6)
    watching(table)
    table.start()
    eve = make_player()
    first = eve.state_response(table.id)
    assert eve.state_response(table.id, first.headers["ETag"]).status_code == 304
    wolf = next(s for s, v in table.views().items() if v["me"]["role"] == "werewolf")
    assert table.seats[wolf].chat(table.id, "werewolves", "x").status_code == 201
    # The wolves' secret talk changes nothing for her.
    assert eve.state_response(table.id, first.headers["ETag"]).status_code == 304


def test_a_latecomer_is_offered_to_watch_not_a_join_that_fails(make_table, make_player):
    late = make_player()
    for allowed in (False, True):
        table = make_table(6)
        if allowed:
            watching(table)
        code = table.host.state(table.id)["table"]["code"]
        assert 'id="join-btn"' in late.client.get(f"/t/{code}").get_data(as_text=True)
        table.start()
        page = late.client.get(f"/t/{code}").get_data(as_text=True)
        assert 'id="join-btn"' not in page
        assert ('id="watch-btn"' in page) == allowed


def test_more_waiting_phones_than_the_pools_connections_are_all_answered(make_app, make_table, make_player,
                                                                         monkeypatch):
    """Held polls of seated players and spectators, more than a pool of two connections
    (whose wait for a connection is cut to 2 s), woken again and again by messages that
    change none of their views: none keeps a connection while it asks for another, so none
    waits out the pool's time-out (a 500, logged). No read is kept: each wake-up reads
    again, as when writes follow each other."""
    monkeypatch.setattr(poll, "READ_KEPT_FOR", 0.0)
    table = make_table(6)
    response = table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"options": {"spectators": True}})
    assert response.status_code == 200, response.get_json()
    table.start()
    small = make_app(HELD_POLLS=100, SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 2, "max_overflow": 0, "pool_timeout": 2})
    wolf, other = seats_by_role(table)
    phones = [signed_in(small, p) for p in [make_player() for _ in range(4)] + [table.seats[other]]]
    for phone in phones:
        phone.state(table.id)  # every spectator counted: the views' spectator count moves no more
    etags = [phone.state_response(table.id).headers["ETag"] for phone in phones]
    waiting = [InThread(lambda phone=phone, etag=etag: held_poll(phone, table.id, etag, 3))
               for phone, etag in zip(phones, etags)]
    wait_until_held(small, len(phones))
    for _ in range(3):
        assert table.seats[wolf].chat(table.id, "werewolves", "chut").status_code == 201
        time.sleep(0.2)
    for poll_waiting in waiting:
        assert poll_waiting.result().status_code in (200, 304)
