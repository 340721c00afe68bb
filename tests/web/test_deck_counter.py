"""The waiting room's card counter (issue 35, point 3): the cards chosen against the seats,
and what the start would refuse, from the start's own checks; options only for cards in
the deck (the catalog says which cards an option is about)."""
from werewolf import engine


def test_the_table_tells_the_cards_for_the_seats_and_what_the_start_would_refuse(make_table):
    table = make_table(6)
    deck = table.host.state(table.id)["table"]["deck"]
    assert deck == {"cards": 5, "seats": 6, "error": None}   # 1 wolf, Seer, Witch, Hunter, Cupid
    roles = {"thief": True, "guard": True, "little_girl": True}
    assert table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"roles": roles}).status_code == 200
    deck = table.players[1].state(table.id)["table"]["deck"]
    assert deck == {"cards": 8, "seats": 6, "error": "bad_composition"}
    refused = table.host.post(f"/api/tables/{table.id}/start")
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == deck["error"]
    table.start(roles={"thief": False, "guard": False, "little_girl": False})
    assert "deck" not in table.host.state(table.id)["table"]


def test_too_few_players_is_said_too():
    assert engine.deck_check({}, 5)["error"] == "bad_player_count"
    assert engine.deck_check({"wolves": 3}, 8)["error"] == "bad_composition"


def test_options_say_which_cards_they_are_about(app):
    options = {o["id"]: o for o in app.test_client().get("/api/catalog").get_json()["options"]}
    assert options["witch_no_self_save"]["roles"] == ["witch"]
    assert options["poisoned_hunter_silent"]["roles"] == ["witch", "hunter"]
    assert options["secret_ballot"]["roles"] == []


def test_a_rhythm_changed_by_hand_says_so_and_the_preset_words_say_what_it_does(app, make_table):
    table = make_table(6)
    assert table.host.state(table.id)["table"]["settings"]["limits_changed"] == []
    assert table.host.request("PATCH", f"/api/tables/{table.id}/settings", {"limits": {"debate": 200}}).status_code == 200
    shown = table.players[1].state(table.id)["table"]["settings"]
    assert shown["rhythm"] == "classique" and shown["limits_changed"] == ["debate"]
    # The Thiercelieux preset's tie: the Captain first (A5.2), and its words say so.
    assert engine.registry.PRESETS["thiercelieux"].options == {"tie": "revote"}
    words = app.test_client().get("/").status_code  # any page renders with the catalog
    assert words in (200, 302)
    with app.test_request_context():
        from werewolf.web.strings import client_strings
        said = client_strings()
    assert "Capitaine" in said["preset_help.thiercelieux"] and "Capitaine" in said["tie.revote"]
    assert said["preset.chinois"] == "Table chinoise"
