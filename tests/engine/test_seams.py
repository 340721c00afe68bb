"""The kernel's seams are a closed set (issue 34): docs/ENGINE.md "The kernel's seams" names
every hook point and says how many there are, and every point has a card or an option using it."""
import re
from pathlib import Path

from werewolf.engine import registry

ENGINE_MD = Path(__file__).resolve().parents[2] / "docs" / "ENGINE.md"


def seams_section() -> str:
    text = ENGINE_MD.read_text()
    return text[text.index("## The kernel's seams"):].split("\n## ", 1)[0]


def test_the_seams_section_names_every_point_and_their_number():
    section = seams_section()
    named = set(re.findall(r"`(\w+)(?:\(|`)", section))
    assert set(registry.HOOK_POINTS) <= named, set(registry.HOOK_POINTS) - named
    assert f"`registry.HOOK_POINTS`, {len(registry.HOOK_POINTS)} of them" in section


def test_every_point_has_a_user():
    used = {point for part in [*registry.MODULES.values(), *registry.OPTIONS.values()] for point in part.hooks}
    assert used == set(registry.HOOK_POINTS), set(registry.HOOK_POINTS) - used
