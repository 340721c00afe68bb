"""Speaking in turn — `speech_turns` (RULES-VARIANTS A5.5)."""
from opkit import cast, public
from rolekit import RoleTable

from werewolf import engine


def day_one(captain=False, victim=None, cards="W V V V V V", **options):
    t = RoleTable(cards, captain=captain, options={"speech_turns": True, **options})
    t.until("werewolves")
    if victim is None:
        t.timeout()
    else:
        t.wolves_kill(victim)
    t.until("dawn")
    t.timeout()
    return t


def speakers(t):
    order = []
    while t.step == "speech":
        order.append(t.game.actor)
        t.timeout()
    return order


def test_one_turn_per_living_player_from_seat_one_then_the_vote():
    t = day_one()
    assert t.step == "speech" and t.view(3)["step"]["actor"] == 1
    assert t.game.deadline - t.now == 30
    assert speakers(t) == [1, 2, 3, 4, 5, 6]
    assert t.step == "vote"
    assert not t.events("vote_request")


def test_only_the_speaker_writes_and_speech_done_passes_the_turn():
    t = day_one()
    assert t.view(1)["channels"]["write"] == "village" and t.view(2)["channels"]["write"] is None
    t.say(1, "village", "I am innocent")
    t.refuse(2, ("village", "me too"), "channel_closed", chat=True)
    t.refuse(2, {"action": "speech.done"}, "not_your_turn")
    t.refuse(1, {"action": "debate.request_vote"}, "wrong_step")
    t.do(1, "speech.done")
    assert t.step == "speech" and t.game.actor == 2


def test_order_starts_after_the_lowest_seat_who_died_in_the_night():
    t = day_one(victim=3)
    assert speakers(t) == [4, 5, 6, 1, 2]


def test_day_one_turns_first_then_the_election_then_the_vote():
    t = day_one(captain=True)
    assert t.step == "speech"
    assert speakers(t) == [1, 2, 3, 4, 5, 6]
    assert t.step == "election"
    for seat in range(1, 7):
        t.do(seat, "election.vote", 4)
    assert t.step == "vote"


def test_with_nobody_dead_the_turns_start_after_the_captain():
    t = day_one(captain=True)
    speakers(t)
    for seat in range(1, 7):
        t.do(seat, "election.vote", 4)
    cast(t, {})                      # nobody voted: nobody out
    t.until("werewolves")
    t.timeout()
    t.until("dawn")
    t.timeout()
    assert speakers(t) == [5, 6, 1, 2, 3, 4]


def test_bad_values_are_refused():
    try:
        engine.merge_settings(engine.default_settings(), {"options": {"speech_turns": "yes"}})
    except engine.IllegalAction as refused:
        assert refused.code == "invalid_settings"
    else:
        raise AssertionError


def test_the_order_depends_only_on_public_facts():
    """A9.2: the same public deaths, other cards → the same turns for every viewer."""
    def seen(cards, wolf):
        t = day_one(victim=3, cards=cards)
        return [(e["step"], e["actor"]) for e in t.events("step")][-1], public(t.view(2)), wolf
    a = seen("W V V V V V", 1)
    b = seen("V V V V W V", 5)
    assert a[:2] == b[:2]
