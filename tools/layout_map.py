"""The project's imports, read from the source with ``ast`` (nothing is imported or run),
and the code map drawn from them.

One walk serves both: ``tests/test_layout.py`` checks the layout with it (no circle
between modules or apps, every app on its floor, no private name taken from another
module, no app or module too big, the pure packages pure), and ``make map``
(``python -m tools.layout_map``) writes docs/map.md from it: the apps floor by floor,
their size, their imports, and a Mermaid graph of them.

Every import counts: top-level ones, those inside functions, under ``TYPE_CHECKING``, and
the dotted strings of ``include("app.urls")`` and ``import_module("…")``."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "docs" / "map.md"

# The floors, from the ground up: each app and the apps it stands on. An app may import
# the apps it stands on and everything below them, never an app beside or above it.
STANDS_ON: dict[str, set[str]] = {
    # The ground floor: pure Python, nothing of the project and no Django (pairing may
    # use networkx for Swiss pairing).
    "engine": set(),
    "pairing": set(),
    # The ground floor of the site: the plumbing every app uses and no tournament owns
    # (addresses, the language, numbers, unique races, submissions, the limiter, page()).
    "web": set(),
    # One tournament: players, entries, stages, the draw, matches.
    "tournaments": {"engine", "pairing", "web"},
    # The people who run tournaments: accounts, roles, directors.
    "accounts": {"tournaments"},
    # The player registry and its import (the registrar is an account); the hands and
    # their entry.
    "players": {"accounts"},
    # The tables and the phones at them (table links, labels, calls to the director).
    "tables": {"tournaments"},
    "scoring": {"tables"},
    # The results every surface reads.
    "standings": {"scoring"},
    # One tournament's money: pool, payouts, side pots, payments.
    "money": {"standings"},
    # The club across tournaments: ratings, seasons, player pages (the public pages and
    # the PDFs show its rating, so it stands below them).
    "club": {"standings", "players"},
    # The public pages, and every PDF (printing prints what the pages show).
    "public": {"money", "club"},
    "printing": {"public"},
    # The archive (export, import, verify) and the backups (a restore verifies with it).
    "archive": {"standings"},
    "backups": {"archive"},
    # Publishing a night from the venue to the club's server, which mirrors it.
    "publishing": {"archive"},
    # The demo seeds every app; config (settings, URLs, the ginclub command) holds all.
    "demo": {"printing", "archive", "backups"},
    "config": {"demo", "publishing"},
}
# The ground floor's packages and the only imports they may make outside their own package.
PURE = {"engine": set(), "pairing": {"networkx"}}
MAX_LINES = 500
MAX_SHARE = 0.25
# The gettext alias is not a private name.
NOT_PRIVATE = {"_"}
# Dotted strings that name a module to import: include("app.urls"), import_module(...).
IMPORTING_CALLS = {"include", "import_module", "import_string"}


@dataclass
class Module:
    name: str
    path: Path
    file: str
    lines: int
    # Project modules imported (the deepest module each import names).
    imports: set[str] = field(default_factory=set)
    # Top-level names of everything else imported (standard library, Django, networkx…).
    outside: set[str] = field(default_factory=set)
    # (module, name): a private name this module takes from another project module.
    private: set[tuple[str, str]] = field(default_factory=set)

    @property
    def app(self) -> str:
        return self.name.split(".")[0]


def tracked_sources(root: Path = ROOT) -> list[str]:
    """The site's Python files (paths relative to ``root``): tracked by git, not tests or
    the developers' tools (``tools/``, which are not the site and drive it from outside),
    not migrations, not the top-level scripts (manage.py, setup.py) or the CI's."""
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    return [
        name
        for name in listed
        if "/" in name
        and not name.startswith(("tests/", "tools/", "."))
        and "/migrations/" not in name
        and (root / name).exists()
    ]


def module_name(relative: str | Path) -> str:
    parts = list(Path(relative).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def walk(root: Path = ROOT, files: Iterable[str | Path] | None = None) -> dict[str, Module]:
    """Every module under ``root`` (``files``, relative paths; by default the tracked
    sources) with every import it makes."""
    paths = {module_name(f): root / f for f in (tracked_sources(root) if files is None else files)}
    modules = {
        name: Module(
            name, path, path.relative_to(root).as_posix(), len(path.read_text().splitlines())
        )
        for name, path in paths.items()
    }
    for module in modules.values():
        _read_imports(module, modules)
    return modules


def _deepest(dotted: str, modules: Mapping[str, Module]) -> str | None:
    while dotted and dotted not in modules:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"]; None for anything but names and attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def _imported_string(call: ast.Call, modules: Mapping[str, Module]) -> str | None:
    """The project module a call such as ``include("app.urls")`` imports by its name."""
    callee = _dotted(call.func)
    if callee is None or callee[-1] not in IMPORTING_CALLS or not call.args:
        return None
    first = call.args[0]
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return None
    return _deepest(first.value, modules)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in NOT_PRIVATE


def _read_imports(module: Module, modules: Mapping[str, Module]) -> None:
    tree = ast.parse(module.path.read_text(), filename=str(module.path))
    package = module.name.split(".")
    if module.path.name != "__init__.py":
        package = package[:-1]
    # Local names bound to a project module by an import: name -> dotted module.
    bound: dict[str, str] = {}

    def project(dotted: str) -> str | None:
        found = _deepest(dotted, modules)
        if found is None:
            module.outside.add(dotted.split(".")[0])
        return found

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (found := project(alias.name)) is not None:
                    module.imports.add(found)
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        head = alias.name.split(".")[0]
                        bound[head] = head
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in modules:
                    module.imports.add(full)
                    bound[alias.asname or alias.name] = full
                elif (found := project(base)) is not None:
                    module.imports.add(found)
                    if _is_private(alias.name):
                        module.private.add((found, alias.name))
        elif isinstance(node, ast.Call) and (found := _imported_string(node, modules)):
            module.imports.add(found)
    # x._y on a project module this module imported as x (x.y._z too).
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _is_private(node.attr)):
            continue
        chain = _dotted(node.value)
        if chain is None or chain[0] not in bound:
            continue
        dotted = ".".join([bound[chain[0]], *chain[1:]])
        if dotted in modules:
            module.private.add((dotted, node.attr))
    module.imports.discard(module.name)
    module.private = {(owner, name) for owner, name in module.private if owner != module.name}


# The checks: each returns the offenders as readable lines, empty when all is well.


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The circles of a graph: each strongly connected component of more than one node,
    sorted (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    nodes = sorted({*graph, *(n for targets in graph.values() for n in targets)})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def module_circles(modules: Mapping[str, Module]) -> list[str]:
    """Each circle of modules, with the imports that close it: "a → b, c; b → a"."""
    graph = {name: module.imports for name, module in modules.items()}
    return [
        f"{len(circle)} modules: "
        + "; ".join(f"{name} → {', '.join(sorted(graph[name] & set(circle)))}" for name in circle)
        for circle in strongly_connected(graph)
    ]


def app_imports(modules: Mapping[str, Module]) -> dict[str, dict[str, list[str]]]:
    """app -> imported app -> the modules of the first that import the second."""
    arrows: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for module in modules.values():
        for name in module.imports:
            other = name.split(".")[0]
            if other != module.app:
                arrows[module.app][other].add(module.name)
    return {
        app: {other: sorted(users) for other, users in sorted(targets.items())}
        for app, targets in sorted(arrows.items())
    }


def _examples(users: list[str]) -> str:
    shown = ", ".join(users[:3])
    return shown + (f" and {len(users) - 3} more" if len(users) > 3 else "")


def app_circles(modules: Mapping[str, Module]) -> list[str]:
    """Two apps importing each other, and any longer circle between apps."""
    arrows = app_imports(modules)
    wrong = []
    for circle in strongly_connected(arrows):
        pairs = [
            (a, b) for a in circle for b in circle if a < b and b in arrows[a] and a in arrows[b]
        ]
        for a, b in pairs:
            wrong.append(
                f"{a} ⇄ {b}: {a} imports {b} in {_examples(arrows[a][b])}; "
                f"{b} imports {a} in {_examples(arrows[b][a])}"
            )
        if len(circle) > 2 or not pairs:
            wrong.append("circle between apps: " + ", ".join(circle))
    return wrong


def allowed(table: Mapping[str, set[str]] = STANDS_ON) -> dict[str, set[str]]:
    """Each app and every app below it (the apps it stands on, theirs, and so on)."""
    below: dict[str, set[str]] = {}

    def under(app: str) -> set[str]:
        if app not in below:
            below[app] = set()
            for lower in table[app]:
                below[app] |= {lower, *under(lower)}
        return below[app]

    return {app: under(app) for app in table}


def floors(table: Mapping[str, set[str]] = STANDS_ON) -> dict[str, int]:
    """Each app's floor: 0 for the ground, else one above the highest app it stands on."""
    floor: dict[str, int] = {}

    def of(app: str) -> int:
        if app not in floor:
            floor[app] = 1 + max((of(lower) for lower in table[app]), default=-1)
        return floor[app]

    return {app: of(app) for app in table}


def floor_offenders(
    modules: Mapping[str, Module], table: Mapping[str, set[str]] = STANDS_ON
) -> list[str]:
    """Every import of an app its floor does not allow, and every app missing from the
    table."""
    below = allowed(table)
    wrong = sorted(
        f"{app} is not in the table of floors (tools/layout_map.py STANDS_ON)"
        for app in {module.app for module in modules.values()} - set(table)
    )
    for app, targets in app_imports(modules).items():
        for other, users in targets.items():
            if app in table and other not in below[app]:
                for user in users:
                    imported = sorted(n for n in modules[user].imports if n.split(".")[0] == other)
                    wrong.append(f"{user} ({app}) imports {', '.join(imported)} ({other})")
    return wrong


def private_imports(modules: Mapping[str, Module]) -> list[str]:
    return sorted(
        f"{module.name} takes {owner}.{name}"
        for module in modules.values()
        for owner, name in module.private
    )


def lines_per_app(modules: Mapping[str, Module]) -> dict[str, int]:
    per_app: dict[str, int] = defaultdict(int)
    for module in modules.values():
        per_app[module.app] += module.lines
    return dict(per_app)


def oversized(modules: Mapping[str, Module]) -> list[str]:
    """Any app over a quarter of the project's lines, any module over 500 lines."""
    per_app = lines_per_app(modules)
    total = sum(per_app.values())
    return [
        f"{app}: {lines} of {total} lines ({100 * lines / total:.1f}%, at most "
        f"{100 * MAX_SHARE:.0f}%)"
        for app, lines in sorted(per_app.items())
        if lines > MAX_SHARE * total
    ] + [
        f"{module.file}: {module.lines} lines (at most {MAX_LINES})"
        for module in sorted(modules.values(), key=lambda m: m.name)
        if module.lines > MAX_LINES
    ]


def impure(modules: Mapping[str, Module], pure: Mapping[str, set[str]] = PURE) -> list[str]:
    """The ground floor's packages import nothing of the project and no Django: only the
    standard library (and what ``pure`` allows each)."""
    wrong = []
    for module in sorted(modules.values(), key=lambda m: m.name):
        if module.app not in pure:
            continue
        project = sorted(n for n in module.imports if n.split(".")[0] != module.app)
        foreign = sorted(
            name
            for name in module.outside
            if name not in sys.stdlib_module_names and name not in pure[module.app]
        )
        if project or foreign:
            wrong.append(f"{module.name} imports {', '.join(project + foreign)}")
    return wrong


# The map: docs/map.md, written by `make map`.


def draw(modules: Mapping[str, Module], table: Mapping[str, set[str]] = STANDS_ON) -> str:
    per_app = lines_per_app(modules)
    total = sum(per_app.values())
    count: dict[str, int] = defaultdict(int)
    for module in modules.values():
        count[module.app] += 1
    floor = floors(table)
    below = allowed(table)
    arrows = app_imports(modules)
    apps = sorted(per_app, key=lambda app: (floor.get(app, 99), app))
    out = [
        "# The map of the apps",
        "",
        "Drawn from the code by `make map` (`tools/layout_map.py`, the same import walk as",
        "`tests/test_layout.py`, which fails when this file is not what `make map` would",
        "write now): do not edit it by hand. Every import counts, those inside functions and",
        "under `TYPE_CHECKING` included; tests and migrations are left out.",
        "",
        "Floors from the ground up: an app may import the apps it stands on and everything",
        "below them (`STANDS_ON` in `tools/layout_map.py`), never an app beside or above it.",
        "",
        "| floor | app | stands on | modules | lines | % of the project |",
        "|---|---|---|---|---|---|",
    ]
    for app in apps:
        on = ", ".join(f"`{lower}`" for lower in sorted(table.get(app, ()))) or "nothing"
        out.append(
            f"| {floor.get(app, '?')} | `{app}/` | {on} | {count[app]} | {per_app[app]:,} "
            f"| {100 * per_app[app] / total:.1f}% |"
        )
    out += [
        f"| | **all** | | {len(modules)} | {total:,} | 100% |",
        "",
        "## Imports",
        "",
        "Each arrow: the app imported and, in brackets, how many modules of the importing",
        "app import it. An arrow its floor does not allow is marked **against the floors**.",
        "",
        "| app | imports |",
        "|---|---|",
    ]
    for app in apps:
        targets = arrows.get(app, {})
        shown = [
            f"→ `{other}` ({len(users)})"
            + ("" if other in below.get(app, set()) else " **against the floors**")
            for other, users in sorted(targets.items(), key=lambda t: (floor.get(t[0], 99), t[0]))
        ]
        out.append(f"| `{app}` | {' · '.join(shown) or 'nothing of the project'} |")
    out += ["", "```mermaid", "graph BT"]
    for app in apps:
        out.append(f'    {app}["{app}<br/>{per_app[app]:,} lines"]')
    links = []
    for app in apps:
        for other, users in arrows.get(app, {}).items():
            out.append(f"    {app} -->|{len(users)}| {other}")
            links.append(other in below.get(app, set()))
    out += [
        f"    linkStyle {number} stroke:#c00,stroke-width:3px"
        for number, fine in enumerate(links)
        if not fine
    ]
    out += ["```", ""]
    return "\n".join(out)


def main() -> None:
    MAP.write_text(draw(walk()))
    print(f"Wrote {MAP.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
