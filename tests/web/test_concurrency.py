"""Two requests at once, idempotent deadlines, and a game that survives a restart."""
import random
import threading

from werewolf import scheduler, service
from werewolf.extensions import db

from .test_auth import error_code


def at_once(*calls):
    """Run the calls in threads released together; return their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        results[i] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


def test_two_concurrent_requests_for_the_same_step(make_table):
    table = make_table(6).start(roles={"cupid": False, "seer": False, "hunter": False})
    views = table.views()
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    witch = next(s for s, v in views.items() if v["me"]["role"] == "witch")
    target = next(s for s in views if s not in (wolf, witch))
    assert table.seats[wolf].act(table.id, "werewolves.designate", target=target).status_code == 200
    step = table.seats[witch].state(table.id)["prompt"]["step"]
    results = at_once(*[lambda: table.seats[witch].act(table.id, "witch.done", step=step)] * 2)
    statuses = sorted(r.status_code for r in results)
    assert statuses == [200, 409]
    refused = next(r for r in results if r.status_code == 409)
    assert error_code(refused) in ("stale_step", "wrong_step")
    view = table.host.state(table.id)
    assert view["step"]["id"] == "dawn" and view["step"]["seq"] == step + 1


def test_concurrent_votes_are_all_counted(make_table):
    table = make_table(8).start(roles={"cupid": False, "seer": False, "witch": False, "hunter": False},
                                captain=False)
    while table.host.state(table.id)["step"]["id"] != "debate":
        table.finish_step()
    table.finish_step()
    views = table.views()
    assert views[1]["step"]["id"] == "vote"
    living = [s for s, v in views.items() if v["me"]["alive"]]
    target = living[0]
    results = at_once(*[(lambda s=s: table.seats[s].act(table.id, "vote.cast", target=target))
                        for s in living])
    assert [r.status_code for r in results] == [200] * len(living)
    view = table.host.state(table.id)
    result = next(e for e in reversed(view["events"]) if e["kind"] == "vote_result")
    assert result["eliminated"] == target and result["tally"] == {str(target): len(living)}


def test_advancing_a_due_game_is_idempotent(app, make_table, clock):
    table = make_table(6).start()
    view = table.host.state(table.id)
    seq = view["step"]["seq"]
    clock.advance(view["step"]["seconds_left"] + 1)

    def advance():
        with app.app_context():
            return service.advance_due(clock())

    results = at_once(advance, advance, advance)
    assert sorted(results) == [0, 0, 1]
    assert advance() == 0
    assert table.host.state(table.id)["step"]["seq"] == seq + 1


def test_the_scheduler_tick_advances_due_games_once(app, make_table, clock):
    table = make_table(6).start()
    seq = table.host.state(table.id)["step"]["seq"]
    assert scheduler.tick(app) == 0  # not due yet
    clock.advance(3600)
    assert scheduler.tick(app) == 1
    assert scheduler.tick(app) == 0  # the next step's deadline is counted from the advance
    assert table.host.state(table.id)["step"]["seq"] == seq + 1


def test_the_scheduler_starts_once_per_app(app):
    first = scheduler.start(app)
    try:
        assert scheduler.start(app) is first
        assert len(first.get_jobs()) == 1
    finally:
        scheduler.stop(app)


def test_a_game_resumes_after_the_app_is_recreated(make_app, make_table, clock):
    table = make_table(6).start()
    before = table.views()
    seq = before[1]["step"]["seq"]

    restarted = make_app()  # a new process over the same database
    for player in table.players:
        player.app = restarted
        player.client.application = restarted
    assert table.views() == before
    clock.advance(before[1]["step"]["seconds_left"] + 1)
    with restarted.app_context():
        assert service.advance_due(clock()) == 1
        db.session.remove()
    after = table.views()
    assert after[1]["step"]["seq"] == seq + 1
    table.play_to_end(random.Random(5))
