"""Live across servers: two gunicorn instances over one database (PostgreSQL with
``./scripts/test-postgres tests/system/test_live.py``: LISTEN/NOTIFY; SQLite: the change
board beside the file), a phone waiting on one sees a vote cast on the other at once."""
import threading
import time

from tests.system.test_processes import seat_table, server_factory, wait_for_step  # noqa: F401 (a fixture)

WITHIN = 0.5  # seconds from the vote's answer to the waiting phone's


def test_a_vote_cast_on_one_server_wakes_a_phone_waiting_on_the_other(server_factory):  # noqa: F811
    scale = 0.02
    a, b = (server_factory(workers=2, time_scale=scale, name=name) for name in ("a", "b"))
    a.start()
    b.start()
    limits = {step: 30 for step in ("cupid", "seer", "werewolves", "witch", "hunter", "succession",
                                    "tiebreak", "election", "dawn", "debate")}
    limits["vote"] = 1500  # 30 s at this scale: the vote stays open for the test
    table_id, seats = seat_table(a, 6, {"limits": limits, "captain": False}, prefix="L")
    view = wait_for_step(seats[1], table_id, "vote")
    living = [p["seat"] for p in view["players"] if p["alive"]]
    voter, watcher = seats[living[0]], seats[living[1]]
    watcher.server = b  # the same session, on the other server
    first = watcher.call("GET", f"/api/tables/{table_id}/state")
    assert first.status_code == 200 and first.json()["step"]["id"] == "vote"
    answered = {}

    def wait_on_b():
        started = time.monotonic()
        answered["response"] = watcher.session.get(
            b.url + f"/api/tables/{table_id}/state", timeout=30,
            headers={"If-None-Match": first.headers["ETag"], "Prefer": "wait=20"})
        answered["at"], answered["held"] = time.monotonic(), time.monotonic() - started

    waiting = threading.Thread(target=wait_on_b)
    waiting.start()
    time.sleep(0.3)  # the poll reaches b and waits there
    assert not answered, "the poll was not held"
    vote = voter.call("POST", f"/api/tables/{table_id}/act",
                      {"action": "vote.cast", "target": living[2], "step": view["step"]["seq"]})
    voted_at = time.monotonic()
    assert vote.status_code == 200, vote.text
    waiting.join(timeout=25)
    response = answered["response"]
    assert response.status_code == 200 and response.headers["Preference-Applied"] == "wait=20"
    assert response.json()["votes"] != first.json()["votes"]
    assert answered["at"] - voted_at < WITHIN, answered["at"] - voted_at
