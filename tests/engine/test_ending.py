"""Ends without a winning camp: the host stops the game, nobody plays it, a player leaves."""
import pytest
from enginekit import Table

from werewolf import engine

CARDS = "W V V seer witch hunter"


def test_stop_ends_the_game_for_everyone_with_every_card_shown():
    t = Table(CARDS)
    t.tick()
    engine.stop(t.game, t.now, "stopped")
    assert t.game.status == "ended" and t.game.step is None and t.game.deadline is None
    assert t.game.winner == {"camp": "none", "reason": "stopped", "seats": []}
    assert t.last("game_end")["winner"] == t.game.winner
    for seat in range(1, 7):
        view = t.view(seat)
        assert view["winner"]["reason"] == "stopped" and view["step"] is None and view["prompt"] is None
        assert [p["role"] for p in view["players"]] == [p.role for p in t.game.players]
    assert not engine.advance(t.game, t.now + 10_000)


def test_stop_refuses_a_game_already_over_and_unknown_reasons():
    t = Table(CARDS)
    with pytest.raises(ValueError):
        engine.stop(t.game, t.now, "bored")
    engine.stop(t.game, t.now)
    with pytest.raises(engine.IllegalAction) as refused:
        engine.stop(t.game, t.now)
    assert refused.value.code == "game_over"


def nights_until_end(t: Table, limit: int = 10) -> int:
    for _ in range(200):
        if t.game.status != "running":
            return t.game.night
        t.timeout()
    raise AssertionError("the game never ended")


def test_a_game_nobody_plays_ends_after_two_whole_nights_and_days():
    t = Table(CARDS)
    assert nights_until_end(t) == 3   # nights 1-2 and days 1-2 went by with nobody acting
    assert t.game.winner == {"camp": "none", "reason": "idle", "seats": []}
    assert all(p.alive for p in t.game.players)


def test_one_living_act_keeps_the_game_going_two_more_nights_and_days():
    t = Table(CARDS)
    t.until("debate")                      # day 1
    t.do(2, "debate.request_vote")         # a living villager acts on day 1 (after night 1)
    t.until("seer")                        # night 2 began, the clock of idleness counts from night 1
    assert t.game.night == 2
    while t.game.status == "running":
        t.timeout()
    assert t.game.winner["reason"] == "idle" and t.game.night == 4


def test_chat_by_the_living_counts_as_playing():
    t = Table(CARDS)
    t.until("debate")
    t.say(3, "village", "on est là")
    while t.game.status == "running":
        t.timeout()
    assert t.game.night == 4


def test_the_village_s_vote_does_not_wait_for_a_player_who_left():
    """The page no longer names who left among those who have not voted: the round does not
    wait for them either. It closes at the last ballot of the others, or at the leaving."""
    t = Table(CARDS, captain=False)
    t.to_vote()
    living = t.game.living()
    quitter, last = living[-1], living[-2]
    engine.leave(t.game, quitter, t.now)
    for seat in living[:-2]:
        t.do(seat, "vote.cast", 1)
    assert t.step == "vote"
    t.do(last, "vote.cast", 1)
    assert t.step != "vote" and t.last("vote_result")

    t = Table(CARDS, captain=False)
    t.to_vote()
    living = t.game.living()
    for seat in living[:-1]:
        t.do(seat, "vote.cast", 1)
    assert t.step == "vote"
    engine.leave(t.game, living[-1], t.now)
    assert t.step != "vote" and t.last("vote_result")


def test_a_night_step_still_runs_its_time_when_its_player_has_left():
    t = Table(CARDS)
    t.until("seer")
    engine.leave(t.game, 4, t.now)   # the seer: an early end would tell whose card it was
    assert t.step == "seer"


def test_a_player_who_left_plays_no_more_and_everyone_sees_it():
    t = Table(CARDS)
    seer = 4
    t.tick()
    engine.leave(t.game, seer, t.now)
    assert t.step == "seer"
    assert t.view(seer)["prompt"] is None and t.view(seer)["me"]["left"] is True
    assert next(p for p in t.view(1)["players"] if p["seat"] == seer)["left"] is True
    assert t.last("player_left")["seat"] == seer
    t.refuse(seer, {"action": "seer.look", "target": 1}, "left_game")
    t.until("debate")
    t.refuse(seer, ("village", "hello"), "left_game", chat=True)
    with pytest.raises(engine.IllegalAction) as refused:
        engine.leave(t.game, seer, t.now)
    assert refused.value.code == "already_done"
    assert t.view(seer)["channels"]["write"] is None
