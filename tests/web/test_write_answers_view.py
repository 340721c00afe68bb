"""act and chat answer with the caller's view and its ETag, as their next poll would,
when asked for it (``Prefer: return=representation``); otherwise ``{"ok": true}``."""

PREFER = {"Prefer": "return=representation"}


def _act(player, table_id, action, **fields):
    return player.post(f"/api/tables/{table_id}/act", {"action": action, **fields}, headers=dict(PREFER))


def _shown_again(player, table_id, answer):
    """The poll right after the write: 304 for the ETag the write answered with."""
    return player.state_response(table_id, answer.get_json()["etag"])


def test_act_answers_the_view_after_the_move_and_the_poll_agrees(make_table):
    table = make_table(8).start(roles={"cupid": False, "seer": False})
    views = table.views()
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    villager = next(s for s, v in views.items() if v["me"]["role"] == "villager")
    before = table.seats[wolf].state_response(table.id).headers["ETag"]
    answer = _act(table.seats[wolf], table.id, "werewolves.designate", target=villager)
    body = answer.get_json()
    assert answer.status_code == 200 and body["ok"] is True
    assert answer.headers["ETag"] == body["etag"] != before
    assert body["view"]["designations"][str(wolf)] == villager  # the move is in it
    polled = table.seats[wolf].state_response(table.id)
    assert polled.headers["ETag"] == body["etag"]
    assert {k: v for k, v in polled.get_json().items() if k != "step"} == \
        {k: v for k, v in body["view"].items() if k != "step"}  # seconds_left moves with the clock
    assert _shown_again(table.seats[wolf], table.id, answer).status_code == 304


def test_chat_answers_the_view_with_the_message(make_table):
    table = make_table(6).start()
    player, channel = next((p, p.state(table.id)["channels"]["write"]) for p in table.players
                           if p.state(table.id)["channels"]["write"])  # the wolves' at night
    answer = player.post(f"/api/tables/{table.id}/chat", {"channel": channel, "text": "Bonjour !"},
                         headers=dict(PREFER))
    body = answer.get_json()
    assert answer.status_code == 201 and body["ok"] is True
    assert any(line["text"] == "Bonjour !" for line in body["view"]["chat"][channel])
    assert _shown_again(player, table.id, answer).status_code == 304


def test_a_refused_act_answers_only_the_error(make_table):
    table = make_table(6).start()
    answer = _act(table.players[0], table.id, "vote.cast", target=2)
    assert answer.status_code >= 400
    assert set(answer.get_json()) == {"error"}



def test_without_prefer_the_answer_is_only_ok(make_table):
    table = make_table(8).start(roles={"cupid": False, "seer": False})
    views = table.views()
    wolf = next(s for s, v in views.items() if v["me"]["role"] == "werewolf")
    answer = table.seats[wolf].act(table.id, "werewolves.designate", target=wolf)
    assert answer.status_code == 200 and answer.get_json() == {"ok": True}
