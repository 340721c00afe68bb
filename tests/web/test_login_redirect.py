"""After logging in, a player goes only to a path of this site (issue 33, finding 3)."""
from urllib.parse import quote

import pytest

from werewolf.web.pages import same_site_path

# Values of ?next= a crafted link may carry; each, read by a browser, leaves the site.
HOSTILE = [
    "//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    "/\\evil.example",
    "/\\\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%0d%0a/evil.example",
    "/%5Cevil.example",
    "/%5C%5Cevil.example",
    "/%2F/evil.example",
    "%2F%2Fevil.example",
    "https://evil.example",
    "https:evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,hi",
    "evil.example",
    "/\u2028/evil.example",
    "/\x00/evil.example",
    "/\x7f/evil.example",
    "",
]

SAME_SITE = ["/", "/t/ABCDE", "/account", "/?lang=en", "/t/ABCDE?x=1#chat", "/rules"]


@pytest.mark.parametrize("target", HOSTILE)
def test_a_path_that_leads_elsewhere_is_refused(target):
    assert same_site_path(target) is None


@pytest.mark.parametrize("target", SAME_SITE)
def test_a_path_of_this_site_is_kept(target):
    assert same_site_path(target) == target


@pytest.mark.parametrize("target", HOSTILE)
def test_the_login_page_sends_a_crafted_next_to_the_lobby(make_app, target):
    """The page's data-next (what auth.js follows) and the logged-in redirect both go home."""
    app = make_app()
    client = app.test_client()
    page = client.get("/login?next=" + quote(target, safe=""))
    assert page.status_code == 200
    assert 'data-next="/"' in page.get_data(as_text=True)

    token = client.get("/api/me").get_json()["csrf_token"]
    client.post("/api/auth/register", json={"name": "Alice", "password": "Lune pleine 42"},
                headers={"X-CSRFToken": token})
    redirected = client.get("/login?next=" + quote(target, safe=""))
    assert redirected.status_code == 302 and redirected.headers["Location"] == "/"


def test_the_login_page_keeps_a_path_of_this_site(make_app):
    app = make_app()
    client = app.test_client()
    assert 'data-next="/t/ABCDE?x=1"' in client.get("/login?next=" + quote("/t/ABCDE?x=1")).get_data(as_text=True)
