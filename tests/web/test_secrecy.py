"""RULES.md §8: each view holds what that player may know, and nothing else."""
import random

import pytest

SECRET_DURING_PLAY = {"night_summary", "night_deaths", "cupid_silent"}
OWN_ROLE_EVENTS = {"seer": {"seer_look"}, "cupid": {"cupid_pair"},
                   "witch": {"witch_victim", "witch_save", "witch_poison"}}
WOLF_EVENTS = {"designation", "wolves_victim"}


def check_view(view: dict, seat: int, truth: dict[int, str], lovers: set[int]) -> None:
    me = view["me"]
    assert me["seat"] == seat and me["role"] == truth[seat]
    alive = {p["seat"]: p["alive"] for p in view["players"]}
    wolf = truth[seat] == "werewolf"
    seer_saw = {e["target"] for e in view["events"] if e["kind"] == "seer_look"}
    for p in view["players"]:
        if "role" in p:
            assert p["role"] == truth[p["seat"]]
            assert (p["seat"] == seat or not p["alive"] or (wolf and truth[p["seat"]] == "werewolf")
                    or p["seat"] in seer_saw), (seat, p)
        else:
            assert p["alive"] and p["seat"] != seat
            assert not (wolf and truth[p["seat"]] == "werewolf")
    if seat in lovers:
        assert me["lover"] in lovers - {seat}
    else:
        assert "lover" not in me
    assert ("potions" in me) == (truth[seat] == "witch")
    assert ("designations" in view) == (wolf and me["alive"] and view["step"]["id"] == "werewolves")

    readable = {"village"} | ({"werewolves"} if wolf and me["alive"] else set()) | (
        set() if me["alive"] else {"dead"})
    assert set(view["chat"]) == readable == set(view["channels"]["read"])
    for event in view["events"]:
        assert "audience" not in event  # who an event was for is a secret too
        kind = event["kind"]
        assert kind not in SECRET_DURING_PLAY
        for role, kinds in OWN_ROLE_EVENTS.items():
            if kind in kinds:
                assert truth[seat] == role, (seat, event)
        if kind in WOLF_EVENTS:
            assert wolf, (seat, event)
        if kind == "lover":
            assert seat in lovers
    assert set(view["votes"]) <= {str(s) for s, a in alive.items()}


@pytest.mark.parametrize("size,seed", [(8, 11), (12, 12), (16, 13)])
def test_every_view_during_play_keeps_the_secrets(make_table, size, seed):
    table = make_table(size).start()
    truth = {seat: v["me"]["role"] for seat, v in table.views().items()}
    lovers: set[int] = set()
    checked = 0

    def check(views):
        nonlocal checked
        if next(iter(views.values()))["status"] == "ended":
            return
        for seat, view in views.items():
            if "lover" in view["me"]:
                lovers.update({seat, view["me"]["lover"]})
        for seat, view in views.items():
            check_view(view, seat, truth, lovers)
            checked += 1

    final = table.play_to_end(random.Random(seed), on_views=check)
    assert checked > size * 5
    for view in final.values():  # at the end everything is revealed
        assert {p["seat"]: p["role"] for p in view["players"]} == truth
        assert set(view["chat"]) == {"village", "werewolves", "dead"}
        kinds = {e["kind"] for e in view["events"]}
        assert "night_summary" in kinds and all("audience" in e for e in view["events"])


def test_two_sleeping_villagers_see_the_same_thing(make_table):
    table = make_table(9).start(roles={"cupid": False})
    views = table.views()
    villagers = [s for s, v in views.items() if v["me"]["role"] == "villager"][:2]
    assert len(villagers) == 2

    def neutral(view):
        view = {k: v for k, v in view.items() if k not in ("me", "version")}
        # One of them may host: the room screen's link is the host's alone.
        view["table"] = {k: v for k, v in view["table"].items() if k != "screen_url"}
        # Own card aside (and presence, which depends on polling order here).
        view["players"] = [{k: v for k, v in p.items()
                            if k != "connected" and (k != "role" or not p["alive"])}
                           for p in view["players"]]
        return view

    for _ in range(4):  # through the night steps
        views = table.views()
        if views[villagers[0]]["step"]["id"] in ("dawn",):
            break
        assert neutral(views[villagers[0]]) == neutral(views[villagers[1]])
        table.finish_step()


def test_the_table_page_holds_no_game_data(make_table):
    table = make_table(6).start()
    views = table.views()
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    other = next(s for s in views if s != wolf)
    code = views[wolf]["table"]["code"]
    pages = {}
    for seat in (wolf, other):
        player = table.seats[seat]
        html = player.client.get(f"/t/{code}").get_data(as_text=True)
        pages[seat] = html.replace(player.name, "NAME")
    assert pages[wolf] == pages[other]


def test_refusals_reveal_no_role(make_table):
    """The same refused request gets the same answer whatever the caller's secret card."""
    table = make_table(8).start(roles={"cupid": False})
    views = table.views()
    answers = set()
    for seat, view in views.items():
        if view["prompt"]:
            continue  # the one(s) who may act now
        response = table.seats[seat].act(table.id, "seer.look", target=1)
        answers.add((response.status_code, response.get_data(as_text=True)))
    assert len(answers) == 1
