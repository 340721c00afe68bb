"""What the traffic shows: at night, a living seat's phone receives as many answers, of the
same sizes, whatever its role (web/poll.py: the living's views move together at night and
their bodies are padded to one size).

Each phone polls as the page does with held polls: after every change of the game, with
the ETag of the last view it received (a write's answer is not taken: ``act`` here asks
for no view). Whole games with werewolves, the Seer, the Witch and the Little Girl.
"""
import random
from collections import defaultdict

import pytest

from tests.kit import audit


def play_counting(table, rng) -> dict[int, dict[int, list[int]]]:
    """For each night, for each seat living all that night: the sizes of its 200 answers."""
    etags: dict[int, str | None] = dict.fromkeys(table.seats)
    alive: set[int] = set(table.seats)
    answers: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    died_during: dict[int, set[int]] = defaultdict(set)
    views: dict[int, dict] = {}
    received: dict[int, float] = {}  # the clock when each phone's view came
    for _ in range(2000):
        night = None
        for seat, phone in table.seats.items():  # every phone's poll, woken by the change
            response = phone.state_response(table.id, etags[seat])
            if response.status_code == 200:
                views[seat], etags[seat] = response.get_json(), response.headers["ETag"]
                received[seat] = table.clock.now
                step = views[seat]["step"] or {}
                night = step.get("night", night)
                if night is not None and "night" in step and seat in alive:
                    answers[night][seat].append(len(response.get_data()))
        living = {p["seat"] for p in views[next(iter(views))]["players"] if p["alive"]}
        if night is not None:
            died_during[night] |= alive - living
        alive = living
        some = views[next(iter(views))]
        if some["status"] == "ended":
            return {n: {s: sizes for s, sizes in by_seat.items() if s not in died_during[n]}
                    for n, by_seat in answers.items()}
        actors = [(s, v["prompt"]) for s, v in views.items() if v["prompt"]]
        if not actors or rng.random() < 0.15:
            # Time passes as for phones whose held polls look again every 5 s (poll.RECHECK_EVERY):
            # nobody is ever shown as gone. The poll after the deadline moves the game on.
            first = next(iter(views))
            left = views[first]["step"]["seconds_left"] - (table.clock.now - received[first])
            table.clock.advance(min(5.0, max(0.0, left) + 0.05))
            continue
        seat, prompt = rng.choice(actors)
        response = table.seats[seat].act(table.id, **audit.random_move(prompt, rng, abstain=0.1))
        assert response.status_code in (200, 409), response.get_json()  # 409: its step just ended
        if rng.random() < 0.3:
            channel = views[seat]["channels"]["write"]
            if channel:
                table.seats[seat].chat(table.id, channel, "Qui ?" * rng.randint(1, 40))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", [1, 2])
def test_at_night_a_living_seat_receives_the_same_answers_whatever_its_role(make_table, seed):
    table = make_table(10).start(roles={"little_girl": True, "cupid": False, "hunter": False})
    roles = {s: v["me"]["role"] for s, v in table.views().items()}
    assert {"werewolf", "seer", "witch", "little_girl", "villager"} <= set(roles.values()), roles
    nights = play_counting(table, random.Random(seed))
    assert nights
    for night, by_seat in nights.items():
        counts = {s: len(sizes) for s, sizes in by_seat.items()}
        sizes = {s: sorted(sizes) for s, sizes in by_seat.items()}
        assert len(set(counts.values())) == 1, f"night {night}: answers per seat {counts}, roles {roles}"
        assert len({tuple(v) for v in sizes.values()}) == 1, f"night {night}: sizes {sizes}, roles {roles}"
