"""The simulator's seeds. ``make test`` plays each scenario with the few seeds its test
names; ``EVENTS_SEEDS=N`` (``make events SEEDS=200``) plays seeds 1 to N of every one."""

from __future__ import annotations

import os

import pytest


def seeds(default: tuple[int, ...]) -> list[int]:
    many = os.environ.get("EVENTS_SEEDS", "")
    return list(range(1, int(many) + 1)) if many.isdigit() else list(default)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "seed" in metafunc.fixturenames:
        default = getattr(metafunc.function, "seeds", (1,))
        metafunc.parametrize("seed", seeds(default), ids=lambda s: f"seed{s}")
