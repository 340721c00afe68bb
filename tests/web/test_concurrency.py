"""Two requests at once, idempotent deadlines, and a game that survives a restart."""
import random
import threading

from tests.conftest import requires_sqlite
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
        assert sorted(job.id for job in first.get_jobs()) == ["advance_due", "checkpoint", "sweep"]
    finally:
        scheduler.stop(app)


@requires_sqlite
def test_requests_leave_the_write_ahead_log_to_the_checkpoint_job(app, make_table):
    """Writes stay in the WAL (no COMMIT pays for copying it); the job copies it into the file."""
    import os

    make_table(6).start()
    with app.app_context():
        database = db.engine.url.database
    before = os.stat(database).st_mtime_ns
    assert os.path.getsize(database + "-wal") > 0
    scheduler.checkpoint(app)
    assert os.stat(database).st_mtime_ns != before


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


def _move_in_between(monkeypatch, other_move):
    """Make ``other_move()`` happen once, between a move's read of the game and its write."""
    from werewolf import store

    real = store.load_for_update
    pending = [other_move]

    def load_then_move(read):
        game = real(read)
        if pending:
            pending.pop()()
        return game

    monkeypatch.setattr(store, "load_for_update", load_then_move)


def _write_directly(app, game_id: int, change, now: float):
    """Another worker's move: read, change, write, bypassing this process's queue."""
    from werewolf import store

    with app.app_context():
        read = store.read_game(game_id)
        game = store.load_for_update(read)
        change(game)
        assert store.save_if_unchanged(read, game, [])


def _game_id(table) -> int:
    from werewolf.models import Table as TableRow

    with table.app.app_context():
        return db.session.get(TableRow, table.id).current_game_id


def test_a_move_whose_game_moved_meanwhile_is_played_again_on_the_new_state(make_table, monkeypatch, clock):
    from werewolf import engine

    table = make_table(6).start()
    for _ in range(20):  # on to a step where somebody may write
        writers = [(s, v["channels"]["write"]) for s, v in table.views().items() if v["channels"]["write"]]
        if writers:
            break
        table.finish_step()
    seat, channel = writers[0]
    _move_in_between(monkeypatch, lambda: _write_directly(
        table.app, _game_id(table), lambda g: engine.post_chat(g, seat, channel, "first", clock.now), clock.now))
    assert table.seats[seat].chat(table.id, channel, "second").status_code == 201
    texts = [m["text"] for m in table.seats[seat].state(table.id)["chat"][channel]]
    assert texts[-2:] == ["first", "second"]  # neither write lost the other


def test_a_refusal_by_a_state_already_gone_is_judged_again(make_table, monkeypatch, clock):
    """The step moves on between the read and the rules: the action for the new step counts."""
    from werewolf import engine

    table = make_table(6).start(roles={"cupid": False})
    game_id = _game_id(table)
    views = table.views()
    seer = next(s for s, v in views.items() if v["me"]["role"] == "seer")
    assert views[seer]["step"]["id"] == "seer"
    step = views[seer]["step"]["seq"]
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    target = next(s for s, v in views.items() if v["me"]["role"] not in ("werewolf",) and s != seer)

    def seer_looks(game):
        engine.apply(game, seer, {"action": "seer.look", "target": wolf}, clock.now)

    # The wolves' step has not begun when the wolf's request reads the game; it has when it writes.
    _move_in_between(monkeypatch, lambda: _write_directly(table.app, game_id, seer_looks, clock.now))
    response = table.seats[wolf].act(table.id, "werewolves.designate", target=target, step=step + 1)
    assert response.status_code == 200, response.get_json()


def test_an_act_for_a_step_already_over_is_refused_without_reading_the_game(make_table, monkeypatch):
    from werewolf import store

    table = make_table(6).start(roles={"cupid": False})
    views = table.views()  # every process-level cache now holds the current game
    seer = next(s for s, v in views.items() if v["me"]["role"] == "seer")
    step = views[seer]["step"]["seq"]
    table.finish_step()
    table.views()

    def no_read(game_id):
        raise AssertionError("the game was read for a move refused for good")

    monkeypatch.setattr(store, "read_game", no_read)
    response = table.seats[seer].act(table.id, "seer.look", target=1 if seer != 1 else 2, step=step)
    assert response.status_code == 409 and error_code(response) == "stale_step"
