"""HTML pages: they render, default to French, escape user text, and carry no inline script."""
import re


def test_pages_need_login_and_keep_where_you_were_going(client):
    assert client.get("/").status_code == 302 and "/login" in client.get("/").headers["Location"]
    response = client.get("/login?next=/t/ABCDE")
    assert 'data-next="/t/ABCDE"' in response.get_data(as_text=True)


def test_login_page_is_french_by_default_and_english_on_request(client):
    html = client.get("/login").get_data(as_text=True)
    assert 'lang="fr"' in html and "Mot de passe" in html
    english = client.get("/login?lang=en")
    assert 'lang="en"' in english.get_data(as_text=True) and "Password" in english.get_data(as_text=True)
    assert "lang=en" in english.headers.get("Set-Cookie", "")
    assert 'lang="en"' in client.get("/register").get_data(as_text=True)  # remembered


def test_no_inline_script_anywhere(make_table):
    table = make_table(1)
    code = table.host.state(table.id)["table"]["code"]
    for path in ("/", f"/t/{code}", "/login"):
        html = table.host.client.get(path).get_data(as_text=True)
        for tag in re.findall(r"<script[^>]*>", html):
            assert "src=" in tag, (path, tag)
        assert not re.search(r"\son[a-z]+=", html), path


def test_names_are_escaped_in_pages(make_player):
    mallory = make_player("<img src=x>")
    table_id = mallory.create_table(name="<script>alert(1)</script>")
    code = mallory.state(table_id)["table"]["code"]
    html = mallory.client.get(f"/t/{code}").get_data(as_text=True)
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html
    assert "<img src=x>" not in html


def test_table_page_and_qr_code(make_table, make_player):
    table = make_table(1)
    code = table.host.state(table.id)["table"]["code"]
    html = table.host.client.get(f"/t/{code.lower()}").get_data(as_text=True)
    assert f'data-table-id="{table.id}"' in html and code in html
    qr = make_player().client.get(f"/t/{code}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<svg" in qr.data
    assert table.host.client.get("/t/ZZZZZ").status_code == 404


def test_strings_reach_the_scripts_as_json_data(client, make_player):
    player = make_player()
    html = player.client.get("/").get_data(as_text=True)
    match = re.search(r"data-strings='([^']*)'", html)
    assert match and "Loup-Garou" in match.group(1)


def test_every_string_the_scripts_ask_for_exists(app):
    from pathlib import Path

    from werewolf.web.strings import client_strings
    with app.test_request_context("/"):
        keys = set(client_strings())
    scripts = Path(app.static_folder, "js")
    asked = set()
    for script in scripts.glob("*.js"):
        asked |= set(re.findall(r"\bt\(\"([a-z_.]+)\"", script.read_text()))
    static = {key for key in asked if not key.endswith(".")}
    assert static and static <= keys, static - keys
    from werewolf import engine
    dynamic = ({f"role.{r}" for r in engine.ROLES} | {f"role_help.{r}" for r in engine.ROLES}
               | {f"step.{s}" for s in engine.STEPS} | {f"limit.{s}" for s in engine.STEPS}
               | {f"channel.{c}" for c in engine.CHANNELS}
               | {f"{kind}.{camp}" for kind in ("winner", "why")
                  for camp in ("village", "werewolves", "lovers", "none")})
    assert dynamic <= keys, dynamic - keys


def test_english_catalog_translates_every_string(app):
    from pathlib import Path

    from babel.messages.pofile import read_po
    root = Path(app.root_path).parents[1]
    with open(root / "translations/en/LC_MESSAGES/messages.po", "rb") as f:
        catalog = read_po(f)
    untranslated = [m.id for m in catalog if m.id and not m.string]
    assert untranslated == []


def test_scripts_parse(app):
    import shutil
    import subprocess
    from pathlib import Path

    import pytest
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    for script in Path(app.static_folder, "js").glob("*.js"):
        result = subprocess.run([node, "--check", str(script)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_error_pages_are_plain_words_in_the_reader_language(make_player):
    player = make_player()
    french = player.client.get("/t/ZZZZZ")
    assert french.status_code == 404 and "Cette page n’existe pas." in french.get_data(as_text=True)
    english = player.client.get("/t/ZZZZZ?lang=en")
    assert "This page does not exist." in english.get_data(as_text=True)
