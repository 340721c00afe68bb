"""The room's big screen: a read-only key, no account, and never more than the public view."""
import random
from urllib.parse import parse_qs, urlsplit

from tests.kit import audit
from tests.kit.saykit import said_keys
from werewolf.web.strings import client_strings

from .test_auth import error_code
from .test_spectators import assert_public_view, public_view


def screen_of(table) -> tuple[str, str]:
    url = urlsplit(table.host.state(table.id)["table"]["screen_url"])
    assert url.path == f"/tables/{table.id}/screen"
    return url.path, parse_qs(url.query)["key"][0]


def test_a_wrong_key_is_the_same_404_as_no_table(app, make_table):
    table, other = make_table(2), make_table(2)
    _, key = screen_of(table)
    _, other_key = screen_of(other)
    assert key != other_key
    anonymous = app.test_client()
    missing = anonymous.get(f"/api/tables/nosuchtable/screen?key={key}")
    assert missing.status_code == 404 and error_code(missing) == "table_not_found"
    for query in ("", "?key=", f"?key={other_key}", f"?key={key[:-1]}", f"?key={key}x", "?key=%00"):
        response = anonymous.get(f"/api/tables/{table.id}/screen{query}")
        assert response.status_code == 404, query
        assert response.get_json() == missing.get_json()
        assert anonymous.get(f"/tables/{table.id}/screen{query}").status_code == 404
    page = anonymous.get(f"/tables/{table.id}/screen?key={key}")
    assert page.status_code == 200 and table.id in page.get_data(as_text=True)
    # Its language switch keeps the key.
    assert f'href="/tables/{table.id}/screen?key={key}&amp;lang=zh"' in page.get_data(as_text=True)
    assert "語音旁白" in anonymous.get(f"/tables/{table.id}/screen?key={key}&lang=zh").get_data(as_text=True)


def test_the_screen_shows_the_lobby_without_an_account(app, make_table):
    table = make_table(3)
    _, key = screen_of(table)
    view = app.test_client().get(f"/api/tables/{table.id}/screen?key={key}").get_json()
    assert view["me"] is None and view["status"] == "lobby"
    assert [p["name"] for p in view["players"]] == [p.name for p in table.players]
    assert view["table"]["code"] and view["table"]["url"]


def test_the_screen_state_is_exactly_the_public_view(app, make_table, clock):
    table = make_table(9).start()  # spectators off: the screen works all the same
    _, key = screen_of(table)
    screen = app.test_client()
    truth = {seat: v["me"]["role"] for seat, v in table.views().items()}
    checked = 0
    etag = None

    def check(views):
        nonlocal checked, etag
        response = screen.get(f"/api/tables/{table.id}/screen?key={key}")
        assert response.status_code == 200
        seen = response.get_json()
        if seen["status"] == "ended":
            return
        assert_public_view(seen, public_view(app, table.id, clock.now))
        again = screen.get(f"/api/tables/{table.id}/screen?key={key}",
                           headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304
        checked += 1

    table.play_to_end(random.Random(8), on_views=check)
    assert checked > 10
    end = screen.get(f"/api/tables/{table.id}/screen?key={key}").get_json()
    assert {p["seat"]: p["role"] for p in end["players"]} == truth  # the end, with every card


def test_the_room_has_words_for_every_public_event_kind_and_none_for_a_secret(app):
    """Walks the catalog's event kinds: each public one (the audit's oracle, from A9) is declared with
    its words (the one renderer, static/js/story.js, tells it on the room's screen as on a phone),
    but the steps and single ballots, which the narration and the tiles show; every key it may say
    has words in every language."""
    catalog = app.test_client().get("/api/catalog").get_json()
    kinds = set(catalog["events"])
    shapes = catalog["event_shapes"]
    assert kinds <= audit.ALL_KINDS, "the oracle decides who sees each kind"
    assert kinds == set(shapes), "every kind declared"
    public = kinds & audit.PUBLIC_KINDS
    assert {kind for kind in public if not shapes[kind]["says"]} == {"step", "vote_cast"}, \
        "public kinds without words on the room's screen"
    said = {key for kind in public for key in said_keys(shapes[kind]["says"])}
    for lang in ("fr", "en", "zh"):
        with app.test_request_context(f"/?lang={lang}"):
            strings = client_strings()
        assert said - set(strings) == set(), lang


def test_the_catalog_says_who_is_told_each_event_kind_as_the_oracle_does(app):
    """The pages hide the secret kinds while a card is face down, from the catalog's public_events
    and end_events: each module's declaration must agree with the audit's hand-written oracle."""
    catalog = app.test_client().get("/api/catalog").get_json()
    kinds = set(catalog["events"])
    assert set(catalog["public_events"]) == kinds & audit.PUBLIC_KINDS
    assert set(catalog["end_events"]) == kinds & audit.HIDDEN_KINDS
