"""A guest joins by a table's link with only a name (issue 35, point 10): an account with
no password, seated at once, that its owner may protect later; within the registration
limits, and never opened by a password."""
from .conftest import Player
from .test_auth import error_code
from .test_joining import code_of

PASSWORD = "Lune pleine 42"


def test_a_guest_sits_by_the_link_with_a_name_then_protects_the_account(app, make_table):
    table = make_table(2)
    guest = Player(app, "Zoé")
    answer = guest.post("/api/auth/register", {"name": "Zoé", "table_code": code_of(table)})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["user"]["guest"] is True and answer.get_json()["table"]["seated"] is True
    assert guest.state(table.id)["me"]["name"] == "Zoé"
    assert guest.client.get("/api/me").get_json()["user"]["guest"] is True
    # No password opens it by the log-in form (one try: the throttle counts failures).
    for password in ("guest",):
        refused = Player(app, "Zoé").post("/api/auth/login", {"name": "Zoé", "password": password})
        assert refused.status_code in (400, 401) and error_code(refused) in ("bad_credentials", "bad_request")
    # Its owner gives it a password, with no old one: an ordinary account from then on.
    weak = guest.post("/api/auth/password", {"new_password": "motdepasse"})
    assert weak.status_code == 400
    done = guest.post("/api/auth/password", {"new_password": PASSWORD})
    assert done.status_code == 200 and done.get_json()["user"]["guest"] is False
    again = Player(app, "Zoé").post("/api/auth/login", {"name": "Zoé", "password": PASSWORD})
    assert again.status_code == 200
    # Once protected, a change needs the old password again.
    assert guest.post("/api/auth/password", {"new_password": "Soleil levant 7"}).status_code == 403


def test_only_a_table_link_makes_a_guest_and_the_name_rules_hold(app, make_table, make_player):
    table = make_table(2)
    bare = Player(app, "Yann").post("/api/auth/register", {"name": "Yann"})
    assert bare.status_code == 400 and error_code(bare) == "invalid_password"
    taken = Player(app, table.host.name).post("/api/auth/register", {"name": table.host.name,
                                                                   "table_code": code_of(table)})
    assert taken.status_code == 409 and error_code(taken) == "name_taken"


def test_no_guest_when_registration_is_closed(make_app, make_table):
    app = make_app(REGISTRATION="closed")
    refused = Player(app, "Zoé").post("/api/auth/register", {"name": "Zoé", "table_code": "ABCDE"})
    assert refused.status_code == 403 and error_code(refused) == "registration_closed"


def test_a_guest_may_delete_the_account_without_a_password(app, make_table):
    table = make_table(2)
    guest = Player(app, "Zoé")
    assert guest.post("/api/auth/register", {"name": "Zoé", "table_code": code_of(table)}).status_code == 201
    assert guest.request("DELETE", "/api/me", {}).status_code == 200
    assert guest.client.get("/api/me").get_json()["user"] is None
