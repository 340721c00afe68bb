"""Players as HTTP clients: each one registers, keeps its CSRF token and plays through the API."""
import itertools
import random
import time

import pytest

from tests.kit import audit

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo", "Inès",
         "Jules", "Karim", "Léa", "Malo", "Nora", "Oscar", "Paula", "Quentin", "Rose"]


class Player:
    def __init__(self, app, name: str, password: str = "Lune pleine 42"):
        self.app, self.name, self.password = app, name, password
        self.client = app.test_client()
        self.token = self.client.get("/api/me").get_json()["csrf_token"]
        self.etag = None

    # HTTP with the CSRF header, as the page sends it
    def request(self, method: str, path: str, json=None, csrf: bool = True, **kwargs):
        headers = kwargs.pop("headers", {})
        if csrf:
            headers["X-CSRFToken"] = self.token
        return self.client.open(path, method=method, json=json, headers=headers, **kwargs)

    def post(self, path, json=None, **kwargs):
        return self.request("POST", path, json, **kwargs)

    def register(self):
        response = self.post("/api/auth/register", {"name": self.name, "password": self.password})
        assert response.status_code == 201, response.get_json()
        return self

    # tables
    def create_table(self, **body) -> str:
        response = self.post("/api/tables", body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["table"]["id"]

    def join(self, table_id: str):
        return self.post(f"/api/tables/{table_id}/join")

    def state_response(self, table_id: str, etag: str | None = None):
        headers = {"If-None-Match": etag} if etag else {}
        return self.client.get(f"/api/tables/{table_id}/state", headers=headers)

    def state(self, table_id: str) -> dict:
        response = self.state_response(table_id)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def act(self, table_id: str, action: str, **fields):
        return self.post(f"/api/tables/{table_id}/act", {"action": action, **fields})

    def chat(self, table_id: str, channel: str, text):
        return self.post(f"/api/tables/{table_id}/chat", {"channel": channel, "text": text})


class Table:
    """A table of registered players; ``seats[n]`` is the player in seat n once started."""

    def __init__(self, app, clock, players: list[Player], table_id: str):
        self.app, self.clock, self.players, self.id = app, clock, players, table_id
        self.seats: dict[int, Player] = {}

    @property
    def host(self) -> Player:
        return self.players[0]

    def start(self, **settings):
        if settings:
            response = self.host.request("PATCH", f"/api/tables/{self.id}/settings", settings)
            assert response.status_code == 200, response.get_json()
        response = self.host.post(f"/api/tables/{self.id}/start")
        assert response.status_code == 200, response.get_json()
        self.map_seats()
        return self

    def map_seats(self):
        self.seats = {p.state(self.id)["me"]["seat"]: p for p in self.players}

    def views(self) -> dict[int, dict]:
        return {seat: p.state(self.id) for seat, p in self.seats.items()}

    def finish_step(self):
        """Let the current step's time run out; the next poll advances the game."""
        view = self.host.state(self.id)
        if view["step"]:
            self.clock.advance(view["step"]["seconds_left"] + 0.5)

    def play_to_end(self, rng: random.Random, on_views=None, max_rounds: int = 2000) -> dict[int, dict]:
        """Play random legal moves (as the prompts offer them) until the game ends."""
        for _ in range(max_rounds):
            views = self.views()
            if on_views:
                on_views(views)
            if next(iter(views.values()))["status"] == "ended":
                return views
            actors = [(seat, v["prompt"]) for seat, v in views.items() if v["prompt"]]
            if not actors or rng.random() < 0.15:
                self.finish_step()  # nobody left to act, or let the time run out sometimes
                continue
            seat, prompt = rng.choice(actors)
            response = self.seats[seat].act(self.id, **audit.random_move(prompt, rng, abstain=0.1))
            assert response.status_code == 200, response.get_json()
        raise AssertionError("the game did not end")



@pytest.fixture
def make_player(app):
    counter = itertools.count()

    def make(name: str | None = None) -> Player:
        i = next(counter)
        return Player(app, name or f"{NAMES[i % len(NAMES)]}{i // len(NAMES) or ''}").register()

    return make


@pytest.fixture
def make_table(app, clock, make_player):
    """``make_table(n)``: a waiting table with n seated players, the first one hosting."""

    def make(n: int) -> Table:
        players = [make_player() for _ in range(n)]
        table_id = players[0].create_table(name="Thiercelieux")
        for p in players[1:]:
            assert p.join(table_id).status_code == 200
        return Table(app, clock, players, table_id)

    return make


def in_one_rate_window(seconds: int = 60, room: float = 5.0) -> int:
    """Flask-Limiter's sliding window counter (web/security.py) counts in windows of the wall
    clock, and lets a burst across two of them through a few more times (the previous window's
    count is weighed as if spread over it). Before a burst that must meet a limit exactly: wait,
    if need be, for a window with ``room`` seconds left; its number."""
    left = seconds - time.time() % seconds
    if left < room:
        time.sleep(left)
    return int(time.time() // seconds)
