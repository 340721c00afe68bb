"""Playing through the API: every action, every refusal, chat, and whole games."""
import random

import pytest

from .test_auth import error_code

ALL_ACTIONS = {"cupid.pair", "seer.look", "werewolves.designate", "witch.save", "witch.poison",
               "witch.done", "election.vote", "debate.request_vote", "vote.cast",
               "tiebreak.choose", "hunter.shoot", "succession.name"}


def roles_of(views: dict[int, dict]) -> dict[int, str]:
    return {seat: v["me"]["role"] for seat, v in views.items()}


def seats_with(views, role):
    return [seat for seat, r in roles_of(views).items() if r == role]


@pytest.mark.parametrize("size,seed", [(6, 1), (8, 2), (12, 3), (18, 4)])
def test_complete_game(make_table, size, seed):
    table = make_table(size).start()
    seen_actions = set()

    def record(views):
        for v in views.values():
            for spec in (v["prompt"] or {}).get("actions", []):
                seen_actions.add(spec["action"])

    final = table.play_to_end(random.Random(seed), on_views=record)
    for view in final.values():
        assert view["table"]["status"] == "ended" and view["step"] is None and view["prompt"] is None
        assert all("role" in p for p in view["players"])
        assert view["winner"]["camp"] in ("village", "werewolves", "lovers", "none")
        assert set(view["winner"]["seats"]) <= set(table.seats)
        assert set(view["chat"]) == {"village", "werewolves", "dead"}
    assert {"seer.look", "werewolves.designate", "witch.done"} <= seen_actions


def test_every_action_is_reachable_over_many_games(make_table):
    """Random play over a few tables offers every action of API.md at least once."""
    seen = set()

    def record(views):
        for v in views.values():
            seen.update(spec["action"] for spec in (v["prompt"] or {}).get("actions", []))

    # The server deals at random, so how many games it takes varies: stop as soon as all are seen.
    for seed in range(60):
        if seen >= ALL_ACTIONS - {"tiebreak.choose"}:
            break
        make_table(7).start().play_to_end(random.Random(100 + seed), on_views=record)
    assert seen >= ALL_ACTIONS - {"tiebreak.choose"}  # a tie under a living Captain is rare


def test_night_one_prompts_and_refusals(make_table):
    table = make_table(8).start()
    views = table.views()
    cupid = seats_with(views, "cupid")[0]
    assert views[cupid]["step"]["id"] == "cupid"
    prompt = views[cupid]["prompt"]
    assert prompt["actions"][0]["action"] == "cupid.pair" and prompt["actions"][0]["count"] == 2
    for seat, view in views.items():
        assert view["step"]["id"] == "cupid" and view["step"]["night"] == 1  # everyone sees the step
        if seat != cupid:
            assert view["prompt"] is None

    other = next(s for s in views if s != cupid)
    before = {s: v["version"] for s, v in views.items()}
    cases = [
        (other, {"action": "cupid.pair", "targets": [1, 2]}, 403, "not_your_turn"),
        (cupid, {"action": "seer.look", "target": 1}, 409, "wrong_step"),
        (cupid, {"action": "cupid.pair", "targets": [1, 1]}, 400, "invalid_target"),
        (cupid, {"action": "cupid.pair", "targets": [1, 99]}, 400, "invalid_target"),
        (cupid, {"action": "cupid.pair", "targets": [1]}, 400, "invalid_target"),
        (cupid, {"action": "cupid.pair", "targets": [1, 2], "step": 999}, 409, "stale_step"),
        (cupid, {"action": "fly.away"}, 400, "unknown_action"),
        (cupid, {"action": "cupid.pair", "targets": "1,2"}, 400, "bad_request"),
        (cupid, {"action": "cupid.pair", "targets": [True, 2]}, 400, "bad_request"),
        (cupid, {"action": "seer.look", "target": "3"}, 400, "bad_request"),
        (cupid, {"action": None}, 400, "bad_request"),
        (cupid, {"nothing": 1}, 400, "bad_request"),
    ]
    for seat, body, status, code in cases:
        response = table.seats[seat].post(f"/api/tables/{table.id}/act", body)
        assert response.status_code == status and error_code(response) == code, body
    after = table.views()
    assert {s: v["version"] for s, v in after.items()} == before  # refused: nothing changed

    lovers = [s for s in views if s != cupid][:2]
    ok = table.seats[cupid].act(table.id, "cupid.pair", targets=lovers, step=prompt["step"])
    assert ok.status_code == 200 and ok.get_json() == {"ok": True}
    after = table.views()
    for lover in lovers:
        partner = lovers[1] if lover == lovers[0] else lovers[0]
        assert after[lover]["me"]["lover"] == partner
    assert all("lover" not in after[s]["me"] for s in after if s not in lovers)
    assert after[cupid]["step"]["id"] == "seer"


def play_until_step(table, step_id, max_rounds=60):
    """Let steps time out until ``step_id`` is the current step."""
    for _ in range(max_rounds):
        view = table.host.state(table.id)
        assert view["status"] == "running"
        if view["step"]["id"] == step_id:
            return table.views()
        table.finish_step()
    raise AssertionError(f"never reached {step_id}")


def test_witch_actions_and_their_refusals(make_table):
    table = make_table(6).start(roles={"cupid": False, "hunter": False}, captain=False)
    views = table.views()
    wolf, witch = seats_with(views, "werewolf")[0], seats_with(views, "witch")[0]
    victim = next(s for s in views if s not in (wolf, witch))
    views = play_until_step(table, "werewolves")
    assert table.seats[wolf].act(table.id, "werewolves.designate", target=victim).status_code == 200
    views = table.views()
    assert views[witch]["step"]["id"] == "witch"
    actions = {a["action"]: a for a in views[witch]["prompt"]["actions"]}
    assert set(actions) == {"witch.save", "witch.poison", "witch.done"}
    assert views[witch]["me"]["potions"] == {"life": True, "death": True}

    witch_player = table.seats[witch]
    assert witch_player.act(table.id, "witch.save").status_code == 200
    again = witch_player.act(table.id, "witch.save")
    assert again.status_code == 400 and error_code(again) == "potion_used"
    assert table.host.state(table.id)["step"]["id"] == "witch"  # a potion does not end the step
    assert witch_player.act(table.id, "witch.poison", target=wolf).status_code == 200
    poison = witch_player.act(table.id, "witch.poison", target=victim)
    assert poison.status_code == 400 and error_code(poison) == "potion_used"
    assert witch_player.act(table.id, "witch.done").status_code == 200
    final = table.views()
    done = witch_player.act(table.id, "witch.done")
    assert done.status_code == 409 and error_code(done) == "game_over"
    # The only wolf was poisoned and the victim saved: the village wins at dawn.
    assert final[victim]["winner"]["camp"] == "village"
    assert {p["seat"]: p["alive"] for p in final[victim]["players"]}[victim] is True


def test_day_actions_vote_and_abstain(make_table):
    table = make_table(7).start(roles={"cupid": False, "hunter": False, "witch": False, "seer": False})
    views = play_until_step(table, "election")
    living = [s for s, v in views.items() if v["me"]["alive"]]
    for seat in living:
        spec = views[seat]["prompt"]["actions"][0]
        assert spec["action"] == "election.vote" and spec["nullable"] is True
    candidate = living[0]
    assert table.seats[living[1]].act(table.id, "election.vote", target=candidate).status_code == 200
    votes = table.host.state(table.id)["votes"]
    assert votes == {str(living[1]): candidate}  # public, live
    for seat in living:
        table.seats[seat].act(table.id, "election.vote", target=candidate)
    views = table.views()
    assert views[living[0]]["me"]["captain"] is True
    assert [p["seat"] for p in views[living[1]]["players"] if p["captain"]] == [candidate]
    assert views[living[0]]["step"]["id"] == "debate"
    # More than half ask for the vote: the debate ends early.
    for seat in living[: len(living) // 2 + 1]:
        assert table.seats[seat].act(table.id, "debate.request_vote").status_code == 200
    views = table.views()
    assert views[living[0]]["step"]["id"] == "vote"
    abstain = table.seats[living[0]].act(table.id, "vote.cast", target=None)
    assert abstain.status_code == 200
    assert table.host.state(table.id)["votes"][str(living[0])] is None
    dead = table.seats[living[1]].act(table.id, "vote.cast", target=999)
    assert dead.status_code == 400 and error_code(dead) == "invalid_target"


def test_chat_channels_and_limits(make_table):
    table = make_table(6).start(roles={"cupid": False})
    views = table.views()
    wolf = seats_with(views, "werewolf")[0]
    villager = next(s for s in views if s != wolf)
    assert views[wolf]["channels"]["write"] == "werewolves"
    text = "<b>Miam</b> & \"bonsoir\" 🐺"
    assert table.seats[wolf].chat(table.id, "werewolves", text).status_code == 201
    refused = table.seats[villager].chat(table.id, "village", "je dors")
    assert refused.status_code == 400 and error_code(refused) == "channel_closed"
    refused = table.seats[villager].chat(table.id, "werewolves", "je veux lire")
    assert error_code(refused) == "channel_closed"
    assert error_code(table.seats[wolf].chat(table.id, "secret", "x")) == "unknown_channel"
    assert error_code(table.seats[wolf].chat(table.id, "werewolves", "   ")) == "text_empty"
    assert table.seats[wolf].chat(table.id, "werewolves", "x" * 500).status_code == 201
    too_long = table.seats[wolf].chat(table.id, "werewolves", "x" * 501)
    assert too_long.status_code == 400 and error_code(too_long) == "text_too_long"
    for body in ({"channel": "werewolves"}, {"channel": 3, "text": "x"}, {"channel": "werewolves", "text": 5}):
        response = table.seats[wolf].post(f"/api/tables/{table.id}/chat", body)
        assert response.status_code == 400 and error_code(response) == "bad_request"
    messages = table.seats[wolf].state(table.id)["chat"]["werewolves"]
    assert messages[0]["text"] == text  # stored and returned exactly as sent
    assert messages[0]["seat"] == wolf and {"seq", "name", "at"} <= set(messages[0])
    assert "werewolves" not in table.seats[villager].state(table.id)["chat"]


def test_game_actions_need_a_started_game_and_a_seat(make_table, make_player):
    table = make_table(3)
    response = table.host.act(table.id, "vote.cast", target=1)
    assert response.status_code == 409 and error_code(response) == "game_not_started"
    stranger = make_player()
    response = stranger.act(table.id, "vote.cast", target=1)
    assert response.status_code == 403 and error_code(response) == "not_seated"


def test_after_the_end_the_host_reopens_the_table(make_table, make_player):
    table = make_table(6).start()
    table.play_to_end(random.Random(7))
    guest = table.players[1]
    assert guest.post(f"/api/tables/{table.id}/reopen").status_code == 403
    ended = table.host.act(table.id, "vote.cast", target=1)
    assert ended.status_code == 409 and error_code(ended) == "game_over"
    assert table.host.post(f"/api/tables/{table.id}/reopen").status_code == 200
    view = guest.state(table.id)
    assert view["table"]["status"] == "lobby" and view["step"] is None and "role" not in view["me"]
    assert len(view["players"]) == 6
    newcomer = make_player()
    assert newcomer.join(table.id).status_code == 200
    table.players.append(newcomer)
    table.start()
    assert table.host.state(table.id)["table"]["status"] == "running"
    assert sorted(table.seats) == [1, 2, 3, 4, 5, 6, 7]
