"""The numbers the prose states (the pages' strings, the rules page, a card's words file),
read once from the engine's catalog: one source per fact."""
import functools

from .. import engine


@functools.cache
def facts() -> dict:
    """The numbers the prose states, read once from the engine's catalog (one source per fact):
    the seats, the wolves by table size, the Little Girl's default risk, a speaking turn."""
    catalog = engine.catalog()
    options = {option["id"]: option for option in catalog["options"]}
    steps = {step["id"]: step for step in catalog["steps"]}
    return {"min": catalog["players"]["min"], "max": catalog["players"]["max"],
            "wolf_table": {int(n): wolves for n, wolves in catalog["wolf_table"].items()},
            "risk": options["little_girl_risk"]["default"], "speech": steps["speech"]["default_limit"]}
