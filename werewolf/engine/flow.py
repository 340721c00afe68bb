"""The kernel: the order of play. Starts steps, runs the hooks, deaths, the end check.

RULES.md §2-§6 and RULES-VARIANTS A2.3, A4 in code. It knows steps, hooks and camps
from the registry and never a role by name: every role lives in ``engine/roles/``.
Every function takes `now` (POSIX seconds) from its caller.
"""

from . import registry
from .game import AT_END, EVERYONE, Game


# --- steps -------------------------------------------------------------------
def start_step(game: Game, step_id: str, now: float, actor: int | None = None, tied=()) -> None:
    step = registry.STEPS[step_id]
    game.step = step_id
    game.step_seq += 1
    limits = game.settings["limits"]
    game.deadline = now + (limits[step_id] if step_id in limits else step.limit) * game.time_scale
    game.actor = actor
    game.votes = {}
    game.requests = []
    game.tied = list(tied)
    phase = {"night": game.night} if step.phase == "night" else {"day": game.day}
    game.emit("step", EVERYONE, now, step=step_id, step_seq=game.step_seq, actor=actor, **phase)
    if step.on_start is not None:
        step.on_start(game, now)
    for hook in registry.hooks("step_starts"):
        hook(game, now)


def holder_runs(role_id: str, first_night_only: bool = False):
    """A role's night step runs while its holder lives, or as a ghost step while its
    card lies in the middle (A2.2); a dead holder's step is skipped (his death is public)."""
    def runs(game: Game) -> bool:
        if first_night_only and game.night != 1:
            return False
        return game.alive_holder(role_id) is not None or role_id in game.middle()
    return runs


def alive_holder_acts(role_id: str):
    def actors(game: Game, living: list[int]) -> list[int]:
        seat = game.alive_holder(role_id)
        return [seat] if seat is not None else []
    return actors


def the_actor(game: Game, living: list[int]) -> list[int]:
    return [game.actor]


everyone_alive = None   # Step.actors for the steps where every living player acts

def begin_night(game: Game, now: float) -> None:
    game.night += 1
    for hook in registry.hooks("night_begins"):
        hook(game)
    next_night_step(game, None, now)


def next_night_step(game: Game, after: str | None, now: float) -> None:
    for step in registry.night_steps_after(after):
        if step.runs(game):
            start_step(game, step.id, now)
            return
    end_night(game, now)


def end_night(game: Game, now: float) -> None:
    deaths: list[int] = []
    for hook in registry.hooks("night_deaths"):
        hook(game, deaths, now)
    summary = {"night": game.night}
    for hook in registry.hooks("night_summary"):
        hook(game, summary)
    game.emit("night_summary", AT_END, now, **summary)
    game.then = "day"
    died = kill(game, deaths, "night", now)
    if check_end(game, now):
        return
    queue_follow_ups(game, died)
    game.day += 1   # the dawn, and the shots or succession that follow it, open the coming day
    start_step(game, "dawn", now)


def night_attack_victim(game: Game, victim: int | None) -> int | None:
    """The wolves' choice after every protection and save (A2.3 step 1, then the Witch)."""
    for hook in registry.hooks("night_attack"):
        if victim is None:
            break
        victim = hook(game, victim)
    return victim


def begin_day(game: Game, now: float) -> None:
    for hook in registry.hooks("day_start"):
        if hook(game, now):
            return
    start_step(game, "debate", now)


# --- deaths (RULES.md §4) ----------------------------------------------------
def kill(game: Game, seats: list[int], cause: str, now: float) -> list[int]:
    """Kill these seats and whoever dies with them (grief); announce them in one event.

    Night causes stay secret until the end: the public event only says who died and
    their card, the detailed causes go to the end-of-game reveal.
    """
    died: list[tuple[int, str]] = []
    for seat in seats:
        if game.player(seat).alive:
            game.player(seat).alive = False
            died.append((seat, cause))
    for hook in registry.hooks("grief"):
        hook(game, died)
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
    for hook in registry.hooks("queue_follow_ups"):
        hook(game, died)


def after_deaths(game: Game, died: list[int], now: float) -> None:
    """End check, then the follow-ups one by one (Hunter shots, then the succession)."""
    if check_end(game, now):
        return
    queue_follow_ups(game, died)
    continue_follow_ups(game, now)


def continue_follow_ups(game: Game, now: float) -> None:
    for hook in registry.hooks("follow_up"):
        if hook(game, now):
            return
    if game.then == "day":
        begin_day(game, now)
    else:
        begin_night(game, now)


def eliminate(game: Game, seat: int, now: float) -> None:
    game.then = "night"
    died = kill(game, [seat], "vote", now)
    after_deaths(game, died, now)


# --- the end (RULES.md §6, A4) -----------------------------------------------
def outcome(game: Game) -> dict | None:
    living = game.living()
    roles = registry.ROLES
    pack = registry.PACK
    camps = {p.seat: roles[p.role].camp for p in game.players}
    wolves = {seat for seat, camp in camps.items() if camp == registry.WOLVES}
    mixed: set = set()
    for hook in registry.hooks("mixed_couple"):
        mixed |= hook(game)
    if not living:
        return {"camp": "none", "seats": []}
    if mixed and set(living) == mixed:
        return {"camp": "lovers", "seats": sorted(mixed)}
    if not any(game.player(seat).role in pack for seat in living):
        return {"camp": "village",
                "seats": [p.seat for p in game.players if camps[p.seat] == registry.VILLAGE and p.seat not in mixed]}
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


def str_keys(tally: dict) -> dict:
    return {str(k): v for k, v in sorted(tally.items())}


def time_out(game: Game, now: float) -> None:
    """What happens when the current step's limit runs out: the step says."""
    registry.STEPS[game.step].time_out(game, now)
