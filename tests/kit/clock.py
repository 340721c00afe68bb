"""The one clock of the tests: apps take it as ``CLOCK``, and time moves only when told."""

START = 1_800_000_000.0  # a fixed "now" (2027-01-15): tests never read the real clock


class Clock:
    """The app's clock in tests: ``clock.advance(seconds)`` instead of sleeping."""

    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
