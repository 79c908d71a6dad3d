"""``make bench`` in miniature: the same code paths on tiny tournaments, no timing budgets.

Timings on a shared test machine say nothing, so only the report's shape and the query
counts (which do not depend on the machine) are asserted here. The bench's fast way of
storing played matches is checked against ``record_hand`` hand by hand.
"""

from __future__ import annotations

import argparse
import json

import pytest
from django.urls import NoReverseMatch, reverse

from demo.hands import match_hands
from scoring.models import Hand
from scoring.services import record_hand
from tests.factories import make_bracket, make_director
from tools.bench import run
from tools.bench.data import hand_seed, ready_matches, store_hands
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _bench_urls(settings):
    settings.ROOT_URLCONF = "tools.bench.urls"


def stored_state(match) -> dict:
    """Everything entering a match's hands stores, minus ids and clocks."""
    match.refresh_from_db()
    hands = [
        (h.number, h.kind, h.by, h.deadwood, h.defender_deadwood, h.knock_card, h.entered_via)
        for h in Hand.objects.filter(match=match).order_by("number")
    ]
    audits = sorted(
        (
            a.action,
            a.object_type,
            json.dumps(a.before, sort_keys=True, default=str),
            json.dumps(
                {k: v for k, v in (a.after or {}).items() if not k.endswith("_at")},
                sort_keys=True,
                default=str,
            ),
            a.user_id is not None,
            a.via,
        )
        for a in AuditEntry.objects.filter(tournament=match.tournament).exclude(
            action="bracket generated"
        )
    )
    return {
        "hands": hands,
        "summary": (
            match.status,
            match.winner_side,
            match.score_a,
            match.score_b,
            match.total_a,
            match.total_b,
            match.started_at is not None,
        ),
        "rules_locked": match.tournament.rules_locked_at is not None,
        "audits": audits,
    }


@pytest.mark.parametrize("decided", [True, False])
def test_store_hands_stores_what_record_hand_stores(decided):
    director = make_director()
    by_service = ready_matches(make_bracket(players=2, owner=director))[0]
    in_one_go = ready_matches(make_bracket(players=2, owner=director))[0]
    hands = list(match_hands(by_service.tournament.ruleset, seed=hand_seed("smoke", "x")))
    if not decided:
        hands = hands[:7]
    for number, hand in enumerate(hands, start=1):
        record_hand(match=by_service, number=number, data=hand, user=director)
    store_hands(in_one_go, hands, user=director)

    expected, actual = stored_state(by_service), stored_state(in_one_go)
    assert actual == expected
    assert len(expected["hands"]) == len(hands)
    assert expected["summary"][0] == ("awaiting_confirmation" if decided else "in_play")


def test_bench_report_shape_and_query_counts():
    report = run.run_bench(
        sizes=(4, 8, 16),
        entry_players=16,
        entry_samples=4,
        page_samples=2,
        poll_samples=6,
        warmup=1,
        pdf=None,
        cards=(30, 1),
        estimate=(2, 1),
        swiss_players=33,
        rematch_sets=3,
        club=(300, 8),
    )

    assert report["sizes"] == [4, 8, 16]
    assert {
        "environment",
        "build",
        "hand_entry",
        "hand_entry_queries",
        "pages",
        "poll",
        "budgets",
    } <= report.keys()
    assert report["build"]["8"]["matches"] == 7
    assert report["build"]["16"]["matches"] == 15
    assert report["build"]["8"]["hands"] > 7 * 10
    for name in ("hand_entry", "table_link_entry", "bare_view"):
        figures = report["hand_entry"][name]
        assert figures["samples"] > 0
        assert figures["median_cpu_ms"] > 0
    assert report["hand_entry"]["hand_entry"]["ratio_cpu"] > 0
    backup = report["backup"]
    if "skipped" not in backup:  # SQLite only
        assert backup["largest_tournament_players"] == 16
        assert backup["seconds"] >= 0 and backup["bytes"] > 0

    for route in ("director", "table_link"):
        queries = report["hand_entry_queries"][route]
        assert list(queries["hands_before"]) == ["5", "50"]
        assert queries["equal"], queries

    try:
        reverse("public:tournament", kwargs={"slug": "x"})
    except NoReverseMatch:
        assert "public:tournament" in report.get("pages_missing", [])
    else:
        page = report["pages"]["tournament_page"]
        assert page["queries_equal"], page["queries"]
        assert set(page["timing"]) == {"4", "8", "16"}
        assert set(page["ratios"]) == {"8/4", "16/8"}
        assert all(r["cpu"] > 0 and r["wall"] > 0 for r in page["ratios"].values())
        assert all(t["median_gc_cpu_ms"] >= 0 for t in page["timing"].values())  # cold

    # A follower's poll of the largest tournament's standings (256 is not built here).
    poll = report["poll"]
    assert poll["players"] == 16
    assert poll["url"].endswith("?region=standings")
    # Served from the cache: the tournament with its version, and nothing else...
    assert poll["queries"]["cached"] == 1, poll.get("query_sql")
    assert poll["queries"]["not_modified"] == 1, poll.get("query_sql")
    assert poll["queries"]["bare_get"] == 1, poll.get("query_sql")
    # ...while a cold one loads the tournament's matches and hands too.
    assert poll["queries"]["cold"] > 1
    for name in ("cached", "not_modified", "bare_get", "cold"):
        assert poll["timing"][name]["samples"] > 0
        assert poll["timing"][name]["median_cpu_ms"] > 0
    for name in ("cached", "not_modified", "cold"):
        assert poll["timing"][name]["ratio_cpu"] > 0
    assert poll["timing"]["cold"]["median_gc_cpu_ms"] >= 0

    for result in report["pages"].values():
        assert result["queries_equal"], result
        # cold: every page loads the tournament's data, which the cached poll does not
        assert all(n > poll["queries"]["cached"] for n in result["queries"].values()), result

    names = [check["name"] for check in report["budgets"]]
    assert any(name.startswith("hand entry ÷ bare view") for name in names)
    for label in ("tournament page", "standings region (htmx)", "standings.json", "projector"):
        for small, large in ((4, 8), (8, 16)):
            wanted = f"{label} {large} ÷ {small} players"
            assert any(name.startswith(wanted) for name in names), wanted
        assert f"queries of the {label} at 4 players / 8 players / 16 players (cold)" in names
    assert any(name.startswith("cached standings region (16 players) ÷ bare GET") for name in names)
    queries = next(c for c in report["budgets"] if c["name"].startswith("queries of a cached"))
    assert queries["value"] == "1 / 1" and queries["pass"], queries
    swiss = report["swiss"]
    assert (swiss["players"], swiss["round"]) == (33, 9)
    assert swiss["median_cpu_s"] > 0 and swiss["rematches"] == 0
    club = report["club"]
    assert club["recompute"]["matches"] == 300
    # The recompute's budget: 1 s where RLCard's deadwood takes 18 µs a hand, each sample
    # scaled by the routine's µs measured beside it.
    recompute = club["recompute"]
    assert recompute["anchor_us"] > 0 and recompute["anchor_hands"] == 4000
    assert (recompute["anchor_reference_us"], recompute["budget_s"]) == (18.0, 1.0)
    assert recompute["recompute_at_reference_s"] > 0
    check = next(c for c in report["budgets"] if c["name"].startswith("club rating"))
    assert "CPU s where RLCard takes 18 µs a hand" in check["name"]
    assert f"(raw {recompute['recompute_cpu_s']} s)" in check["name"]
    assert check["value"] == recompute["recompute_at_reference_s"] and check["budget"] == "< 1"
    assert check["pass"] == (recompute["recompute_at_reference_s"] < 1.0)
    assert club["player_page"]["equal"], club["player_page"]["queries"]
    assert any(name.startswith("pair round 9 of a 33-player Swiss") for name in names)
    rematches = report["rematches"]
    assert list(rematches["sizes"]) == [str(n) for n in range(3, 65)]
    assert rematches["worse_than_peer"] == [] or not rematches["pass"]
    assert any(name.startswith("losers'-bracket rematches") for name in names)
    assert all({"name", "value", "budget", "pass"} <= check.keys() for check in report["budgets"])
    counts = report["cards"]
    assert counts["melds"]["dealt"]["hands"] == 60 and counts["melds"]["melded"]["us_per_hand"] > 0
    assert counts["layoffs"]["melded"]["us_per_hand"] > 0
    for kind in ("dealt", "melded"):
        assert counts["anchor"][kind]["hands"] == 60 and counts["anchor"][kind]["us_per_hand"] > 0
        assert counts["melds"][kind]["ratio_rlcard"] > 0
    assert counts["layoffs"]["melded"]["ratio_rlcard"] > 0
    melds_check = next(c for c in report["budgets"] if c["name"].startswith("optimal melds"))
    assert melds_check["name"].startswith("optimal melds ÷ RLCard's deadwood")
    assert melds_check["budget"] == "≤ 1"
    layoffs_check = next(c for c in report["budgets"] if c["name"].startswith("lay-offs"))
    assert layoffs_check["name"].startswith("lay-offs per melded knock ÷ RLCard's deadwood")
    assert layoffs_check["value"] == counts["layoffs"]["melded"]["ratio_rlcard"]
    assert layoffs_check["budget"] == "≤ 3"
    assert report["estimate"]["cost"]["ratio_rlcard"] > 0
    assert any(name.startswith("estimated finish per call ÷ RLCard") for name in names)
    assert any(name.startswith("estimated finish: median / p90 error") for name in names)
    json.dumps(report)  # the report file can be written
    run.print_report(report)  # and printed


def test_sizes_option():
    assert run.sizes_arg("256,64, 1024") == (64, 256, 1024)
    for bad in ("64", "a,b", "1,4"):
        with pytest.raises(argparse.ArgumentTypeError):
            run.sizes_arg(bad)
