"""The public tournament page fits its screen (issue 28 item 8): at 1280 px the finished
standings, with the prize and club rating columns and long names, fit without scrolling
sideways; on a phone (390 px) they may scroll in their own box, and the bracket's final
box is not cut off."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from money import services
from tests.club.helpers import by_rank, run_tournament
from tests.e2e.conftest import screenshot
from tests.factories import make_director, make_player

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Małgorzata Wiśniewska-Kowalczyk",
    "王芳",
    "مُحَمَّد العَلي",
    "Александра Кузнецова",
    "Johannes van der Westhuizen",
    "Łukasz Brzęczyszczykiewicz",
    "李伟",
    "Annemarie Oosthuizen",
]


def finished_night(language: str = "en"):
    director = make_director()
    players = [make_player(name=name) for name in NAMES]
    tournament = run_tournament(
        players,
        owner=director,
        date=datetime.date(2026, 4, 1),
        winner=by_rank(players),
        language=language,
    )
    services.save_money(
        tournament=tournament,
        entry_fee=Decimal("10"),
        currency="€",
        payout=[Decimal(50), Decimal(30), Decimal(20)],
        rounding=Decimal("1"),
        user=director,
    )
    for entry in tournament.entries.all():
        services.record_payment(entry=entry, method="cash", amount=Decimal("10"), user=director)
    return tournament


def overflow(page, selector: str) -> int:
    """How far ``selector``'s content reaches beyond its box, sideways (px)."""
    return page.eval_on_selector(selector, "e => e.scrollWidth - e.clientWidth")


@pytest.mark.parametrize("language", ["en", "es", "af"])
def test_the_finished_standings_fit_1280_px(desktop, language):
    tournament = finished_night(language)
    desktop.goto(reverse("public:tournament", args=[tournament.slug]))
    screenshot(desktop, f"public-standings-1280-{language}")
    assert desktop.locator("#standings th.prize").count() == 1  # the widest case: prizes
    assert desktop.locator("#standings th.rating").count() == 1  # and club ratings
    assert desktop.eval_on_selector("html", "e => e.scrollWidth - e.clientWidth") <= 0
    assert overflow(desktop, "#standings .table-scroll") <= 0
    # Every statistic is one click away; the table may scroll in its own box then.
    desktop.locator("details.more-stats summary").click()
    assert desktop.locator("#standings th.stat").first.is_visible()
    assert desktop.eval_on_selector("html", "e => e.scrollWidth - e.clientWidth") <= 0


def test_on_a_phone_the_standings_scroll_in_their_box_and_the_final_is_whole(phone):
    tournament = finished_night()
    phone.goto(reverse("public:tournament", args=[tournament.slug]))
    screenshot(phone, "public-standings-390")
    assert phone.eval_on_selector("html", "e => e.scrollWidth - e.clientWidth") <= 0
    final = phone.locator(".mbox").last
    phone.eval_on_selector(".bracket-scroll", "e => { e.scrollLeft = e.scrollWidth; }")
    box = final.bounding_box()
    clip = phone.eval_on_selector(
        "#bracket",
        """region => {
            let e = document.querySelectorAll('.mbox');
            e = e[e.length - 1];
            let left = -Infinity, right = Infinity;
            for (let p = e.parentElement; p; p = p.parentElement) {
                const style = getComputedStyle(p);
                if (style.overflowX !== 'visible') {
                    const r = p.getBoundingClientRect();
                    left = Math.max(left, r.left); right = Math.min(right, r.right);
                }
            }
            return [left, right];
        }""",
    )
    # Whole, with room for its border and the 2 px ring of a live or focused box.
    assert box["x"] >= clip[0] + 2 and box["x"] + box["width"] <= clip[1] - 2, (box, clip)


BADGES = """rows => rows.map(row => {
  const badge = row.querySelector('.pv-outcome');
  const next = row.querySelector('.pv-what');
  const b = badge.getBoundingClientRect();
  return {
    text: badge.textContent.trim(),
    gap: next.getBoundingClientRect().left - b.right,
    right: Math.round(b.right),
    inside: badge.scrollWidth <= badge.clientWidth,
  };
})"""


@pytest.mark.parametrize("language", ["en", "es", "af"])
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_match_outcome_badge_keeps_clear_of_the_next_word(request, screen, language):
    """Spanish "PERDIDA" and "GANADA" ran into the round's words beside them (issue 41): a
    badge holds its word, with the row's gap after it, and every row's badges line up."""
    page = request.getfixturevalue(screen)
    tournament = finished_night(language)
    runner_up = tournament.entries.get(player__name=NAMES[1])  # won twice, lost the final
    page.goto(reverse("public:player", args=[tournament.slug, runner_up.pk]))

    badges = page.locator(".pv-history .pv-row").evaluate_all(BADGES)

    won, lost = {"en": ("Won", "Lost"), "es": ("Ganada", "Perdida"), "af": ("Gewen", "Verloor")}[
        language
    ]
    assert sorted({b["text"].lower() for b in badges}) == sorted({won.lower(), lost.lower()})
    for badge in badges:
        assert badge["inside"] and badge["gap"] >= 8, badge
    assert len({badge["right"] for badge in badges}) == 1, badges
    screenshot(page, f"player-badges-{screen}-{language}")
