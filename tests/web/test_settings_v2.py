"""Settings v2 (RULES-VARIANTS A1.1, A13), the start's composition check, the catalog,
and games stored before the state version (store upgrade)."""
import json
import pathlib

from werewolf import engine, store
from werewolf.extensions import db
from werewolf.models import Game, Table

from .test_auth import error_code

FIXTURES = pathlib.Path(__file__).parent / "fixtures"


def patch(table, body):
    return table.host.request("PATCH", f"/api/tables/{table.id}/settings", body)


def engine_defaults() -> dict:
    return {option.id: option.default for option in engine.registry.OPTIONS.values()}


def test_the_guard_and_the_thief_can_be_chosen_and_default_off(make_table):
    table = make_table(6)
    shown = table.host.state(table.id)["table"]["settings"]
    assert shown["roles"]["guard"] is False and shown["roles"]["thief"] is False
    defaults = {option.id: option.default for option in engine.registry.OPTIONS.values()}
    assert shown["wolves"] is None and shown["options"] == defaults and shown["rhythm"] == "classique"
    assert defaults["spectators"] is False and defaults["fixed_night"] is False
    assert shown["preset"] is None and shown["limits"]["guard"] == 30 and shown["limits"]["thief"] == 45
    response = patch(table, {"roles": {"guard": True}})
    assert response.status_code == 200 and response.get_json()["table"]["settings"]["roles"]["guard"] is True


def test_roles_and_options_whose_rules_are_not_built_are_refused(make_table):
    table = make_table(6)
    before = table.host.state(table.id)["table"]["settings"]
    for body in ({"roles": {"dragon": True}}, {"options": {"tie": "maybe"}}, {"options": {"secret_ballot": "yes"}},
                 {"options": {"not_an_option": True}}, {"options": []}, {"options": {"little_girl_risk": 101}},
                 {"wolves": 0}, {"wolves": 7}, {"wolves": "2"}, {"rhythm": "presto"}, {"preset": "dragon"},
                 {"preset": 3}):
        response = patch(table, body)
        assert response.status_code == 400 and error_code(response) == "invalid_settings", body
    assert table.host.state(table.id)["table"]["settings"] == before


def test_a_rhythm_replaces_every_limit_then_limits_adjust_single_steps(make_table):
    table = make_table(6)
    settings = patch(table, {"rhythm": "rapide", "limits": {"vote": 33}}).get_json()["table"]["settings"]
    assert settings["rhythm"] == "rapide" and settings["limits"]["debate"] == 120
    assert settings["limits"]["guard"] == 20 and settings["limits"]["vote"] == 33
    settings = patch(table, {"rhythm": "lent"}).get_json()["table"]["settings"]
    assert settings["limits"]["werewolves"] == 180 and settings["limits"]["dawn"] == 12


def test_a_preset_fixes_the_table_by_its_size_and_a_role_patch_leaves_it(make_table, make_player):
    table = make_table(8)
    settings = patch(table, {"preset": "eclair"}).get_json()["table"]["settings"]
    assert settings["preset"] == "eclair" and settings["rhythm"] == "rapide" and settings["captain"] is False
    assert settings["roles"]["hunter"] is False and settings["roles"]["seer"] is True
    make_player().join(table.id)   # 9 seated: the Hunter comes in
    assert table.host.state(table.id)["table"]["settings"]["roles"]["hunter"] is True
    settings = patch(table, {"rhythm": "lent"}).get_json()["table"]["settings"]
    assert settings["preset"] == "eclair", "a rhythm adjusts a preset without leaving it"
    settings = patch(table, {"roles": {"cupid": True}}).get_json()["table"]["settings"]
    assert settings["preset"] is None


def test_too_many_wolves_for_the_seats_is_refused_at_the_start_and_nothing_changes(make_table):
    table = make_table(6)
    assert patch(table, {"wolves": 3}).status_code == 200   # a patch accepts 1..6
    response = table.host.post(f"/api/tables/{table.id}/start")
    assert response.status_code == 409 and error_code(response) == "bad_composition"
    view = table.host.state(table.id)
    assert view["table"]["status"] == "lobby" and view["status"] == "lobby"
    assert patch(table, {"wolves": 2}).status_code == 200
    table.start()
    assert table.host.state(table.id)["composition"]["werewolf"] == 2


def test_more_specials_than_seats_is_refused_at_the_start(make_table):
    table = make_table(6)
    patch(table, {"wolves": 2, "roles": {"guard": True, "thief": True}})
    response = table.host.post(f"/api/tables/{table.id}/start")
    assert response.status_code == 409 and error_code(response) == "bad_composition"


def test_the_catalog_lists_roles_steps_and_kinds_in_the_readers_language(make_player, app):
    alice = make_player()
    response = alice.request("GET", "/api/catalog", headers={"Accept-Language": "en"})
    assert response.status_code == 200 and response.headers["ETag"]
    catalog = response.get_json()
    roles = {r["id"]: r for r in catalog["roles"]}
    assert set(engine.ROLES) == set(roles) and roles["guard"]["camp"] == "village"
    assert roles["thief"]["middle_cards"] == 2 and roles["werewolf"]["camp"] == "wolves"
    # A2.1's order (the steps of roles built in other modules may sit between these)
    order = ["thief", "cupid", "seer", "guard", "owl", "plague", "werewolves", "witch"]
    assert [step for step in catalog["night_order"] if step in order] == order
    kinds = {a["id"]: a["kind"] for a in catalog["actions"]}
    assert kinds["thief.take"] == "card" and kinds["guard.done"] == "confirm" and kinds["cupid.pair"] == "seats"
    # A7.5: the seven presets, and RULES-BOX B7.2's three, each usable now that its roles and options are built
    assert {p["id"] for p in catalog["presets"]} == {"classique", "decouverte", "eclair", "thiercelieux", "forum",
                                                   "solitaires", "chinois", "nouvelle_lune", "personnages",
                                                   "grande_table"}
    presets = {p["id"]: p for p in catalog["presets"]}
    assert presets["grande_table"]["name"] == "Big table" and presets["personnages"]["description"]
    again = alice.request("GET", "/api/catalog", headers={"If-None-Match": response.headers["ETag"],
                                                         "Accept-Language": "en"})
    assert again.status_code == 304


def test_a_game_stored_before_the_state_version_goes_on(make_table, app):
    table = make_table(8).start()
    old_state = (FIXTURES / "game_state_v1.json").read_text()
    assert "state_version" not in old_state
    with app.app_context():
        game_id = db.session.get(Table, table.id).current_game_id  # not 1 on a shared PostgreSQL
        row = db.session.get(Game, game_id)
        row.state, row.deadline, row.status = old_state, json.loads(old_state)["deadline"], "running"
        row.rev += 1
        db.session.commit()
        store.game_cache.clear()
    view = table.host.state(table.id)
    assert view["status"] == "running" and view["step"]["id"] == "werewolves"
    table.finish_step()
    after = table.host.state(table.id)
    assert after["step"]["id"] != "werewolves" or after["step"]["seq"] > view["step"]["seq"]
    with app.app_context():
        stored = db.session.get(Game, game_id).state
    assert stored.startswith('{"state_version":2,')
