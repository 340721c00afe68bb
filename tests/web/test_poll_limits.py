"""The state poll takes no part in the rate limiter's work (web/security.py): every limit
is a route's own, and the routes without one, the poll first, skip the limiter before and
after each request. Shown with a default limit on every route (Flask-Limiter's own
setting), which the poll must then not count against."""
import pytest


@pytest.fixture
def app(make_app):
    return make_app(RATELIMIT_DEFAULT="20 per hour")


def test_the_state_poll_is_never_counted_by_the_rate_limiter(make_table):
    table = make_table(3)
    alice = table.host
    statuses = [alice.state_response(table.id).status_code for _ in range(30)]
    assert statuses == [200] * 30
    assert not any(name.startswith("X-RateLimit") for name in alice.state_response(table.id).headers.keys())
