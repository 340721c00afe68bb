"""Getting in and back (issue 35, point 10): « Reprendre ma partie » on the home page, no
one-tap log-out in the game's top bar, no promised place at a game under way."""
from .conftest import Player
from .test_joining import code_of


def test_the_home_page_offers_to_resume_a_running_game_only(app, make_table):
    table = make_table(6)
    home = table.players[1].client.get("/").get_data(as_text=True)
    assert 'id="resume"' not in home   # waiting: nothing to resume
    table.start()
    home = table.players[1].client.get("/").get_data(as_text=True)
    assert 'id="resume"' in home and f'href="/t/{code_of(table)}"' in home and "Reprendre ma partie" in home


def test_no_log_out_in_the_game_top_bar_but_on_the_account_page(make_table):
    table = make_table(6).start()
    player = table.players[2]
    assert 'id="logout"' not in player.client.get(f"/t/{code_of(table)}").get_data(as_text=True)
    assert 'id="logout"' in player.client.get("/account").get_data(as_text=True)


def test_the_invitation_to_a_running_game_promises_no_place(app, make_table):
    table = make_table(6)
    code = code_of(table)
    waiting = Player(app, "Zoé").client.get(f"/register?table={code}").get_data(as_text=True)
    assert "t’attend" not in waiting and 'id="invite-running"' not in waiting and "m’asseoir" in waiting
    table.start()
    running = Player(app, "Yann").client.get(f"/register?table={code}").get_data(as_text=True)
    assert 'id="invite-running"' in running and "t’attend" not in running and "m’asseoir" not in running
