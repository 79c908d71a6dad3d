"""Text contrast the stylesheet decides by itself (issue 28 item 8): a finished round's
"2 of 2 complete" on Round control was the muted grey faded by the round's opacity,
#8f8f87 on the paper #fbfaf6 (3.1:1, axe "serious"). WCAG 2 AA wants 4.5:1 for text
this size; this computes it the way axe does: the colour blended by the opacity over
the background, then the relative luminance ratio."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

SITE_CSS = Path(settings.BASE_DIR) / "static" / "css" / "site.css"


def luminance(colour: tuple[float, float, float]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(hex_colour: str) -> tuple[float, float, float]:
    value = hex_colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def declarations(css: str, selector: str) -> dict[str, str]:
    """The declarations of every rule whose selector list holds ``selector`` exactly."""
    found: dict[str, str] = {}
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        if selector in (part.strip() for part in selectors.split(",")):
            for name, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", body):
                found[name.strip()] = value.strip()
    return found


def test_a_finished_rounds_progress_keeps_aa_contrast():
    css = SITE_CSS.read_text()
    root = declarations(css, ":root")
    muted, paper = rgb(root["--muted"]), rgb(root["--paper"])
    done = declarations(css, ".round-control .round.done")
    opacity = float(done.get("opacity", "1"))
    background = rgb(done["background"]) if "background" in done else paper
    shown = tuple(opacity * m + (1 - opacity) * p for m, p in zip(muted, background, strict=True))
    assert contrast(shown, background) >= 4.5, (shown, background)
