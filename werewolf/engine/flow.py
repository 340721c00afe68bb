"""The kernel: the order of play. Starts steps, runs the hooks, deaths, the end check.

RULES.md §2-§6 and RULES-VARIANTS A2.3, A4 in code. It knows steps, hooks and camps
from the registry and never a role by name: every role lives in ``engine/roles/``.
Every function takes `now` (POSIX seconds) from its caller.
"""

from . import camps, powers, registry
from .game import AT_END, EVERYONE, Game

# --- steps -------------------------------------------------------------------
# Where the kernel is about to start the next step (hook `step_begins`): the game's first
# step once the cards are dealt, the day's first step (after the dawn's follow-ups or a
# day's speech turns), the day's talk before the vote.
GAME_OPENS, DAY_OPENS, TALK_OPENS = "game_opens", "day_opens", "talk_opens"
# How a step ends (hook `step_ends`): its limit ran out, or a round's ballots are all in
# (or its limit ran out: the round closes either way).
TIME_OUT, BALLOTS_IN = "time_out", "ballots_in"


def step_begins(game: Game, kind: str, now: float) -> bool:
    """The kernel is about to start its next step (``kind``: GAME_OPENS, DAY_OPENS or
    TALK_OPENS); True if a hook started another one instead (or ended the game)."""
    for hook in game.hooks("step_begins"):
        if hook(game, kind, now):
            return True
    return False


def step_ends(game: Game, kind: str, now: float) -> bool:
    """The current step is ending (``kind``: TIME_OUT or BALLOTS_IN); True if a hook took
    it over (a testament settles a time-out, a secret ballot holds the sentence back)."""
    for hook in game.hooks("step_ends"):
        if hook(game, kind, now):
            return True
    return False


def start_step(game: Game, step_id: str, now: float, actor: int | None = None, tied=()) -> None:
    step = registry.STEPS[step_id]
    game.step = step_id
    game.step_seq += 1
    limits = game.settings["limits"]
    game.deadline = now + (limits[step_id] if step_id in limits else step.limit) * game.time_scale
    game.actor = actor
    game.extra.pop("closed", None)
    game.votes = {}
    game.requests = []
    game.tied = list(tied)
    phase = {"night": game.night} if step.phase == registry.NIGHT else {"day": game.day}
    game.emit("step", EVERYONE, now, step=step_id, step_seq=game.step_seq, actor=actor, **phase)
    if step.on_start is not None:
        step.on_start(game, now)
    for hook in game.hooks("step_starts"):
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
    """The living holder acts in his step, unless he is powerless (a ghost step, RULES-BOX B0.4)."""
    def actors(game: Game, living: list[int]) -> list[int]:
        seat = game.alive_holder(role_id)
        return [seat] if seat is not None and powers.has_power(game, seat) else []
    return actors


def voters(game: Game, living: list[int]) -> list[int]:
    """Step.actors of every round where the village votes (election, vote, revote, runoff,
    stake): the living, less those who left the game and those a card takes the vote from
    (hook `voters`: a pardoned Idiot, those the Scapegoat left out, RULES-BOX B5.2)."""
    if game.left:
        living = [seat for seat in living if seat not in game.left]
    if "voters" in game.in_play.hooks:
        for hook in game.in_play.hooks["voters"]:
            living = hook(game, living)
    return living


def the_actor(game: Game, living: list[int]) -> list[int]:
    return [game.actor]


everyone_alive = None   # Step.actors for the steps where every living player acts

def open_game(game: Game, now: float) -> None:
    """The first step once the cards are dealt: night 1, or a day 0 (its debate, then its
    vote, RULES-BOX B0.5) when a card asks for one (hook `step_begins` GAME_OPENS: the Angel)."""
    if step_begins(game, GAME_OPENS, now):
        game.then = "night"
        start_debate(game, now)   # day 0: no election (RULES.md §5 keeps it on day 1)
        return
    begin_night(game, now)


def begin_night(game: Game, now: float) -> None:
    if game.day > 0 and stalemate(game, now):   # a day has just ended (A4 rule 8)
        return
    game.night += 1
    for hook in game.hooks("night_begins"):
        hook(game)
    next_night_step(game, None, now)


# --- planned nights (a fixed night, A7.1) ------------------------------------------
# A module may plan the night (hook `night_plan`): its steps then run in that order, each
# to its whole limit. A role's early end (its `next_night_step` call) only closes that
# step's prompt ("closed" below, reset at every step); the kernel's time-out moves on.
def night_plan(game: Game) -> list[str] | None:
    for hook in game.hooks("night_plan"):
        plan = hook(game)
        if plan is not None:
            return plan
    return None


def ends_early(game: Game) -> bool:
    """Whether the current step may end before its limit (never in a planned night)."""
    return not (game.is_night() and night_plan(game) is not None)


def step_parts(game: Game) -> list:
    """The steps acting now: the current one, or those it gathers (a fixed night's `night`)."""
    step = registry.STEPS[game.step]
    return [step] if step.gathers is None else [registry.STEPS[s] for s in step.gathers(game)]


def active_steps(game: Game) -> list[str]:
    return [s.id for s in step_parts(game)] if game.status == "running" else []


def is_closed(game: Game, step_id: str) -> bool:
    return step_id in game.extra.get("closed", ())


def _close(game: Game, step_id: str) -> None:
    closed = game.extra.setdefault("closed", [])
    if step_id not in closed:
        closed.append(step_id)
        # Their prompt is gone: their view changes (and only theirs).
        step, living = registry.STEPS[step_id], game.living()
        for seat in (living if step.actors is None else step.actors(game, living)):
            game.touch(seat)


def _planned_time_out(game: Game, plan: list[str], now: float) -> None:
    """Every part of the step not closed yet times out (its own rule), then the plan goes on."""
    current, seq = game.step, game.step_seq
    for part in step_parts(game):
        if not is_closed(game, part.id):
            part.time_out(game, now)
    if game.status != "running" or game.step_seq != seq:
        return
    index = plan.index(current)
    if index + 1 < len(plan):
        start_step(game, plan[index + 1], now)
    else:
        end_night(game, now)


def next_night_step(game: Game, after: str | None, now: float) -> None:
    plan = night_plan(game)
    if plan is not None:
        if after is None:
            start_step(game, plan[0], now)
        else:
            _close(game, after)
        return
    for step in registry.night_steps_after(after):
        if step.runs(game):
            start_step(game, step.id, now)
            return
    end_night(game, now)


def end_night(game: Game, now: float) -> None:
    deaths: list[int] = []
    for hook in game.hooks("night_deaths"):
        hook(game, deaths, now)
    summary = {"night": game.night}
    for hook in game.hooks("night_summary"):
        hook(game, summary)
    game.emit("night_summary", AT_END, now, **summary)
    game.then = "day"
    died = kill(game, deaths, "night", now)
    if check_end(game, now):
        return
    for hook in game.hooks("night_end"):   # the plague, the Owl-Man's nominee (A2.3 steps 5-6)
        if hook(game, now):
            return
    _quiet_night(game)
    queue_follow_ups(game, died)
    game.day += 1   # the dawn, and the shots or succession that follow it, open the coming day
    start_step(game, "dawn", now)


def night_attack_victim(game: Game, victim: int | None) -> int | None:
    """The wolves' choice after every protection and save (A2.3 step 1, then the Witch)."""
    for hook in game.hooks("night_attack"):
        if victim is None:
            break
        victim = hook(game, victim)
    return victim


def begin_day(game: Game, now: float) -> None:
    """The day's first step: the debate, unless a hook starts another (the election, speech turns)."""
    if not step_begins(game, DAY_OPENS, now):
        start_debate(game, now)


def start_debate(game: Game, now: float) -> None:
    """The day's talk before the vote: the debate, unless a hook replaces it (speech turns)."""
    if not step_begins(game, TALK_OPENS, now):
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
    grief = game.hooks("grief")
    counted = 0
    while counted < len(died):   # who dies with the dead, and with them (a pardoned Idiot's lover)
        counted = len(died)
        for hook in grief:
            hook(game, died)
    public = [{"seat": s, "role": game.player(s).role, "cause": "night" if cause == "night" else c}
              for s, c in died]
    if cause == "night":
        # In seat order: victim first, then the poisoned, then grief would tell the causes.
        public.sort(key=lambda d: d["seat"])
    if died:
        note_change(game)
    game.emit("deaths", EVERYONE, now, moment=cause, deaths=public)
    if cause == "night" and died:
        game.emit("night_deaths", AT_END, now, night=game.night,
                  deaths=[{"seat": s, "cause": c} for s, c in died])
    if died:
        for hook in game.hooks("died"):   # the same moment: a revenge, a turn, a rust (RULES-BOX B2.3)
            hook(game, died, now)
    return [s for s, _ in died]


def queue_follow_ups(game: Game, died: list[int]) -> None:
    for hook in game.hooks("queue_follow_ups"):
        hook(game, died)


def after_deaths(game: Game, died: list[int], now: float, voted_out: int | None = None) -> None:
    """End check, then the follow-ups one by one (Hunter shots, then the succession).
    ``voted_out``: the seat a vote elimination took (the Jester's win, A4 rule 1)."""
    if check_end(game, now, voted_out):
        return
    queue_follow_ups(game, died)
    continue_follow_ups(game, now)


def continue_follow_ups(game: Game, now: float) -> None:
    for hook in game.hooks("follow_up"):
        if hook(game, now):
            return
    if game.then == "day":
        begin_day(game, now)
    else:
        begin_night(game, now)


def eliminate(game: Game, seat: int, now: float) -> None:
    """A vote elimination (A0): every step where the village eliminates someone (vote,
    tiebreak, and the variants' revote, runoff, stake) ends here, so that the end check
    knows who was voted out."""
    game.then = "night"
    hooks = game.hooks("vote_elimination")
    for hook in hooks:   # a card takes the sentence over (the Idiot's pardon)
        if hook(game, seat, None, now):
            return
    died = kill(game, [seat], "vote", now)
    if any(hook(game, seat, died, now) for hook in hooks):
        # The end check comes after these deaths' follow-ups (a hook runs it there).
        queue_follow_ups(game, died)
        continue_follow_ups(game, now)
        return
    after_deaths(game, died, now, voted_out=seat)


# --- the end (RULES.md §6, A4) -----------------------------------------------
class EndCheck:
    """One end check as the cards see it (hook ``end_check``): who is alive, who plays only
    for a mixed couple, the seat a vote elimination just took (vote, tiebreak, revote,
    runoff, stake; else None). A card fills ``winner`` with its own win among the living
    (A4 rules 1 and 3: the Jester voted out, the Plague-Bearer's...), or ``all_dead`` with
    who wins when nobody is alive (rule 2: `hunter_vote_shot_first`); the kernel reads the
    one that applies and asks no further card once it is filled."""
    __slots__ = ("living", "mixed", "voted_out", "winner", "all_dead")

    def __init__(self, living: list[int], mixed: set, voted_out: int | None) -> None:
        self.living, self.mixed, self.voted_out = living, mixed, voted_out
        self.winner: dict | None = None
        self.all_dead: dict | None = None


def outcome(game: Game, voted_out: int | None = None) -> dict | None:
    """A4's end check (RULES-BOX B4); the first rule that holds ends the game.

    Rule 2 (nobody alive) and the solitaries' own rules 1 (the Jester voted out, the Angel
    dead before day 1) and 3 (the Plague-Bearer's, the Piper's, the White Werewolf alone)
    come from the cards through ``end_check``, in that order of priority; a win among the
    living never counts with nobody alive. Sides are read seat by seat now (camps.side_of:
    a bitten Cursed, a seat that joined the pack are wolves); "a werewolf alive" is a pack member.
    """
    living = game.living()
    mixed: set = set()
    for hook in game.hooks("mixed_couple"):
        mixed |= hook(game)
    if "end_check" in game.in_play.hooks:
        check = EndCheck(living, mixed, voted_out)
        for hook in game.in_play.hooks["end_check"]:
            hook(game, check)
            won = check.winner if living else check.all_dead
            if won is not None:
                return won                                                    # 1, 2, 3
    if not living:                                                            # 2
        return {"camp": registry.WINNER_NONE, "seats": []}
    if mixed and set(living) == mixed:                                        # 4
        return {"camp": registry.WINNER_LOVERS, "seats": sorted(mixed)}
    players = game.players
    if "pack" in game.extra or "seat_side" in game.in_play.hooks:
        def side(seat: int) -> str:
            return camps.side_of(game, seat)
    else:   # every side is its card's (a base game): read straight from the cards
        def side(seat: int) -> str:
            return registry.side(players[seat - 1].role)
    sides = [side(s) for s in living]
    if any(sd not in camps.CAMP_OF_SIDE and s not in mixed for s, sd in zip(living, sides)):
        return None                                                           # 5: a blocking solitary
    if not game.living_wolves():                                              # 6
        return {"camp": registry.WINNER_VILLAGE,
                "seats": [p.seat for p in players if side(p.seat) == registry.VILLAGE and p.seat not in mixed]}
    if all(sd == registry.WOLVES for sd in sides):                            # 7
        return {"camp": registry.WINNER_WEREWOLVES,
                "seats": [p.seat for p in players if side(p.seat) == registry.WOLVES and p.seat not in mixed]}
    return None                                                               # 8: see stalemate()


def check_end(game: Game, now: float, voted_out: int | None = None) -> bool:
    result = outcome(game, voted_out)
    if result is None:
        if not game.living_wolves() and "stalemate" not in game.extra:
            # No werewolf left, yet a blocking solitary keeps the game going: count quiet days.
            game.extra["stalemate"] = {"quiet": 0, "changed": True}
        return False
    end_game(game, result, now)
    return True


def end_game(game: Game, result: dict, now: float) -> None:
    game.status = "ended"
    game.step = None
    game.deadline = None
    game.actor = None
    if game.left and result["seats"]:
        # Who left the game before its end shares nobody's win (issue 35).
        result = {**result, "seats": [s for s in result["seats"] if s not in game.left]}
    game.winner = result
    for hook in registry.hooks("game_ends"):
        hook(game, now)
    # Emitted once ended: every seat's version moves, since everything is revealed now.
    game.emit("game_end", EVERYONE, now, winner=result)


# --- the stalemate (A4 rule 8) ------------------------------------------------
# With no werewolf alive and a blocking Jester, the village cannot win and should not
# vote him out. Three days in a row that end with no death, and no death or new
# contamination in the nights between, end the game with nobody winning. The count
# lives in game.extra["stalemate"] from the first end check with no werewolf alive
# (never in a base game, which ends right then).
STALEMATE_DAYS = 3


def note_change(game: Game) -> None:
    """A death or a new contamination: the quiet days start again."""
    state = game.extra.get("stalemate")
    if state is not None:
        state["changed"] = True


def _quiet_night(game: Game) -> None:
    state = game.extra.get("stalemate")
    if state is not None and state["changed"]:
        state["quiet"], state["changed"] = 0, False


def stalemate(game: Game, now: float) -> bool:
    """A day has ended: one more quiet day, or the count starts again; True if it ended the game."""
    state = game.extra.get("stalemate")
    if state is None:
        return False
    state["quiet"] = 0 if state["changed"] else state["quiet"] + 1
    state["changed"] = False
    if state["quiet"] < STALEMATE_DAYS:
        return False
    game.emit("stalemate", EVERYONE, now, days=state["quiet"])
    end_game(game, {"camp": registry.WINNER_NONE, "reason": "stalemate", "seats": []}, now)
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
    """What happens when the current step's limit runs out: the step says (in a planned
    night, each part it gathers says, then the plan goes on), unless an option settles
    it (a testament)."""
    if step_ends(game, TIME_OUT, now):
        return
    step = registry.STEPS[game.step]
    plan = night_plan(game) if step.phase == registry.NIGHT else None
    if plan is None:
        step.time_out(game, now)
    else:
        _planned_time_out(game, plan, now)
