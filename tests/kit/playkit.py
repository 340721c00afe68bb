"""Random legal play: a body for any prompt action, and the values an option may take."""
import random


def option_values(option) -> list:
    if option.values:
        return list(option.values)
    if isinstance(option.default, bool):
        return [False, True]
    if option.bounds:
        return [option.bounds[0], option.default, option.bounds[1]]
    return [option.default]


def body_for(rng: random.Random, spec: dict) -> dict:
    body = {"action": spec["action"]}
    if "cards" in spec:
        body["card"] = rng.choice(spec["choices"])
    elif "count" in spec:
        body["targets"] = rng.sample(spec["choices"], spec["count"])
    elif "min" in spec:   # from min to max seats (scapegoat.voters)
        body["targets"] = rng.sample(spec["choices"], rng.randint(spec["min"], spec["max"]))
    elif "choices" in spec:
        body["target"] = rng.choice(spec["choices"] + ([None] if spec.get("nullable") else []))
    return body
