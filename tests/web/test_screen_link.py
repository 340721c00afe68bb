"""The room screen's link (with its key) goes to the host only, and the host can renew it
(issue 33, finding 5): with spectators off, nobody else can watch."""
from urllib.parse import urlsplit

import pytest


def _screen_state(client, screen_url: str):
    parts = urlsplit(screen_url)
    return client.get(parts.path.replace("/tables/", "/api/tables/", 1) + "?" + parts.query)


def _host_link(table) -> str:
    return table.host.state(table.id)["table"]["screen_url"]


@pytest.mark.parametrize("started", [False, True])
def test_only_the_host_gets_the_screen_link(make_table, make_player, started):
    table = make_table(6)
    if started:
        table.start()
    host, player, stranger = table.players[0], table.players[1], make_player()
    code = host.state(table.id)["table"]["code"]
    assert "screen_url" in host.state(table.id)["table"]
    assert "screen_url" in host.client.get(f"/api/tables/by-code/{code}").get_json()["table"]
    assert "screen_url" not in player.state(table.id)["table"]
    for someone in (player, stranger):
        found = someone.client.get(f"/api/tables/by-code/{code}").get_json()["table"]
        assert "screen_url" not in found and found["code"] == code  # the rest of the shape is kept
    if not started:
        assert "screen_url" not in stranger.join(table.id).get_json()["table"]


def test_a_removed_player_does_not_get_the_screen_link(make_table):
    table = make_table(3)
    host, removed = table.players[0], table.players[2]
    code = host.state(table.id)["table"]["code"]
    assert host.request("DELETE", f"/api/tables/{table.id}/seats/3").status_code == 200
    assert "screen_url" not in removed.client.get(f"/api/tables/by-code/{code}").get_json()["table"]


def test_the_host_renews_the_screen_link_and_the_old_one_stops_working(make_table, app):
    table = make_table(6).start()
    old = _host_link(table)
    screen = app.test_client()
    assert _screen_state(screen, old).status_code == 200
    assert table.players[1].post(f"/api/tables/{table.id}/screen-link").status_code == 403  # not the host

    renewed = table.host.post(f"/api/tables/{table.id}/screen-link")
    assert renewed.status_code == 200
    new = renewed.get_json()["table"]["screen_url"]
    assert new != old and _host_link(table) == new
    gone = _screen_state(screen, old)
    assert gone.status_code == 404 and gone.get_json()["error"]["code"] == "table_not_found"
    assert _screen_state(screen, new).status_code == 200
    assert screen.get(urlsplit(new).path + "?" + urlsplit(new).query).status_code == 200  # its page


def test_the_host_page_offers_to_renew_the_screen_link_in_each_language(make_table):
    table = make_table(1)
    code = table.host.state(table.id)["table"]["code"]
    words = {"fr": "Nouveau lien", "en": "New link", "zh": "新的連結"}
    for lang, word in words.items():
        page = table.host.client.get(f"/t/{code}?lang={lang}").get_data(as_text=True)
        assert "screen-renew" in page and word in page, lang
