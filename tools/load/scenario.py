"""``python -m tools.load.scenario OUT.json --tables N``: a database with a running
tournament of N ready matches at N tables, for a test that drives a server it starts
itself; writes each table's plan (match, token, the hands to send) to OUT.json.

The database comes from the environment as the site's does (``SQLITE_PATH`` or
``DATABASE_URL``), so the server the test starts next finds the same one.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from .run import configure, setup_tournament


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--game-target", type=int, help="shorter games (rules override)")
    args = parser.parse_args(argv)
    configure({"DJANGO_SETTINGS_MODULE": "tools.load.settings"})
    rules = {"game_target": args.game_target} if args.game_target else None
    tournament, plans = setup_tournament(args.tables, rules, "scenario")
    args.out.write_text(
        json.dumps({"slug": tournament.slug, "plans": [dataclasses.asdict(p) for p in plans]})
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
