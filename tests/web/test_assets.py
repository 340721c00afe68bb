"""Static files fingerprinted and cached for a year; pages and the table list gzipped; the
table list answers 304 when unchanged."""
import gzip
import re


def test_static_urls_carry_a_fingerprint_and_are_cached_for_a_year(app, make_player):
    alice = make_player()
    page = alice.client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/css/app\.css\?v=[0-9a-f]{12})"', page)
    assert css, page[:600]
    response = alice.client.get(css.group(1))
    assert response.status_code == 200
    assert response.cache_control.max_age == 365 * 24 * 3600 and response.cache_control.immutable
    plain = alice.client.get("/static/css/app.css")
    assert plain.cache_control.max_age != 365 * 24 * 3600  # without its fingerprint: not for a year


def test_pages_are_gzipped_for_browsers_that_accept_it(app, make_player):
    alice = make_player()
    response = alice.client.get("/rules", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert "<h1>" in gzip.decompress(response.get_data()).decode()
    assert "Content-Encoding" not in alice.client.get("/rules").headers


def test_the_table_list_answers_304_when_unchanged(app, make_player):
    alice, bob = make_player(), make_player()
    for encoding in ({}, {"Accept-Encoding": "gzip"}):
        first = alice.client.get("/api/tables", headers=encoding)
        assert first.status_code == 200 and first.headers["ETag"]
        again = alice.client.get("/api/tables", headers={"If-None-Match": first.headers["ETag"], **encoding})
        assert again.status_code == 304 and again.get_data() == b""
        assert "Content-Encoding" not in again.headers
    etag = alice.client.get("/api/tables").headers["ETag"]
    new = bob.create_table(name="Nouvelle")
    assert alice.client.get("/api/tables", headers={"If-None-Match": etag}).status_code == 304  # unlisted
    bob.post(f"/api/tables/{new}/visibility", {"public": True})
    changed = alice.client.get("/api/tables", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and "Nouvelle" in changed.get_data(as_text=True)
