"""The order of play: starting steps, ending them early or by time-out, deaths, the end.

RULES.md §2-§6 in code. Every function takes `now` (POSIX seconds) from its caller.
"""

from .game import AT_END, EVERYONE, WOLVES, Game
from .rules import CUPID, HUNTER, SEER, WEREWOLF, WITCH

NIGHT_ORDER = ("cupid", "seer", "werewolves", "witch")


# --- steps -------------------------------------------------------------------
def start_step(game: Game, step: str, now: float, actor: int | None = None, tied=()) -> None:
    game.step = step
    game.step_seq += 1
    game.deadline = now + game.settings["limits"][step] * game.time_scale
    game.actor = actor
    game.votes = {}
    game.requests = []
    game.tied = list(tied)
    phase = {"night": game.night} if step in NIGHT_ORDER else {"day": game.day}
    game.emit("step", EVERYONE, now, step=step, step_seq=game.step_seq, actor=actor, **phase)
    if step == "witch":
        game.emit("witch_victim", game.alive_holder(WITCH), now, night=game.night, target=game.victim)


def _night_step_applies(game: Game, step: str) -> bool:
    if step == "cupid":
        return game.night == 1 and game.alive_holder(CUPID) is not None
    if step == "seer":
        return game.alive_holder(SEER) is not None
    if step == "werewolves":
        return bool(game.living_wolves())
    return game.alive_holder(WITCH) is not None   # the Witch's step runs even with no potion left


def begin_night(game: Game, now: float) -> None:
    game.night += 1
    game.designations = {}
    game.victim = None
    game.saved = False
    game.poisoned = None
    next_night_step(game, None, now)


def next_night_step(game: Game, after: str | None, now: float) -> None:
    start = NIGHT_ORDER.index(after) + 1 if after else 0
    for step in NIGHT_ORDER[start:]:
        if _night_step_applies(game, step):
            start_step(game, step, now)
            return
    end_night(game, now)


def end_night(game: Game, now: float) -> None:
    deaths = []
    if game.victim is not None and not game.saved:
        deaths.append(game.victim)
    if game.poisoned is not None and game.poisoned not in deaths:
        deaths.append(game.poisoned)
    game.emit("night_summary", AT_END, now, night=game.night, victim=game.victim,
              saved=game.saved, poisoned=game.poisoned)
    game.then = "day"
    died = kill(game, deaths, "night", now)
    if check_end(game, now):
        return
    queue_follow_ups(game, died)
    game.day += 1   # the dawn, and the shots or succession that follow it, open the coming day
    start_step(game, "dawn", now)


def begin_day(game: Game, now: float) -> None:
    if game.day == 1 and game.settings["captain"] and game.captain is None and not game.captaincy_over:
        start_step(game, "election", now)
    else:
        start_step(game, "debate", now)


# --- deaths (RULES.md §4) ----------------------------------------------------
def kill(game: Game, seats: list[int], cause: str, now: float) -> list[int]:
    """Kill these seats and the lovers who die of grief; announce them in one event.

    Night causes stay secret until the end: the public event only says who died and
    their card, the detailed causes go to the end-of-game reveal.
    """
    died: list[tuple[int, str]] = []
    for seat in seats:
        if game.player(seat).alive:
            game.player(seat).alive = False
            died.append((seat, cause))
    if game.lovers:
        for seat, _ in list(died):
            if seat in game.lovers:
                other = game.lovers[0] if game.lovers[1] == seat else game.lovers[1]
                if game.player(other).alive:
                    game.player(other).alive = False
                    died.append((other, "grief"))
    public = [{"seat": s, "role": game.player(s).role, "cause": "night" if cause == "night" else c}
              for s, c in died]
    if cause == "night":
        # In seat order: victim first, then the poisoned, then grief would tell the causes.
        public.sort(key=lambda d: d["seat"])
    game.emit("deaths", EVERYONE, now, moment=cause, deaths=public)
    if cause == "night" and died:
        game.emit("night_deaths", AT_END, now, night=game.night,
                  deaths=[{"seat": s, "cause": c} for s, c in died])
    return [s for s, _ in died]


def queue_follow_ups(game: Game, died: list[int]) -> None:
    for seat in died:
        if game.player(seat).role == HUNTER:
            game.pending_hunters.append(seat)
    if game.captain is not None and game.captain in died:
        game.pending_succession = game.captain


def after_deaths(game: Game, died: list[int], now: float) -> None:
    """End check, then Hunter shots one by one, then the Captain's succession."""
    if check_end(game, now):
        return
    queue_follow_ups(game, died)
    continue_follow_ups(game, now)


def continue_follow_ups(game: Game, now: float) -> None:
    if game.pending_hunters:
        start_step(game, "hunter", now, actor=game.pending_hunters.pop(0))
    elif game.pending_succession is not None:
        actor, game.pending_succession = game.pending_succession, None
        start_step(game, "succession", now, actor=actor)
    elif game.then == "day":
        begin_day(game, now)
    else:
        begin_night(game, now)


def eliminate(game: Game, seat: int, now: float) -> None:
    game.then = "night"
    died = kill(game, [seat], "vote", now)
    after_deaths(game, died, now)


# --- the end (RULES.md §6) ---------------------------------------------------
def outcome(game: Game) -> dict | None:
    living = game.living()
    wolves = set(game.seats_with(WEREWOLF))
    mixed = set()
    if game.lovers and len(wolves.intersection(game.lovers)) == 1:
        mixed = set(game.lovers)
    if not living:
        return {"camp": "none", "seats": []}
    if mixed and set(living) == mixed:
        return {"camp": "lovers", "seats": sorted(mixed)}
    if not wolves.intersection(living):
        return {"camp": "village",
                "seats": [p.seat for p in game.players if p.seat not in wolves and p.seat not in mixed]}
    if set(living) <= wolves:
        return {"camp": "werewolves", "seats": sorted(wolves - mixed)}
    return None


def check_end(game: Game, now: float) -> bool:
    result = outcome(game)
    if result is None:
        return False
    game.status = "ended"
    game.step = None
    game.deadline = None
    game.actor = None
    game.winner = result
    # Emitted once ended: every seat's version moves, since everything is revealed now.
    game.emit("game_end", EVERYONE, now, winner=result)
    return True


# --- resolutions shared by early ends and time-outs --------------------------
def plurality(game: Game, ballots: dict, weight=lambda voter: 1) -> tuple[dict, list[int]]:
    tally: dict[int, int] = {}
    for voter, target in ballots.items():
        if target is not None:
            tally[target] = tally.get(target, 0) + weight(voter)
    if not tally:
        return tally, []
    top = max(tally.values())
    return tally, sorted(t for t, v in tally.items() if v == top)


def resolve_wolves(game: Game, now: float) -> None:
    _, leaders = plurality(game, game.designations)
    game.victim = leaders[game.draw(len(leaders))] if leaders else None
    game.emit("wolves_victim", WOLVES, now, night=game.night, target=game.victim)
    next_night_step(game, "werewolves", now)


def resolve_election(game: Game, now: float) -> None:
    tally, leaders = plurality(game, game.votes)
    if leaders:
        game.captain = leaders[game.draw(len(leaders))]
    else:
        game.captaincy_over = True
    game.emit("election_result", EVERYONE, now, tally=_str_keys(tally), captain=game.captain,
              tie=len(leaders) > 1)
    start_step(game, "debate", now)


def resolve_vote(game: Game, now: float) -> None:
    captain = game.captain if game.captain is not None and game.player(game.captain).alive else None
    tally, leaders = plurality(game, game.votes, lambda voter: 2 if voter == captain else 1)
    game.emit("vote_result", EVERYONE, now, day=game.day, tally=_str_keys(tally),
              eliminated=leaders[0] if len(leaders) == 1 else None, tied=leaders if len(leaders) > 1 else [])
    if len(leaders) == 1:
        eliminate(game, leaders[0], now)
    elif len(leaders) > 1 and captain is not None:
        start_step(game, "tiebreak", now, actor=captain, tied=leaders)
    else:
        begin_night(game, now)


def _str_keys(tally: dict) -> dict:
    return {str(k): v for k, v in sorted(tally.items())}


def time_out(game: Game, now: float) -> None:
    """What happens when the current step's limit runs out (RULES.md decisions)."""
    step = game.step
    if step == "cupid":
        game.emit("cupid_silent", AT_END, now)
        next_night_step(game, "cupid", now)
    elif step == "seer":
        next_night_step(game, "seer", now)
    elif step == "werewolves":
        resolve_wolves(game, now)
    elif step == "witch":
        next_night_step(game, "witch", now)
    elif step == "dawn":
        continue_follow_ups(game, now)
    elif step == "hunter":
        game.emit("hunter_shot", EVERYONE, now, hunter=game.actor, target=None)
        continue_follow_ups(game, now)
    elif step == "succession":
        game.captain = None
        game.captaincy_over = True
        game.emit("succession", EVERYONE, now, previous=game.actor, captain=None)
        continue_follow_ups(game, now)
    elif step == "election":
        resolve_election(game, now)
    elif step == "debate":
        start_step(game, "vote", now)
    elif step == "vote":
        resolve_vote(game, now)
    elif step == "tiebreak":
        game.emit("tiebreak", EVERYONE, now, captain=game.actor, target=None)
        begin_night(game, now)
