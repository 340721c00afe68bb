"""Three languages: French (source), English, Traditional Chinese (RULES-VARIANTS A10)."""
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

CATALOGS = sorted((Path(__file__).resolve().parents[2] / "translations").glob("*/LC_MESSAGES/messages.po"))
FIELDS = re.compile(r"\{\w+\}|%\(\w+\)s")


def test_three_catalogs():
    assert {p.parts[-3] for p in CATALOGS} == {"en", "zh_Hant"}


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parts[-3])
def test_every_string_is_translated_with_the_same_fields(path):
    catalog = read_po(path.open("rb"))
    messages = [m for m in catalog if m.id]
    assert len(messages) > 200
    for m in messages:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings) and not m.fuzzy, f"untranslated: {m.id!r}"  # fuzzy is not compiled
        for string in strings:  # every plural form keeps the fields (zh has one form, fr and en two)
            assert sorted(FIELDS.findall(string)) == sorted(FIELDS.findall(ids[-1])), m.id


def test_chinese_catalog_is_traditional_and_uses_the_glossary():
    catalog = read_po((Path(CATALOGS[0]).parents[2] / "zh_Hant/LC_MESSAGES/messages.po").open("rb"))
    assert catalog.plural_forms == "nplurals=1; plural=0;"
    text = {m.id: m.string for m in catalog if m.id}
    glossary = {"Loup-Garou": "狼人", "Villageois": "村民", "Voyante": "預言家", "Sorcière": "女巫",
                "Chasseur": "獵人", "Cupidon": "丘比特", "Capitaine": "警長", "Élection du Capitaine": "競選警長",
                "Débat": "討論", "Vote du village": "放逐投票", "La Voyante se réveille…": "預言家請睜眼……",
                "Le village se réveille.": "天亮了，請睜眼。", "Composition": "角色配置"}
    for french, chinese in glossary.items():
        assert text[french] == chinese, french
    simplified = set("预猎长竞选讨论时间线设阶们这过没为请开关络连听说话")  # their Traditional forms differ
    assert not {ch for s in text.values() for ch in s} & simplified, "Simplified characters"


@pytest.mark.parametrize("header,lang,word", [
    ("zh-TW,zh;q=0.9", "zh-Hant", "密碼"), ("zh-CN", "zh-Hant", "密碼"), ("zh", "zh-Hant", "密碼"),
    ("en-GB,en;q=0.8", "en", "Password"), ("de-DE,de;q=0.9", "fr", "Mot de passe"), (None, "fr", "Mot de passe"),
])
def test_first_visit_follows_the_browser_language(client, header, lang, word):
    headers = {"Accept-Language": header} if header else {}
    html = client.get("/login", headers=headers).get_data(as_text=True)
    assert f'<html lang="{lang}">' in html and word in html


def test_the_switch_wins_over_the_browser_and_is_remembered(client):
    html = client.get("/login?lang=zh", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="zh-Hant">' in html and "登入" in html
    for label in ("FR", "EN", "中文"):
        assert f">{label}<" in html
    assert 'aria-current="true" lang="zh">中文' in html
    html = client.get("/register", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="zh-Hant">' in html  # the cookie
    assert "Mot de passe" in client.get("/login?lang=fr").get_data(as_text=True)


def test_strings_for_the_scripts_in_chinese(make_player):
    player = make_player()
    import html as html_module
    import json
    page = player.client.get("/?lang=zh").get_data(as_text=True)
    strings = json.loads(html_module.unescape(re.search(r"data-strings='([^']*)'", page).group(1)))
    assert strings["step.seer"] == "預言家請睜眼……" and strings["step.vote"] == "放逐投票"


@pytest.mark.parametrize("lang", ["fr", "en", "zh"])
def test_the_catalog_names_every_role_step_option_and_preset_in_each_language(client, lang):
    """The pages show what the catalog names: a registered role, step, option, choice value or
    preset with no words of its own would show its id to players."""
    client.get(f"/login?lang={lang}")
    response = client.get("/api/catalog")
    assert response.status_code == 200
    catalog = response.get_json()
    unnamed = [r["id"] for r in catalog["roles"] if r["name"] == r["id"] or not r["description"]]
    unnamed += [s["id"] for s in catalog["steps"] if s["name"] == s["id"]]
    unnamed += [o["id"] for o in catalog["options"] if o["name"] == o["id"] or not o["description"]]
    unnamed += [f"{o['id']}.{v}" for o in catalog["options"] for v, name in o.get("value_names", {}).items() if name == v]
    unnamed += [p["id"] for p in catalog["presets"] if p["name"] == p["id"] or not p["description"]]
    assert not unnamed
