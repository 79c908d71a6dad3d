"""The code map (docs/code.md, linked from the README, and docs/map.md, drawn from the code
by `make map`) holds: every import counted (those inside functions and under
TYPE_CHECKING too), no circle between modules, no two apps importing each other nor any
longer circle between apps, every app on its floor, no private name taken from another
module, no app over a quarter of the lines, no module past 500 lines, a pure ground floor,
no Django internals, and a map that is what `make map` draws now.

Read from the source with ``ast`` (``tools/layout_map.py``, the walk ``make map`` draws
with too); nothing is imported or run. The second half runs each check on a small package
written for the test, so that each is seen to fail."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tools import layout_map
from tools.layout_map import (
    MAP,
    PURE,
    ROOT,
    STANDS_ON,
    app_circles,
    draw,
    floor_offenders,
    impure,
    module_circles,
    oversized,
    private_imports,
    walk,
)

INTERNALS = (
    "django.db.models.sql",
    "get_compiler",
    "get_related_populators",
    "klass_info",
    "template.template",
    "backend.engine",
)


def offenders(found: list[str]) -> str:
    return "\n" + "\n".join(found)


@pytest.fixture(scope="module")
def project() -> dict[str, layout_map.Module]:
    modules = walk()
    # The walk reads the project, not nothing: every app of the table on disk is in it.
    assert {"engine", "tournaments", "scoring", "config"} <= {m.app for m in modules.values()}
    return modules


def test_no_circle_between_modules(project):
    found = module_circles(project)
    assert found == [], "modules importing each other, round a circle:" + offenders(found)


def test_no_two_apps_import_each_other_nor_any_circle_of_apps(project):
    found = app_circles(project)
    assert found == [], "apps importing each other:" + offenders(found)


def test_every_app_imports_only_the_apps_below_its_floor(project):
    found = floor_offenders(project)
    assert found == [], "imports against the floors (STANDS_ON):" + offenders(found)


def test_no_private_name_is_taken_from_another_module(project):
    found = private_imports(project)
    assert found == [], "private names taken from another module:" + offenders(found)


def test_no_app_over_a_quarter_of_the_lines_and_no_module_over_500(project):
    found = oversized(project)
    assert found == [], "too big:" + offenders(found)


def test_the_ground_floor_imports_no_django_and_nothing_of_the_project(project):
    assert set(PURE) <= {m.app for m in project.values()}
    found = impure(project)
    assert found == [], "the pure packages import:" + offenders(found)


def test_no_django_internals(project):
    used = [
        f"{module.file}: {marker}"
        for module in project.values()
        for marker in INTERNALS
        if marker in module.path.read_text()
    ]
    assert used == [], "Django internals:" + offenders(used)


def test_every_app_is_installed_packaged_and_on_the_code_map():
    from django.conf import settings

    code_map = (ROOT / "docs" / "code.md").read_text()
    wrong = [
        f"{app} is not in INSTALLED_APPS"
        for app in STANDS_ON
        if app not in {*PURE, "config"} and app not in settings.INSTALLED_APPS
    ] + [
        f"{app}/ is missing from the code map, docs/code.md"
        for app in STANDS_ON
        if f"| `{app}/` |" not in code_map
    ]
    packaged = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    included = packaged["packages"]["find"]["include"]
    wrong += [
        f"{app} is not in the wheel (pyproject.toml's packages)"
        for app in STANDS_ON
        if f"{app}*" not in included
    ]
    assert wrong == [], offenders(wrong)


def test_the_map_is_what_make_map_draws_now(project):
    """Every figure too (modules, lines, shares, importing modules): the map is the code's
    as it stands, so a change that moves them runs `make map` in the same commit."""
    assert MAP.read_text() == draw(project), (
        "docs/map.md is not what the code gives now (apps, floors, imports or figures): "
        "run `make map`"
    )


# Each check, seen to fail on a small package written for the test.


def write(root: Path, files: dict[str, str]) -> dict[str, layout_map.Module]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return walk(root, files)


def test_a_circle_between_modules_is_reported(tmp_path):
    modules = write(
        tmp_path,
        {
            "a/__init__.py": "",
            "a/x.py": "from a import y\n",
            "a/y.py": "from . import z\n",
            "a/z.py": "import a.x\n",
            "a/alone.py": "import a.x\n",
        },
    )
    assert module_circles(modules) == ["3 modules: a.x → a.y; a.y → a.z; a.z → a.x"]


def test_a_circle_closed_by_deferred_imports_is_reported(tmp_path):
    modules = write(
        tmp_path,
        {
            "a/__init__.py": "",
            "a/x.py": "def f():\n    from a.y import g\n    return g()\n",
            "a/y.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from a.x import f\n"
                "def g():\n    return 1\n"
            ),
        },
    )
    assert module_circles(modules) == ["2 modules: a.x → a.y; a.y → a.x"]


def test_a_private_name_taken_from_another_module_is_reported(tmp_path):
    modules = write(
        tmp_path,
        {
            "a/__init__.py": "",
            "a/x.py": "_hidden = 1\n_ = str\ndef __getattr__(name): ...\n",
            "a/y.py": "from a.x import _hidden, _, __getattr__\n",
            "a/z.py": "from a import x\nVALUE = x._hidden\n",
            "a/w.py": "import a.x as ax\nimport a.x\nVALUE = ax._hidden + a.x._hidden\n",
            "a/own.py": "_mine = 1\nclass C:\n    _field = 2\nVALUE = C._field + _mine\n",
        },
    )
    assert private_imports(modules) == [
        "a.w takes a.x._hidden",
        "a.y takes a.x._hidden",
        "a.z takes a.x._hidden",
    ]


def test_two_apps_importing_each_other_and_a_longer_circle_are_reported(tmp_path):
    modules = write(
        tmp_path,
        {
            "a/__init__.py": "",
            "a/x.py": "import b.x\n",
            "b/__init__.py": "",
            "b/x.py": "def f():\n    import a.x\n",
            "c/__init__.py": "from d import y\n",
            "d/__init__.py": "",
            "d/y.py": "import e\n",
            "e/__init__.py": "import c\n",
        },
    )
    assert app_circles(modules) == [
        "a ⇄ b: a imports b in a.x; b imports a in b.x",
        "circle between apps: c, d, e",
    ]


def test_an_import_against_the_floors_is_reported(tmp_path):
    files = {
        "low/__init__.py": "",
        "low/x.py": "from high import y\n",
        "high/__init__.py": "",
        "high/y.py": "import low.x\nimport top\n",
        "top/__init__.py": "import low\n",
        "stray/__init__.py": "",
    }
    table = {"low": set(), "high": {"low"}, "top": {"high"}}
    assert floor_offenders(write(tmp_path, files), table) == [
        "stray is not in the table of floors (tools/layout_map.py STANDS_ON)",
        "high.y (high) imports top (top)",
        "low.x (low) imports high.y (high)",
    ]
    assert layout_map.floors(table) == {"low": 0, "high": 1, "top": 2}
    assert layout_map.allowed(table)["top"] == {"low", "high"}


def test_an_app_over_a_quarter_and_a_module_over_500_lines_are_reported(tmp_path):
    modules = write(
        tmp_path,
        {
            "big/__init__.py": "",
            "big/long.py": "x = 1\n" * 501,
            **{f"small{n}/__init__.py": "x = 1\n" * 400 for n in range(3)},
        },
    )
    assert oversized(modules) == [
        "big: 501 of 1701 lines (29.5%, at most 25%)",
        "big/long.py: 501 lines (at most 500)",
    ]


def test_the_ground_floor_importing_django_or_the_project_is_reported(tmp_path):
    modules = write(
        tmp_path,
        {
            "pure/__init__.py": "import dataclasses\nfrom . import rules\n",
            "pure/rules.py": "import networkx\n",
            "pure/late.py": "def f():\n    from django.db import models\n    import app.x\n",
            "app/__init__.py": "",
            "app/x.py": "import pure\n",
        },
    )
    assert impure(modules, {"pure": set()}) == [
        "pure.late imports app.x, django",
        "pure.rules imports networkx",
    ]
    assert impure(modules, {"pure": {"networkx", "django"}}) == ["pure.late imports app.x"]


def test_the_map_counts_importing_modules_and_marks_arrows_against_the_floors(tmp_path):
    modules = write(
        tmp_path,
        {
            "low/__init__.py": "import high\n",
            "high/__init__.py": "",
            "high/a.py": "import low\n",
            "high/b.py": "from low import thing\n",
        },
    )
    drawn = draw(modules, {"low": set(), "high": {"low"}})
    assert "| 0 | `low/` | nothing | 1 | 1 | 33.3% |" in drawn
    assert "| 1 | `high/` | `low` | 3 | 2 | 66.7% |" in drawn
    assert "| `high` | → `low` (2) |" in drawn
    assert "| `low` | → `high` (1) **against the floors** |" in drawn
    assert "    high -->|2| low" in drawn
    assert "    low -->|1| high" in drawn
    assert "linkStyle 0 stroke:#c00" in drawn
    assert "linkStyle 1 " not in drawn
