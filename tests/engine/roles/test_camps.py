"""A4: camps of the new cards, mixed couples re-judged, blocking solitaries and the
ordered end check (1-8), the stalemate included."""
import pytest
from rolekit import RoleTable

from werewolf.engine import flow

# seat 1-2 wolves, 3 Possessed, 4 Cursed, 5 Jester, 6 Plague-Bearer, 7-8 villagers, 9 seer
NINE = "W W possessed cursed jester plague V V seer"


def outcome(alive, lovers=None, contaminated=(), voted_out=None, cards=NINE):
    t = RoleTable(cards)
    t.game.lovers = lovers
    for p in t.game.players:
        p.alive = p.seat in alive
    if "plague_bearer" in t.game.extra:
        t.game.extra["plague_bearer"]["contaminated"] = list(contaminated)
    return flow.outcome(t.game, voted_out)


@pytest.mark.parametrize("alive, lovers, contaminated, voted_out, expected", [
    # 1. the Jester voted out wins alone, even when the village was about to win
    ([3, 6, 7], None, (), 5, {"camp": "jester", "seats": [5]}),
    ([7, 8], None, (), 5, {"camp": "jester", "seats": [5]}),
    #    ...not in a mixed couple (with a villager: mixed; his lover died of grief)
    ([1, 8], [5, 7], (), 5, None),
    #    ...and only by a vote
    ([7, 8], None, (), None, {"camp": "village", "seats": [4, 7, 8, 9]}),
    # 2. nobody alive: nobody wins
    ([], None, (), None, {"camp": "none", "seats": []}),
    # 3. the Plague-Bearer, every other living player contaminated
    ([1, 6, 7], None, (1, 7, 8), None, {"camp": "plague_bearer", "seats": [6]}),
    ([6], None, (), None, {"camp": "plague_bearer", "seats": [6]}),   # alone alive (decision)
    ([1, 6, 7], None, (1,), None, None),                               # 7 is not: blocks
    ([1, 6, 7], [6, 7], (1, 7), None, None),                           # mixed couple: no solo win
    # 4. the mixed couple as the last two alive
    ([5, 6], [5, 6], (), None, {"camp": "lovers", "seats": [5, 6]}),   # two solitaries: two camps
    ([3, 7], [3, 7], (), None, {"camp": "lovers", "seats": [3, 7]}),   # Possessed + village card
    # 5. a blocking solitary alive: nobody wins yet
    ([5, 7], None, (), None, None),
    ([1, 5], None, (), None, None),
    ([1, 6], None, (), None, None),
    #    a solitary in a mixed couple blocks nothing
    ([1, 2, 5], [1, 5], (), None, None),   # (not the wolves' yet: the Jester is not of their camp)
    ([6, 7, 8], [6, 7], (), None, {"camp": "village", "seats": [4, 8, 9]}),
    # 6. no werewolf alive: the village, dead or alive (the Possessed loses)
    ([3, 7], None, (), None, {"camp": "village", "seats": [4, 7, 8, 9]}),
    # 7. every living player of the wolves' camp: the Possessed counts with them, dead or alive
    ([1, 3], None, (), None, {"camp": "werewolves", "seats": [1, 2, 3]}),
    ([1], None, (), None, {"camp": "werewolves", "seats": [1, 2, 3]}),
    ([1, 3, 7], None, (), None, None),
    # Possessed + werewolf lovers are not a mixed couple: they win with the wolves
    ([1, 3], [1, 3], (), None, {"camp": "werewolves", "seats": [1, 2, 3]}),
])
def test_the_end_check_in_its_order(alive, lovers, contaminated, voted_out, expected):
    assert outcome(alive, lovers, contaminated, voted_out) == expected


def test_a_bitten_cursed_counts_with_the_wolves_and_the_couple_is_judged_again():
    t = RoleTable(NINE)
    t.game.lovers = [4, 7]
    assert flow.outcome(t.game) is None
    for p in t.game.players:
        p.alive = p.seat in (4, 7)
    assert flow.outcome(t.game) == {"camp": "village", "seats": [4, 7, 8, 9]}, "same camp: not mixed"
    t.game.player(4).role = "werewolf"   # what the bite does
    assert flow.outcome(t.game) == {"camp": "lovers", "seats": [4, 7]}, "the bite made the couple mixed"
    t.game.lovers = [1, 4]
    for p in t.game.players:
        p.alive = p.seat in (1, 4, 7)
    assert flow.outcome(t.game) is None
    t.game.player(7).alive = False
    assert flow.outcome(t.game) == {"camp": "werewolves", "seats": [1, 2, 3, 4]}, "with a wolf: not mixed"


# --- 8. the stalemate ---------------------------------------------------------
STALE = "W jester V V V seer"   # seat 1 the wolf, 2 the Jester


def no_wolf_left(t):
    """Night 1 passes; day 1 the village votes the wolf out; the Jester lives on."""
    t.until("vote")
    t.vote_all({s: 1 for s in t.game.living()})
    assert not t.alive(1) and t.game.status == "running", "the Jester blocks the village's win"


def quiet_day(t):
    t.until("vote")
    t.vote_all({})
    assert t.step != "vote"


def test_three_quiet_days_with_no_werewolf_alive_end_the_game_with_nobody_winning():
    t = RoleTable(STALE)
    no_wolf_left(t)
    quiet_day(t)                                 # day 2
    quiet_day(t)                                 # day 3
    assert t.game.status == "running"
    quiet_day(t)                                 # day 4: the third quiet day in a row
    assert t.game.status == "ended"
    assert t.game.winner == {"camp": "none", "reason": "stalemate", "seats": []}
    assert t.last("stalemate")["days"] == 3 and t.last("stalemate")["audience"] == "all"


def test_a_death_starts_the_count_again():
    t = RoleTable(STALE)
    no_wolf_left(t)
    quiet_day(t)                                 # day 2
    t.until("vote")                              # day 3: an elimination
    t.vote_all({s: 3 for s in t.game.living()})
    assert not t.alive(3)
    quiet_day(t)
    quiet_day(t)
    assert t.game.status == "running"
    quiet_day(t)
    assert t.game.winner["reason"] == "stalemate"


def test_a_poison_in_the_night_between_starts_the_count_again():
    t = RoleTable("W jester V V seer witch")
    no_wolf_left(t)
    quiet_day(t)                                 # day 2
    t.until("witch")
    t.do(6, "witch.poison", 3)
    t.do(6, "witch.done")
    quiet_day(t)                                 # day 3: its night had a death
    quiet_day(t)
    assert t.game.status == "running"
    quiet_day(t)
    assert t.game.winner["reason"] == "stalemate"


def test_a_base_game_keeps_no_stalemate_count():
    t = RoleTable("W V V seer witch hunter")
    t.until("vote")
    t.vote_all({s: 1 for s in t.game.living()})
    assert t.game.winner["camp"] == "village" and "stalemate" not in t.game.to_dict().get("extra", {})


def test_the_jester_alone_alive_ends_the_game_with_nobody_winning():
    assert outcome([5]) == {"camp": "none", "reason": "stalemate", "seats": []}
