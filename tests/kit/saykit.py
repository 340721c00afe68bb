"""The words keys a declaration may say (GET /api/catalog's Says: event_shapes, a step's info)."""


def said_keys(says):
    """Every key of these Says (catalog JSON), those of the parts said only sometimes too."""
    for say in says:
        if say["key"]:
            yield say["key"]
        for arg in say["args"].values():
            if isinstance(arg, dict):
                yield from said_keys(arg["says"])
