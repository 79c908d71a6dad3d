"""A creation form sent again from a second render (issue 41): two tabs, or Back and submit
again, each with its own submission id. Within minutes of an identical one the form asks
"You made 'Spring Open' 40 s ago: make another?" and makes nothing; its button makes the
second; after the window it makes it without asking; two tabs at once make one and ask
once. For each of the four creation forms: a tournament, a season, a stage, a publishing
token (whose secret is never stored nor shown again)."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from club.models import Season
from publishing.models import PublishToken
from tests.concurrency import at_once
from tests.factories import make_director, tournament_url
from tests.tournaments.test_stages import make_event
from tournaments.models import AuditEntry, Stage, Tournament
from web import repeats
from web.models import Submission
from web.submissions import FIELD, new_id

pytestmark = pytest.mark.django_db

ASKED = re.compile(r'name="make_another" value="(\d+)"')


@dataclass(frozen=True)
class Form:
    """One creation form: where it posts, what it sends, what it makes."""

    key: str
    name: str
    path: Callable[[Any], str]
    data: dict[str, Any]
    made: Callable[[Any], Any]
    """The things made, for a user (a queryset)."""
    older: Callable[[Any, datetime.timedelta], None]
    """Make every one of them look made that long ago."""


def _tournaments(_user: Any) -> Any:
    return Tournament.objects.filter(name="Spring Open")


def _seasons(_user: Any) -> Any:
    return Season.objects.filter(name="Spring Open")


def _stages(user: Any) -> Any:
    return Stage.objects.filter(tournament__owner=user, name="Spring Open")


def _tokens(user: Any) -> Any:
    return PublishToken.objects.filter(user=user, label="Spring Open")


def _age(field: str, things: Callable[[Any], Any]) -> Callable[[Any, datetime.timedelta], None]:
    def older(user: Any, by: datetime.timedelta) -> None:
        things(user).update(**{field: timezone.now() - by})

    return older


def _stage_older(user: Any, by: datetime.timedelta) -> None:
    ids = [str(pk) for pk in _stages(user).values_list("pk", flat=True)]
    AuditEntry.objects.filter(action="stage added", object_id__in=ids).update(
        at=timezone.now() - by
    )


def _stage_path(user: Any) -> str:
    tournament = Tournament.objects.filter(owner=user, name="Stage night").first()
    if tournament is None:
        tournament = make_event(4)
        Tournament.objects.filter(pk=tournament.pk).update(owner=user, name="Stage night")
        tournament.refresh_from_db()
    return tournament_url("stage-add", tournament)


FORMS = [
    Form(
        "tournament",
        "Spring Open",
        lambda _user: reverse("tournaments:tournament-create"),
        {
            "name": "Spring Open",
            "date": "2030-04-01",
            "tables": 3,
            "page_size": "A4",
            "language": "en",
            "preset": "modern",
            "bracket_kind": "single_elimination",
        },
        _tournaments,
        _age("created", _tournaments),
    ),
    Form(
        "season",
        "Spring Open",
        lambda _user: reverse("club:season-create"),
        {
            "name": "Spring Open",
            "scoring": "placing",
            "placing_points_text": "10, 6, 4",
            "points_per_win": 1,
            "best_of": 2,
        },
        _seasons,
        _age("created", _seasons),
    ),
    Form(
        "stage",
        "Spring Open",
        _stage_path,
        {"kind": "swiss", "name": "Spring Open", "rounds": 2, "tiebreak_1": "match_points"},
        _stages,
        _stage_older,
    ),
    Form(
        "token",
        "Spring Open (",
        lambda _user: reverse("publishing:tokens"),
        {"label": "Spring Open"},
        _tokens,
        _age("created_at", _tokens),
    ),
]


def tab(user: Any, language: str = "en") -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def send(client: Client, form: Form, user: Any, **extra: str) -> Any:
    """The form as a fresh render sends it: its own submission id."""
    return client.post(form.path(user), {**form.data, FIELD: new_id(), **extra})


def asked(response: Any) -> str | None:
    """The id the question's button confirms besides, if the answer asks."""
    found = ASKED.search(response.content.decode())
    return found.group(1) if found else None


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.key)
def test_a_second_render_asks_and_makes_nothing(form):
    user = make_director()
    client = tab(user)
    first = send(client, form, user)
    assert first.status_code in (200, 302) and asked(first) is None
    assert form.made(user).count() == 1
    form.older(user, datetime.timedelta(seconds=40))
    again = send(client, form, user)
    assert again.status_code == 200
    text = again.content.decode()
    assert asked(again) == str(form.made(user).get().pk)
    assert "You made <a href=" in text and "40 s ago: make another?" in text
    assert form.name in text
    assert form.made(user).count() == 1


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.key)
def test_confirming_makes_the_second(form):
    user = make_director()
    client = tab(user)
    send(client, form, user)
    shown = asked(send(client, form, user))
    assert shown is not None
    confirmed = send(client, form, user, **{repeats.FIELD: shown})
    assert confirmed.status_code in (200, 302) and asked(confirmed) is None
    assert form.made(user).count() == 2
    # A double tap on the button (the same confirmation once more) asks about the second.
    assert asked(send(client, form, user, **{repeats.FIELD: shown})) is not None
    assert form.made(user).count() == 2


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.key)
def test_after_the_window_it_makes_without_asking(form):
    user = make_director()
    client = tab(user)
    send(client, form, user)
    form.older(user, repeats.WINDOW + datetime.timedelta(seconds=1))
    again = send(client, form, user)
    assert asked(again) is None
    assert form.made(user).count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.key)
def test_two_tabs_at_once_make_one_and_ask_once(form):
    user = make_director()
    path = form.path(user)
    for _ in range(3):
        answers = at_once(
            lambda _i: tab(user), lambda c: c.post(path, {**form.data, FIELD: new_id()})
        )
        assert [a.status_code for a in answers if a.status_code >= 500] == []
        assert form.made(user).count() == 1
        assert sum(asked(a) is not None for a in answers) == 1
        form.made(user).delete()


@pytest.mark.parametrize(
    ("language", "question", "button"),
    [
        ("en", "3 min ago: make another?", "Yes, make another"),
        ("es", "hace 3 min: ¿crear otra vez?", "Sí, crear otra vez"),
        ("af", "3 min gelede gemaak: nog een maak?", "Ja, maak nog een"),
    ],
)
@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.key)
def test_the_question_in_each_language(form, language, question, button):
    user = make_director()
    client = tab(user, language)
    send(client, form, user)
    form.older(user, datetime.timedelta(minutes=3, seconds=5))
    text = send(client, form, user).content.decode()
    assert question in text and button in text
    assert form.made(user).count() == 1


def test_another_directors_tournament_is_named_with_its_director():
    anna = make_director(username="anna")
    send(tab(anna), FORMS[0], anna)
    bob = make_director(username="bob")
    text = send(tab(bob), FORMS[0], bob).content.decode()
    # Bob may not open Anna's draft: named, not linked.
    assert "anna made “Spring Open”" in text and "s ago: make another?" in text
    assert Tournament.objects.filter(name="Spring Open").count() == 1


def test_a_tokens_secret_is_never_stored_nor_shown_again():
    user = make_director()
    client = tab(user)
    key = new_id()
    first = client.post(reverse("publishing:tokens"), {"label": "laptop", FIELD: key})
    secret = re.search(r'id="new-token">([^<]+)<', first.content.decode()).group(1)
    resent = client.post(reverse("publishing:tokens"), {"label": "laptop", FIELD: key})
    # Recorded as a page saying it is not kept (tests/test_no_secret_in_clear.py).
    assert secret not in resent.content.decode()
    assert "This page showed a secret once; it is not kept." in resent.content.decode()
    assert PublishToken.objects.filter(user=user).count() == 1
    assert not any(secret.encode() in bytes(s.body) for s in Submission.objects.all())
    # A second tab (another submission id) is asked before a second token is made.
    other = client.post(reverse("publishing:tokens"), {"label": "laptop", FIELD: new_id()})
    assert secret not in other.content.decode() and asked(other) is not None
    assert PublishToken.objects.filter(user=user).count() == 1


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(0, "0 s ago"), (1, "1 s ago"), (40, "40 s ago"), (119, "119 s ago"), (180, "3 min ago")],
)
def test_how_long_ago(seconds, said):
    with translation.override("en"):
        assert repeats.ago(datetime.timedelta(seconds=seconds)) == said


def test_the_stage_question_as_the_stages_region():
    """Through htmx the question comes back in the Stages page's region, not a whole page."""
    form = FORMS[2]
    user = make_director()
    client = tab(user)
    send(client, form, user)
    fragment = client.post(
        form.path(user), {**form.data, FIELD: new_id()}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'id="stages"' in fragment and "<html" not in fragment
    assert "make another?" in fragment and form.made(user).count() == 1
