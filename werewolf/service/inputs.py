"""What the services take from a request: the refusal they raise, names and codes cleaned."""
from ..engine import text as text_rules


class ServiceError(Exception):
    """A refused request outside the engine's rules; ``status`` is the HTTP status."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def clean_name(value, limit: int) -> str:
    """A name that shows as itself (engine/text.py), whitespace folded."""
    try:
        return text_rules.name(value, limit)
    except text_rules.TextRefused as refused:
        raise ServiceError(400, refused.code, refused.message) from None



def table_code(value) -> str | None:
    """A table code as sent (any case, spaces around), or None if it cannot be one: a NUL
    would reach PostgreSQL, which refuses it in any query."""
    return value.strip().upper() if isinstance(value, str) and "\x00" not in value else None
