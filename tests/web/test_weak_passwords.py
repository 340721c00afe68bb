"""The worst passwords are refused, saying why; table codes cannot be guessed fast (issue 33,
finding 10)."""
import pytest

from tests.web.conftest import Player, in_one_rate_window
from werewolf.web.security import DEFAULT_LIMITS

WEAK = [
    ("1234", "invalid_password"),
    ("    ", "invalid_password"),
    ("abc1234", "invalid_password"),  # 7 characters
    ("        ", "password_too_simple"),
    ("aaaaaaaaaa", "password_too_simple"),
    ("abababab", "password_too_simple"),
    ("Mallory", "invalid_password"),
    ("mallory the bold", "password_is_name"),
    ("MALLORY THE BOLD", "password_is_name"),
    ("Mallory-the-Bold", "password_is_name"),
    ("12345678", "password_too_common"),
    ("password", "password_too_common"),
    ("Mot de passe", "password_too_common"),
    ("motdepasse123", "password_too_common"),
    ("AZERTYUIOP", "password_too_common"),
    ("woaini1314", "password_too_common"),
    ("Loup-Garou", "password_too_common"),
]


@pytest.mark.parametrize("password, code", WEAK)
def test_a_new_account_with_one_of_the_worst_passwords_is_refused(app, password, code):
    player = Player(app, "Mallory the Bold", password)
    response = player.post("/api/auth/register", {"name": player.name, "password": password})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == code
    assert player.client.get("/api/me").get_json()["user"] is None


@pytest.mark.parametrize("password, code", WEAK)
def test_a_new_password_among_the_worst_is_refused(make_player, password, code):
    player = make_player("Mallory the Bold")
    response = player.post("/api/auth/password", {"old_password": player.password, "new_password": password})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == code
    again = Player(player.app, player.name)
    assert again.post("/api/auth/login", {"name": player.name, "password": player.password}).status_code == 200


def test_an_ordinary_password_is_accepted(app):
    assert Player(app, "Mallory", "la lune est pleine").register()


def test_an_account_made_with_a_weak_password_before_still_logs_in(app):
    """The rule is for new passwords: nobody is locked out of an account they have."""
    from werewolf.extensions import db
    from werewolf.models import User
    from werewolf.service import accounts
    with app.app_context():
        player = Player(app, "Ancien", "Lune pleine 42").register()
        user = db.session.query(User).filter_by(name="Ancien").one()
        user.password_hash = accounts._hash("1234")
        db.session.commit()
    assert player.post("/api/auth/login", {"name": "Ancien", "password": "1234"}).status_code == 200


@pytest.mark.parametrize("lang", ["fr", "en", "zh"])
def test_each_refusal_is_said_in_words(app, lang):
    client = app.test_client()
    page = client.get(f"/register?lang={lang}").get_data(as_text=True)
    from werewolf.web.strings import client_strings
    with app.test_request_context(f"/?lang={lang}"):
        words = client_strings()
    for code in {code for _, code in WEAK}:
        assert words.get("err." + code), code
    assert words["err.password_too_common"] != words["err.generic"]
    assert "8" in words["err.invalid_password"] and "8" in page  # the page's hint says the length


def test_guessing_table_codes_is_slowed(make_app):
    assert DEFAULT_LIMITS["CODE_LOOKUP_RATE_LIMIT"] == "10 per minute; 60 per hour"
    app = make_app()
    host, guesser = Player(app, "Hôte").register(), Player(app, "Curieux").register()
    code = host.post("/api/tables", {}).get_json()["table"]["code"]
    assert guesser.client.get(f"/api/tables/by-code/{code}").status_code == 200  # a right code does not count
    in_one_rate_window()
    statuses = [guesser.client.get(f"/api/tables/by-code/ZZZZ{i}").status_code for i in range(2, 14)]
    assert statuses == [404] * 10 + [429] * 2
    limited = guesser.client.get(f"/api/tables/by-code/{code}")
    assert limited.status_code == 429 and limited.get_json()["error"]["code"] == "too_many_requests"
    assert 0 < int(limited.headers["Retry-After"]) <= 60
    # Another account behind the same address is not slowed by these ten.
    assert host.client.get(f"/api/tables/by-code/{code}").status_code == 200


def test_guessing_table_codes_from_many_accounts_of_one_address_is_slowed(make_app):
    app = make_app(CODE_LOOKUP_ADDRESS_RATE_LIMIT="4 per minute")
    in_one_rate_window()
    statuses = [Player(app, f"Compte{i}").register().client.get("/api/tables/by-code/ZZZZZ").status_code
                for i in range(6)]
    assert statuses == [404] * 4 + [429] * 2
