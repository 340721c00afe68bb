"""Joining by link, code or QR (issue 14): one step for a new player, unlisted tables, the public address."""
import re

from .conftest import Player
from .test_auth import error_code


def code_of(table) -> str:
    return table.host.state(table.id)["table"]["code"]


def test_the_link_leads_a_newcomer_to_register_and_sit_in_one_go(app, make_table):
    table = make_table(2)
    code = code_of(table)
    newcomer = Player(app, "Zoé")
    response = newcomer.client.get(f"/t/{code.lower()}")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/register?table={code}")
    page = newcomer.client.get(f"/register?table={code}").get_data(as_text=True)
    assert "Thiercelieux" in page and table.host.name in page and f'data-table-code="{code}"' in page
    assert f'data-next="/t/{code}"' in page and f"/login?next=/t/{code}" in page  # an account already: log in
    response = newcomer.post("/api/auth/register", {"name": "Zoé", "password": "Lune pleine 42", "table_code": code})
    assert response.status_code == 201
    assert response.get_json()["table"] == {"code": code, "url": f"/t/{code}", "seated": True}
    view = newcomer.state(table.id)
    assert view["me"]["seat"] == 3 and [p["name"] for p in view["players"]][-1] == "Zoé"
    # Logged in now: the same link lands on the table.
    assert newcomer.client.get(f"/t/{code}").status_code == 200
    assert newcomer.client.get(f"/register?table={code}").headers["Location"].endswith(f"/t/{code}")


def test_a_newcomer_to_a_started_or_unknown_table_still_gets_an_account(app, make_table):
    table = make_table(6).start()
    late = Player(app, "Yann")
    answer = late.post("/api/auth/register", {"name": "Yann", "password": "Lune pleine 42",
                                               "table_code": code_of(table)}).get_json()
    assert answer["table"]["seated"] is False and answer["user"]["name"] == "Yann"
    other = Player(app, "Xavier")
    answer = other.post("/api/auth/register", {"name": "Xavier", "password": "Lune pleine 42", "table_code": "ZZZZZ"})
    assert answer.status_code == 201 and answer.get_json()["table"] is None
    assert Player(app, "Willy").client.get("/t/ZZZZZ").status_code == 404  # a mistyped link


def test_waiting_tables_are_unlisted_until_the_host_makes_them_public(make_table, make_player):
    table = make_table(2)
    bob = make_player()
    listed = lambda: [t["id"] for t in bob.client.get("/api/tables").get_json()["tables"]]  # noqa: E731
    assert table.id not in listed() and table.host.state(table.id)["table"]["public"] is False
    refused = table.players[1].post(f"/api/tables/{table.id}/visibility", {"public": True})
    assert refused.status_code == 403 and error_code(refused) == "not_host"
    bad = table.host.post(f"/api/tables/{table.id}/visibility", {"public": "yes"})
    assert bad.status_code == 400 and table.id not in listed()
    etag = table.players[1].state_response(table.id).headers["ETag"]
    assert table.host.post(f"/api/tables/{table.id}/visibility", {"public": True}).status_code == 200
    assert table.id in listed()
    seen = table.players[1].state_response(table.id, etag)  # everyone at the table sees it
    assert seen.status_code == 200 and seen.get_json()["table"]["public"] is True
    assert table.host.post(f"/api/tables/{table.id}/visibility", {"public": False}).status_code == 200
    assert table.id not in listed()


def test_a_mistyped_code_is_not_found(make_player):
    missing = make_player().client.get("/api/tables/by-code/ABCDE")
    assert missing.status_code == 404 and error_code(missing) == "table_not_found"


def test_links_use_the_public_url_when_set(make_app, make_table):
    app = make_app(PUBLIC_URL="https://loups.example.org/", SERVER_NAME=None)  # opened as localhost
    host = Player(app, "Hôte").register()
    table = host.post("/api/tables", {}).get_json()["table"]
    assert table["url"] == f"https://loups.example.org/t/{table['code']}"
    assert table["screen_url"].startswith(f"https://loups.example.org/tables/{table['id']}/screen?key=")
    page = host.client.get(f"/t/{table['code']}").get_data(as_text=True)
    assert 'id="local-warning"' not in page and 'id="share-url"' in page


def test_a_host_on_localhost_is_told_other_phones_cannot_use_the_link(make_app):
    app = make_app(SERVER_NAME=None)  # the test client then calls itself "localhost"
    host = Player(app, "Hôte").register()
    table = host.post("/api/tables", {}).get_json()["table"]
    assert table["url"].startswith("http://localhost/t/")
    page = host.client.get(f"/t/{table['code']}").get_data(as_text=True)
    assert 'id="local-warning"' in page
    assert re.search(r'class="lan-url">http://[\d.]+/t/' + table["code"], page) or "lan-url" not in page
    from werewolf.web.pages import _is_loopback
    assert all(map(_is_loopback, ("localhost", "127.0.0.1", "127.1.2.3", "::1")))
    assert not any(map(_is_loopback, ("192.168.1.20", "loups.example.org", "10.0.0.1")))


def test_the_list_shows_my_own_unlisted_tables_to_me_only(make_table, make_player):
    table = make_table(2)
    listed = lambda player: [t["id"] for t in player.client.get("/api/tables").get_json()["tables"]]  # noqa: E731
    assert table.id in listed(table.host) and table.id in listed(table.players[1])  # seated there
    assert table.id not in listed(make_player())
    assert table.host.post(f"/api/tables/{table.id}/leave").status_code == 200
    assert table.id not in listed(table.host)
