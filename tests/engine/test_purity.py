"""The engine is pure Python: importing it must not load Django (nor must the random hands
and the simulated club nights that exercise it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "module",
    # the engine; the random hands the demo and the tools draw; the estimate's simulated
    # club nights, which play whole matches with the engine alone
    ["engine", "demo.random_hands", "tools.estimate_sim"],
)
def test_imports_no_django(module):
    code = (
        f"import sys, {module}\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(loaded))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


def test_engine_sources_import_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"__future__", "engine"}
    paths = sorted((ROOT / "engine").glob("*.py"))
    assert len(paths) > 5, "the engine's sources are not where this test looks"
    for path in paths:
        for line in path.read_text().splitlines():
            words = line.split()
            if line.startswith(("import ", "from ")) and not words[1].startswith("."):
                assert words[1].split(".")[0] in allowed, f"{path.name}: {line}"
