"""What the traffic shows: through each night and each day, a living seat's phone receives
as many answers, of the same sizes, whatever its role (web/poll.py: the living's views move
together while the game runs and their bodies are padded to one size).

Each phone polls as the page does with held polls: after every change of the game, with
the ETag of the last view it received (a write's answer is not taken: ``act`` here asks
for no view). Whole games with werewolves, the Seer, the Witch and the Little Girl.
"""
import random
from collections import defaultdict

import pytest

from tests.kit import audit
from werewolf.web import poll, view


def play_counting(table, rng) -> dict[tuple, dict[int, list[int]]]:
    """For each night and day (("night", 1), ("day", 1)...), for each seat living all
    through it: the sizes of its 200 answers."""
    etags: dict[int, str | None] = dict.fromkeys(table.seats)
    alive: set[int] = set(table.seats)
    answers: dict[tuple, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    died_during: dict[tuple, set[int]] = defaultdict(set)
    views: dict[int, dict] = {}
    received: dict[int, float] = {}  # the clock when each phone's view came
    for _ in range(2000):
        phase = None
        for seat, phone in table.seats.items():  # every phone's poll, woken by the change
            response = phone.state_response(table.id, etags[seat])
            if response.status_code == 200:
                views[seat], etags[seat] = response.get_json(), response.headers["ETag"]
                received[seat] = table.clock.now
                step = views[seat]["step"] or {}
                phase = next(((k, step[k]) for k in ("night", "day") if k in step), phase)
                if phase is not None and step and seat in alive:
                    answers[phase][seat].append(len(response.get_data()))
        living = {p["seat"] for p in views[next(iter(views))]["players"] if p["alive"]}
        if phase is not None:
            died_during[phase] |= alive - living
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
def test_by_night_and_by_day_a_living_seat_receives_the_same_answers_whatever_its_role(make_table, seed):
    table = make_table(10).start(roles={"little_girl": True, "cupid": False, "hunter": False})
    roles = {s: v["me"]["role"] for s, v in table.views().items()}
    assert {"werewolf", "seer", "witch", "little_girl", "villager"} <= set(roles.values()), roles
    phases = play_counting(table, random.Random(seed))
    assert {kind for kind, _ in phases} == {"night", "day"}, sorted(phases)
    for phase, by_seat in phases.items():
        counts = {s: len(sizes) for s, sizes in by_seat.items()}
        sizes = {s: sorted(sizes) for s, sizes in by_seat.items()}
        assert len(set(counts.values())) == 1, f"{phase}: answers per seat {counts}, roles {roles}"
        assert len({tuple(v) for v in sizes.values()}) == 1, f"{phase}: sizes {sizes}, roles {roles}"


def test_the_hosts_screen_link_fits_in_everyones_padding_whoever_asks_first(app, make_table):
    """Only the host's view names the room screen's link. Made long here (a public address of
    over 1 kB), it is more than the rounding's slack: a seat polling first must leave room for
    it, or the host's body would go unpadded and tell its true size."""
    app.config["PUBLIC_URL"] = "https://" + "loups-garous." * 90 + "example"
    table = make_table(6).start(roles={"cupid": False})
    while "day" not in (table.host.state(table.id)["step"] or {}):
        table.finish_step()
    views = table.views()
    host = next(s for s, v in views.items() if table.seats[s] is table.host)
    living = [s for s, v in views.items() if v["me"]["alive"]]
    speaker = next(s for s in living if s != host and views[s]["channels"]["write"] == "village")
    assert table.seats[speaker].chat(table.id, "village", "Bonjour !").status_code == 201
    sizes = {s: len(table.seats[s].state_response(table.id).get_data())  # the host polls last
             for s in sorted(living, key=lambda s: s == host)}
    assert host in sizes and len(set(sizes.values())) == 1, sizes


def test_the_padded_size_is_the_same_in_every_process_whether_the_host_or_a_guest_asks_first(app, make_table):
    """Each process sets the size to pad a rev's views to when the first of its phones asks.
    The host's view is longer than a guest's (the room screen's link, made over 1 kB here):
    the size must not depend on which came first, or phones would differ by their process."""
    app.config["PUBLIC_URL"] = "https://" + "loups-garous." * 90 + "example"
    table = make_table(6).start(roles={"cupid": False})
    views = table.views()
    host = next(s for s in views if table.seats[s] is table.host)
    guest = next(s for s, v in views.items() if s != host and v["me"]["alive"])
    sizes = {}
    for first in (host, guest):
        poll._living_kept.clear()  # as a process that has not made this rev's views yet
        view.view_cache(app).clear()
        sizes[first] = len(table.seats[first].state_response(table.id).get_data())
    assert sizes[host] == sizes[guest], sizes


@pytest.mark.parametrize("length, padded", [(1000, 1024), (1024, 1024), (1025, 2048), (3000, 3072)])
def test_a_body_longer_than_its_padding_still_goes_out_in_whole_kibibytes(app, length, padded):
    """A phone naming the server by a longer host name than the phone that set the size gets
    a longer table part: its body is padded to the next KiB, never sent at its true size."""
    body = b'{"x":"' + b"a" * (length - 9) + b'"}\n'
    with app.app_context():
        sent = view.json_response(body, None, 0.0, "etag", size=1024).body
    assert len(body) == length and len(sent) == padded and sent.strip() == body.strip()
