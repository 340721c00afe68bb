"""Failed logins slow the attacker, never the owner nor the others behind the same address
(issue 33, finding 4)."""
from tests.web.conftest import Player

ATTACKER, OWNER_ELSEWHERE = "203.0.113.7", "198.51.100.4"


def _from(app, address: str, name: str = "Passant") -> Player:
    player = Player(app, name)
    player.client.environ_base["REMOTE_ADDR"] = address
    return player


def _login(player: Player, name: str, password: str):
    return player.post("/api/auth/login", {"name": name, "password": password})


def test_the_owner_logs_in_after_an_attackers_burst(app, clock):
    owner = Player(app, "Victime", "Lune pleine 42").register()
    attacker = _from(app, ATTACKER)
    for i in range(25):
        _login(attacker, "Victime", f"essai {i}")
        clock.advance(400)  # even waiting out every delay
    assert _login(_from(app, OWNER_ELSEWHERE), "Victime", owner.password).status_code == 200
    assert _login(Player(app, "Victime"), "Victime", owner.password).status_code == 200  # a third place


def test_the_attacker_is_slowed_more_and_more(app, clock):
    Player(app, "Victime", "Lune pleine 42").register()
    attacker = _from(app, ATTACKER)
    assert [_login(attacker, "Victime", f"essai {i}").status_code for i in range(3)] == [401] * 3
    waits = []
    for i in range(4):
        held = _login(attacker, "Victime", "encore")
        assert held.status_code == 429 and held.get_json()["error"]["code"] == "too_many_requests"
        waits.append(int(held.headers["Retry-After"]))
        clock.advance(waits[-1])
        assert _login(attacker, "Victime", f"autre {i}").status_code == 401
    assert waits == [1, 2, 4, 8]
    # Still failing: even the right password waits, from this client.
    assert _login(attacker, "Victime", "Lune pleine 42").status_code == 429


def test_others_behind_the_same_address_are_not_blocked(app, clock):
    for n in range(4):
        Player(app, f"Victime{n}", "Lune pleine 42").register()
    neighbour = Player(app, "Voisine", "Soleil levant 9").register()
    attacker = _from(app, ATTACKER)
    for i in range(40):  # 40 failures from the home router, over four names
        _login(attacker, f"Victime{i % 4}", f"essai {i}")
        clock.advance(70)  # each name again within FailedLogins.FORGET_AFTER, past its delay
    same_router = _from(app, ATTACKER)
    assert _login(same_router, "Voisine", neighbour.password).status_code == 200
    assert _login(same_router, "Voisine", "faute de frappe").status_code == 401  # her own typo costs her nothing more
    assert _login(same_router, "Voisine", neighbour.password).status_code == 200
