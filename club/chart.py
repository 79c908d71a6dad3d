"""The rating history as an inline SVG chart: coordinates worked out here, drawn by the
template (``club/partials/rating_chart.html``). No JavaScript, no library; the numbers
are also in the page as a table for screen readers and for anyone without SVG."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 220
LEFT = 56  # room for the axis labels
RIGHT = 8
TOP = 10
BOTTOM = 24


@dataclass(frozen=True, slots=True)
class Tick:
    y: float
    label: int


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    line: str
    """The rating after each match: ``points`` of an SVG polyline."""
    band: str
    """The uncertainty (± two standard deviations) around it: ``points`` of a polygon."""
    ticks: tuple[Tick, ...]
    last_x: float
    last_y: float
    left: int = LEFT
    right: int = WIDTH - RIGHT
    bottom: int = HEIGHT - BOTTOM


def rating_chart(points: Sequence[tuple[float, float]]) -> Chart | None:
    """``points``: (rating, uncertainty as two standard deviations), the starting rating
    first, then one per match. None with fewer than two points."""
    if len(points) < 2:
        return None
    lows = [mu - band for mu, band in points]
    highs = [mu + band for mu, band in points]
    low, high, step = _nice(min(lows), max(highs))
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / (len(points) - 1), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    line = " ".join(f"{x(i)},{y(mu)}" for i, (mu, _band) in enumerate(points))
    upper = [f"{x(i)},{y(v)}" for i, v in enumerate(highs)]
    lower = [f"{x(i)},{y(v)}" for i, v in reversed(list(enumerate(lows)))]
    count = round((high - low) / step)
    ticks = tuple(Tick(y(low + step * k), round(low + step * k)) for k in range(count + 1))
    return Chart(
        WIDTH, HEIGHT, line, " ".join(upper + lower), ticks, x(len(points) - 1), y(points[-1][0])
    )


STEPS = (50, 100, 200, 250, 500, 1000, 2000, 2500, 5000)


def _nice(low: float, high: float) -> tuple[float, float, int]:
    """The axis range, outward to a round step, and the step (at most six lines)."""
    step = next((s for s in STEPS if (high - low) / s <= 5), STEPS[-1])
    low_, high_ = (low // step) * step, -((-high) // step) * step
    if high_ <= low_:
        high_ = low_ + step
    return low_, high_, step
