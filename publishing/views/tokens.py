"""At the club's server, "Publishing tokens": a director makes a token (shown once, with
its QR code, on the POST's own answer: never in a URL, never cached, and recorded for a
resend as a page saying it is not kept, :func:`web.submissions.shows_a_secret`) and revokes
theirs. Two tabs making the same token are asked before a second is made (:mod:`web.repeats`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.views.base import director_view
from web import repeats
from web.pages import page
from web.qr import qr_svg
from web.submissions import shows_a_secret

from ..forms import TokenForm
from ..models import PublishToken
from ..tokens import make_token, revoke

TOKENS = "publishing/tokens.html"


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
    return _tokens_page(request, new_token=token, secret=secret, qr=qr_svg(secret))


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
