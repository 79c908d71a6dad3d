"""The publishing pages. At the club's server, "Publishing tokens": a director makes a
token (shown once, with its QR code, on the POST's own answer: never in a URL, never
cached) and revokes theirs. At the venue, "Publish to the club's server": the club's
administrator sets where the venue publishes (the one :class:`.models.Destination` row,
which the publishing thread reads on each pass) or stops it, and sees each tournament's
publishing line."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.validators import URLValidator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import audit
from tournaments.permissions import is_club_admin
from tournaments.views.base import director_view, login_redirect
from web import repeats
from web.pages import page
from web.qr import qr_svg
from web.submissions import shows_a_secret

from .models import Destination, PublishToken
from .sending import published
from .status import statuses_of
from .tokens import make_token, revoke

TOKENS = "publishing/tokens.html"
DESTINATION = "publishing/destination.html"


class TokenForm(forms.Form):
    label = forms.CharField(
        label=gettext_lazy("Label (optional)"),
        max_length=60,
        required=False,
        help_text=gettext_lazy("What it is for, e.g. the venue laptop's name."),
    )


class WebAddressField(forms.URLField):
    """An http(s) address only (Django's URLField takes ftp:// too)."""

    default_validators = [URLValidator(schemes=["http", "https"])]


class DestinationForm(forms.Form):
    url = WebAddressField(
        label=gettext_lazy("Club server address"),
        max_length=300,
        assume_scheme="https",
        error_messages={
            "invalid": gettext_lazy(
                "The club server's address: a web address starting with https:// (or http://)."
            )
        },
    )
    token = forms.CharField(
        label=gettext_lazy("Publishing token"),
        max_length=100,
        strip=True,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
        error_messages={
            "required": gettext_lazy(
                "The publishing token a director made on the club's server's "
                "Publishing tokens page."
            )
        },
    )
    venue = forms.CharField(
        label=gettext_lazy("This venue's name"),
        max_length=120,
        required=False,
        help_text=gettext_lazy("Shown on the club's server beside each tournament it follows."),
    )


# -- at the club: a director's publishing tokens ---------------------------------------------


def club_address(request: HttpRequest) -> str:
    """This site's own address, which a venue types to publish here."""
    if settings.SITE_URL:
        return str(settings.SITE_URL).rstrip("/") + "/"
    return request.build_absolute_uri("/")


def _tokens_page(request: HttpRequest, status: int = 200, **extra: Any) -> HttpResponse:
    context = {
        "tokens": PublishToken.objects.filter(user=request.user),
        "form": TokenForm(),
        "club_address": club_address(request),
        **extra,
    }
    return page(request, TOKENS, context, status=status)


@require_http_methods(["GET", "POST"])
@director_view
@shows_a_secret
def tokens(request: HttpRequest) -> HttpResponse:
    """GET: the director's tokens. POST: a new one, shown on this answer only."""
    if request.method != "POST":
        return _tokens_page(request)
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _tokens_page(request, form=form, status=400)
    label = form.cleaned_data["label"]

    def find(seen: int) -> repeats.Made | None:
        return _same_token(request.user, label, seen)

    try:
        with repeats.guard(PublishToken, seen=repeats.besides(request), find=find):
            token, secret = make_token(user=request.user, label=label)
    except repeats.Repeat as repeat:
        # Asked, never shown again: the token made is named by its first characters only.
        return _tokens_page(request, form=form, **repeats.question(repeat.made))
    response = _tokens_page(request, new_token=token, secret=secret, qr=qr_svg(secret))
    add_never_cache_headers(response)  # Cache-Control: no-store among others
    return response


def _same_token(user: Any, label: str, seen: int) -> repeats.Made | None:
    """The director's newest live token of the same label made lately (after ``seen``)."""
    found = (
        PublishToken.objects.filter(
            user=user,
            label=label[:60],
            revoked_at__isnull=True,
            created_at__gte=repeats.since(),
            pk__gt=seen,
        )
        .order_by("-pk")
        .first()
    )
    if found is None:
        return None
    name = f"{found.label} ({found.prefix}…)" if found.label else f"{found.prefix}…"
    return repeats.Made(
        pk=found.pk,
        name=name,
        at=found.created_at,
        url=f"{reverse('publishing:tokens')}#token-{found.pk}",
    )


@require_POST
@director_view
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the director's own tokens (another's: 404, as if it were not there)."""
    token = PublishToken.objects.filter(pk=token_id, user=request.user).first()
    if token is None:
        raise Http404
    already = token.revoked_at is not None
    revoke(token=token, user=request.user)
    if already:
        messages.info(
            request, _("Token %(prefix)s… was revoked already.") % {"prefix": token.prefix}
        )
    else:
        messages.success(
            request,
            _("Token %(prefix)s… is revoked: a venue using it can no longer publish here.")
            % {"prefix": token.prefix},
        )
    return redirect("publishing:tokens")


# -- at the venue: where it publishes ---------------------------------------------------------


def _club_admin(request: HttpRequest) -> HttpResponse | None:
    """The installation's settings are the club's administrator's (as the Directors page)."""
    if not request.user.is_authenticated:
        return login_redirect(request)
    if not is_club_admin(request.user):
        raise PermissionDenied(
            _("Only the club's administrator can change where this server publishes.")
        )
    return None


def _destination_page(request: HttpRequest, form: DestinationForm | None = None) -> HttpResponse:
    destination = Destination.objects.order_by("-pk").first()
    if form is None:
        initial = {"url": destination.url, "venue": destination.venue} if destination else {}
        form = DestinationForm(initial=initial)
    shown = published() if destination else []
    statuses = statuses_of(shown)
    rows = [(t, statuses.get(t.pk)) for t in shown]
    context = {"destination": destination, "form": form, "rows": rows}
    return page(request, DESTINATION, context, status=400 if form.is_bound else 200)


@require_http_methods(["GET", "POST"])
def destination(request: HttpRequest) -> HttpResponse:
    """GET: where this venue publishes, and how far. POST: publish there (replacing it)."""
    refused = _club_admin(request)
    if refused is not None:
        return refused
    if request.method != "POST":
        return _destination_page(request)
    form = DestinationForm(request.POST)
    if not form.is_valid():
        return _destination_page(request, form)
    data = form.cleaned_data
    with transaction.atomic():
        before = Destination.objects.order_by("-pk").first()
        Destination.objects.all().delete()
        saved = Destination.objects.create(
            url=data["url"], token=data["token"], venue=data["venue"]
        )
        audit.record(
            tournament=None,
            action="publishing destination set",
            obj=saved,
            before={"url": before.url, "venue": before.venue} if before else None,
            after={"url": saved.url, "venue": saved.venue, "token": saved.token[:6]},
            user=request.user,
        )
    messages.success(
        request,
        _("This server now publishes every tournament that is not a draft to %(url)s.")
        % {"url": saved.url},
    )
    return redirect("publishing:destination")


@require_POST
def destination_stop(request: HttpRequest) -> HttpResponse:
    refused = _club_admin(request)
    if refused is not None:
        return refused
    with transaction.atomic():
        before = Destination.objects.order_by("-pk").first()
        if before is not None:
            Destination.objects.all().delete()
            audit.record(
                tournament=None,
                action="publishing stopped",
                obj=None,
                before={"url": before.url, "venue": before.venue},
                user=request.user,
            )
    messages.success(request, _("This server no longer publishes."))
    return redirect("publishing:destination")
