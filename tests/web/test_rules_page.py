"""The rules page lists every role of the engine, in French and in English."""
import re

from werewolf import engine


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
