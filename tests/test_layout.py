"""The code map (docs/code.md, linked from the README) holds: one app per concern, lower
apps never import higher ones, no import cycle between modules, no module past 500 lines,
and no Django internals.

Read from the source with ``ast``; nothing is imported or run."""

from __future__ import annotations

import ast
import subprocess
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Each app and the apps it may import. A lower app knows nothing of the ones above it. The
# engine (scoring/engine: pure Python, the rules) sits below them all; any app may use it.
ENGINE = "engine"
ALLOWED = {
    "tournaments": set(),
    "scoring": {"tournaments"},
    "public": {"tournaments", "scoring", "standings", "money", "club", "pairing"},
    "printing": {"tournaments", "scoring", "public", "standings", "money", "club", "pairing"},
    "archive": {"tournaments", "scoring", "pairing", "standings"},
    "backups": {"tournaments", "scoring", "archive"},
    "club": {"tournaments", "scoring", "standings", "pairing"},
}
# The one exception to the order: public's standings.json reads the club rating from its
# store, and the standings (page and PDF) the prizes from the money store; the store itself
# stands on tournaments and scoring only (below public).
RATING_STORE = {
    "club.ratings",
    "club.models",
    "club.rating",
    "money.pool",
    "money.models",
    "money.money",
    "money.templatetags.money_tags",
}
ALLOWED_MODULES = {"public": RATING_STORE, "printing": RATING_STORE}
PROJECT = {*ALLOWED, "config"}
MAX_LINES = 500
INTERNALS = (
    "django.db.models.sql",
    "get_compiler",
    "get_related_populators",
    "klass_info",
    "template.template",
    "backend.engine",
)


def sources() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [
        ROOT / name
        for name in listed
        if not name.startswith("tests/") and "/migrations/" not in name and (ROOT / name).exists()
    ]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, *, top_level_only: bool) -> set[str]:
    """The project modules ``path`` imports (relative imports resolved): for
    ``from package import name``, ``package.name`` when that is a module, else ``package``."""
    modules = {module_name(source) for source in sources()}
    tree = ast.parse(path.read_text())
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {name for name in found if name.split(".")[0] in PROJECT}


def test_lower_apps_never_import_higher_ones():
    wrong = []
    for path in sources():
        app = module_name(path).split(".")[0]
        if app not in ALLOWED:
            continue
        in_engine = module_name(path).startswith(ENGINE)
        for name in imports(path, top_level_only=False):
            other = name.split(".")[0]
            if in_engine and not name.startswith(ENGINE):
                wrong.append(f"{module_name(path)} (the pure engine) imports {name}")
            if name.startswith(ENGINE):
                continue
            if name in ALLOWED_MODULES.get(app, set()):
                continue
            if other != app and other not in ALLOWED[app]:
                wrong.append(f"{module_name(path)} imports {name}")
    assert wrong == []


def test_the_rating_store_stands_below_public():
    """What public may import of club imports nothing above scoring."""
    for name in RATING_STORE:
        path = ROOT / (name.replace(".", "/") + ".py")
        assert path.exists(), name
        above = {
            i
            for i in imports(path, top_level_only=False)
            if i.split(".")[0] not in {"tournaments", "scoring"}
        }
        assert above <= RATING_STORE, f"{name} imports {above - RATING_STORE}"


def test_no_import_cycle_between_modules():
    modules = {module_name(path): path for path in sources()}
    graph = defaultdict(set)
    for name, path in modules.items():
        for imported in imports(path, top_level_only=True):
            # "from package import module" names the module; else the module itself.
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                graph[name].add(imported)
    state: dict[str, str] = {}
    cycles = []

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for nxt in sorted(graph[name]):
            if state.get(nxt) == "open":
                cycles.append(" → ".join([*trail[trail.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[name] = "done"

    for name in sorted(modules):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_no_module_is_longer_than_500_lines():
    long = {
        str(path.relative_to(ROOT)): count
        for path in sources()
        if (count := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_django_internals():
    used = [
        f"{path.relative_to(ROOT)}: {marker}"
        for path in sources()
        for marker in INTERNALS
        if marker in path.read_text()
    ]
    assert used == []


def test_every_app_is_installed_and_on_the_map():
    from django.conf import settings

    code_map = (ROOT / "docs" / "code.md").read_text()
    for app in ALLOWED:
        assert app in settings.INSTALLED_APPS
        assert f"| `{app}/` |" in code_map, f"{app}/ is missing from the code map, docs/code.md"
