"""The rules page lists every role of the engine, in French and in English."""
import re

from werewolf import engine
from werewolf.web import rules_page, strings


def test_every_engine_role_has_its_section_in_both_languages(app, make_player):
    alice = make_player()
    for lang, word in (("fr", "Règles du jeu"), ("en", "Rules of the game")):
        page = alice.client.get(f"/rules?lang={lang}").get_data(as_text=True)
        assert page.count("<h1") == 1 and word in page
        for role in engine.ROLES:
            section = re.search(rf'id="role-{role}">(.*?)</section>', page, re.S)
            assert section, role
            assert len(re.findall(r"<p>", section.group(1))) >= 2, (lang, role)  # a full description
    assert "Loup-Garou" in alice.client.get("/rules?lang=fr").get_data(as_text=True)
    assert "Werewolf" in alice.client.get("/rules?lang=en").get_data(as_text=True)


def test_the_table_page_links_to_the_rules(app, make_player):
    alice = make_player()
    table_id = alice.create_table()
    code = alice.client.get(f"/api/tables/{table_id}/state").get_json()["table"]["code"]
    page = alice.client.get(f"/t/{code}").get_data(as_text=True)
    assert 'href="/rules"' in page and 'data-rules-url="/rules"' in page


def test_the_numbers_in_the_prose_follow_the_engine_catalog(app, make_player, monkeypatch):
    """One source per fact: the seats, the wolves by size, the Little Girl's risk, a speaking turn
    are read from engine.catalog(); a change there changes the words, in every language."""
    catalog = engine.catalog()
    real = strings.facts()
    assert real["min"] == catalog["players"]["min"] and real["max"] == catalog["players"]["max"]
    changed = {**real, "min": 5, "max": 17, "speech": 44, "wolf_table": {5: 1, 6: 1, 7: 2, 8: 2, 9: 2}}
    monkeypatch.setattr(strings, "facts", lambda: changed)
    monkeypatch.setattr(rules_page, "facts", lambda: changed)
    alice = make_player()
    for lang in ("fr", "en", "zh"):
        with app.test_request_context(f"/?lang={lang}"):
            words = strings.client_strings()
        assert "5" in words["err.bad_player_count"] and "17" in words["err.bad_player_count"], lang
        assert "18" not in words["err.bad_player_count"] and "/17" in words["lobby.waiting"], lang
        assert "44" in words["option_help.speech_turns"] and "30" not in words["option_help.speech_turns"], lang
        assert f"{real['risk']}" in words["option_help.little_girl_risk"], lang
        page = alice.client.get(f"/rules?lang={lang}").get_data(as_text=True)
        wolves = re.search(r'id="roles">\s*<h2>[^<]*</h2>\s*<p>([^<]*)', page).group(1)
        assert all(n in wolves for n in ("5", "6", "7", "9")) and "16" not in wolves, (lang, wolves)
