"""WCAG AA contrast (UX.md "Everyone can read it") of the colours in static/css, in both themes.

Computed from the CSS itself: the custom properties of `:root` (day) and `body.night`, every
text token on every surface token, and every rule that sets both a text colour and a background.
"""
import re
from pathlib import Path

import pytest

CSS = Path(__file__).parents[2] / "static" / "css"
AA = 4.5
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")

# Per stylesheet: the tokens written as text, and the surfaces they are written on (the night
# sky's gradient reaches #27305f at its lightest, behind the top of the page).
SHEETS = {
    "app.css": {"text": ("--text", "--muted", "--accent", "--danger-text"),
                "surfaces": ("--bg", "--bg-card", "--tile"),
                "pairs": (("--accent-text", "--accent-bg"), ("--accent-bg", "--accent-text"))},
    "screen.css": {"text": ("--fg", "--muted", "--accent", "--urgent"),
                   "surfaces": ("--bg", "--card"),
                   "pairs": ()},
}
NIGHT_SKY = "#27305f"


def luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def rules(sheet: str) -> list[tuple[str, dict]]:
    out = []
    text = re.sub(r"/\*.*?\*/", "", (CSS / sheet).read_text(), flags=re.S)
    for selector, body in RULE.findall(text):
        declarations = {}
        for line in body.split(";"):
            if ":" in line:
                prop, value = line.split(":", 1)
                declarations[prop.strip()] = value.strip()
        out.append((" ".join(selector.split()), declarations))
    return out


def themes(sheet: str) -> dict[str, dict]:
    """The custom properties in force by day and by night."""
    day, night = {}, {}
    for selector, declarations in rules(sheet):
        tokens = {k: v for k, v in declarations.items() if k.startswith("--")}
        if selector.endswith(":root"):
            day.update(tokens)
        elif selector.endswith("body.night"):
            night.update(tokens)
    return {"day": day, "night": {**day, **night}}


def resolve(value: str, tokens: dict) -> str | None:
    """A plain colour, or a var() of one; None for anything else (inherit, rgba, gradients)."""
    match = re.fullmatch(r"var\((--[\w-]+)\)", value)
    if match:
        value = tokens.get(match.group(1), "")
    return value if HEX.match(value) else None


def test_contrast_formula_matches_wcag():
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#777", "#fff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("sheet", SHEETS)
def test_every_text_token_reads_on_every_surface_in_both_themes(sheet):
    spec = SHEETS[sheet]
    low = []
    for theme, tokens in themes(sheet).items():
        surfaces = {s: tokens[s] for s in spec["surfaces"]}
        if theme == "night":
            surfaces["night sky"] = NIGHT_SKY
        pairs = [(text, surface) for text in spec["text"] for surface in surfaces] + list(spec["pairs"])
        for text, surface in pairs:
            fg, bg = tokens[text], surfaces.get(surface, tokens.get(surface))
            if contrast(fg, bg) < AA:
                low.append(f"{theme}: {text} {fg} on {surface} {bg}: {contrast(fg, bg):.2f}")
    assert not low, low


@pytest.mark.parametrize("sheet", SHEETS)
def test_rules_with_a_text_colour_and_a_background_contrast(sheet):
    low = []
    for theme, tokens in themes(sheet).items():
        for selector, declarations in rules(sheet):
            background = declarations.get("background-color") or declarations.get("background")
            if "color" not in declarations or background is None:
                continue
            fg, bg = resolve(declarations["color"], tokens), resolve(background, tokens)
            if fg and bg and contrast(fg, bg) < AA:
                low.append(f"{theme}: {selector}: {fg} on {bg}: {contrast(fg, bg):.2f}")
    assert not low, low


@pytest.mark.parametrize("sheet", SHEETS)
def test_text_written_in_a_token_uses_a_checked_one(sheet):
    """A new colour token used for text must join the list above (and so be checked)."""
    spec = SHEETS[sheet]
    checked = set(spec["text"]) | {fg for fg, _ in spec["pairs"]}
    unchecked = {(selector, declarations["color"]) for selector, declarations in rules(sheet)
                 if re.fullmatch(r"var\(--[\w-]+\)", declarations.get("color", ""))
                 and declarations["color"][4:-1] not in checked}
    assert not unchecked, unchecked


# Transparency is kept for what is inactive (a disabled button, a tile one may not choose now)
# and for the night/day veil; text that informs is never faded below its contrast.
FADED_ON_PURPOSE = {"button:disabled", ".tile.dim .tile-button", "body.fade::after", "from", "to",
                    ".tile-button:disabled"}


@pytest.mark.parametrize("sheet", SHEETS)
def test_no_text_is_faded_with_opacity(sheet):
    faded = {selector for selector, declarations in rules(sheet)
             if declarations.get("opacity", "1") not in ("1", "0") and selector not in FADED_ON_PURPOSE}
    assert not faded, faded
