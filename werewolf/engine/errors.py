"""The one error the engine raises for anything the rules do not allow."""


class IllegalAction(ValueError):
    """A refused action: `code` is stable (API and tests), `message` is for people.

    Raised before anything is changed, so a refused action leaves the game as it was.
    """

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
