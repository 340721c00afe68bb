"""The headers a poll and a stream read (Prefer, If-None-Match, Last-Event-ID), fuzzed:
whatever a client sends in them, the answer is a view, a 304 or a 4xx, never a 500."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import requires_sqlite

pytestmark = requires_sqlite

# What a header may carry on the wire (latin-1, no line breaks), leaning on what the server parses.
_VALUES = st.one_of(
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=80),
    st.builds(lambda n, tail: f"wait={n}{tail}", st.integers(-10, 10**9), st.sampled_from(["", ";", ",", '"', " x"])),
    st.builds(lambda body: f'"{body}"', st.text("0123456789abcdef\"*, W/", max_size=70)),
)


def test_fuzzed_poll_and_stream_headers_are_never_a_server_error(make_table):
    table = make_table(6).start()
    player = table.players[0]
    path = f"/api/tables/{table.id}"

    # No "*" (every view) in If-None-Match: with a Prefer: wait, that poll would be held (up to 10 s).
    @given(prefer=_VALUES, if_none_match=_VALUES.filter(lambda v: "*" not in v), last_event_id=_VALUES)
    @settings(max_examples=150, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(prefer, if_none_match, last_event_id):
        polled = player.client.get(f"{path}/state", headers={"If-None-Match": if_none_match, "Prefer": prefer})
        assert polled.status_code in (200, 304), (prefer, if_none_match, polled.get_data()[:200])
        streamed = player.client.get(f"{path}/events", buffered=False,
                                     headers={"Accept": "text/event-stream", "Last-Event-ID": last_event_id})
        try:
            assert streamed.status_code == 200, (last_event_id, streamed.get_data()[:200])
            chunks = iter(streamed.response)
            assert next(chunks) == b"retry: 1000\n\n"
            assert next(chunks).startswith((b"id: ", b"event: beat"))  # a view, or the one the phone has
        finally:
            streamed.close()

    fuzz()
