"""The table's options over HTTP (RULES-VARIANTS A7, A13): presets usable only once built,
fixed_night and lovers_channel set by the host and played, the catalog the pages read."""
import random

from werewolf.engine import registry

from .test_auth import error_code


def patch(table, body):
    return table.host.request("PATCH", f"/api/tables/{table.id}/settings", body)


def test_only_the_presets_whose_roles_and_options_are_built_are_accepted(make_table):
    table = make_table(6)
    for preset in registry.PRESETS.values():
        response = patch(table, {"preset": preset.id})
        if registry.preset_usable(preset):
            assert response.status_code == 200, preset.id
            assert response.get_json()["table"]["settings"]["preset"] == preset.id
        else:   # thiercelieux, forum, solitaires, chinois until their roles and options are merged
            assert response.status_code == 400 and error_code(response) == "invalid_settings", preset.id
    assert {p.id for p in registry.PRESETS.values()} == {"classique", "decouverte", "eclair", "thiercelieux",
                                                         "forum", "solitaires", "chinois",
                                                         "nouvelle_lune", "personnages", "grande_table"}


def test_the_catalog_lists_the_options_by_group_and_the_usable_presets_by_size(make_player):
    catalog = make_player().request("GET", "/api/catalog", headers={"Accept-Language": "en"}).get_json()
    options = {o["id"]: o for o in catalog["options"]}
    assert options["fixed_night"] == {**options["fixed_night"], "group": "night", "kind": "bool", "default": False,
                                      "steps": ["night"], "name": "Fixed-length night"}
    assert options["lovers_channel"]["group"] == "table" and options["spectators"]["preset_neutral"] is True
    assert [g["id"] for g in catalog["option_groups"]] == ["votes", "roles", "night", "table"]
    presets = {p["id"]: p for p in catalog["presets"]}
    assert set(presets) == {p.id for p in registry.usable_presets()}
    assert presets["eclair"]["by_size"]["9"] == {"wolves": 2, "roles": {"seer": 1, "witch": 1, "hunter": 1},
                                                 "villagers": 4, "middle": 0}
    assert presets["classique"]["description"] and catalog["wolf_table"]["12"] == 3
    assert {r["id"] for r in catalog["rhythms"]} == {"rapide", "classique", "lent"}


def test_a_fixed_night_game_plays_to_its_end_and_every_night_shows_the_step_night(make_table):
    table = make_table(8).start(options={"fixed_night": True}, roles={"cupid": False})
    seen_steps = set()

    def look(views):
        for view in views.values():
            if view["step"]:
                seen_steps.add(view["step"]["id"])
    table.play_to_end(random.Random(4), on_views=look)
    night_steps = {s.id for s in registry.STEPS.values() if s.phase == "night"}
    assert seen_steps & night_steps <= {"night", "witch"} and "night" in seen_steps


def test_the_lovers_write_in_their_channel_and_nobody_else_reads_it(make_table):
    table = make_table(8).start(options={"lovers_channel": True})
    cupid = next(seat for seat, p in table.seats.items() if p.state(table.id)["me"]["role"] == "cupid")
    assert table.host.state(table.id)["step"]["id"] == "cupid"
    lovers = [s for s in table.seats if s != cupid][:2]
    assert table.seats[cupid].act(table.id, "cupid.pair", targets=lovers).status_code == 200
    response = table.seats[lovers[0]].chat(table.id, "lovers", "rendez-vous à l'aube")
    assert response.status_code == 201, response.get_json()
    for seat, player in table.seats.items():
        view = player.state(table.id)
        assert ("lovers" in view["chat"]) == (seat in lovers), seat
        if seat not in lovers:
            assert "rendez-vous" not in str(view)
            assert error_code(player.chat(table.id, "lovers", "x")) == "channel_closed"


def test_a_preset_refuses_a_start_outside_its_sizes_and_nothing_changes(make_table, monkeypatch):
    # chinois is 8-18 (A7.5); a built stand-in with those sizes, since its roles are not merged yet.
    eight_up = registry.Preset("eight_up", (8, 18), ((8, 18, None, ("seer",)),))
    monkeypatch.setitem(registry.PRESETS, "eight_up", eight_up)
    table = make_table(7)
    assert patch(table, {"preset": "eight_up"}).status_code == 200
    before = table.host.state(table.id)
    response = table.host.post(f"/api/tables/{table.id}/start")
    assert response.status_code == 409 and error_code(response) == "bad_player_count"
    assert table.host.state(table.id)["table"] == before["table"] and before["status"] == "lobby"
