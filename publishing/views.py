"""``POST /publish/changes/``: where a venue publishes (see :mod:`.protocol`). Token-auth'd
(``Authorization: Bearer``), never cookie-auth'd, so CSRF does not apply; wrong tokens are
limited per address like wrong table links."""

from __future__ import annotations

import gzip
import json
import zlib

from django.contrib import messages
from django.core.exceptions import RequestDataTooBig, ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tournaments import audit
from tournaments.models import Tournament
from tournaments.views.base import manage_view
from web import limiter
from web.clients import client_address

from . import protocol
from .models import Publication
from .receiving import Answer, receive, refused
from .tokens import token_for

FAILURES = "publish-token-failures"
FAILURE_LIMIT = 10
FAILURE_WINDOW = 15 * 60


def _answer(answer: Answer) -> JsonResponse:
    response = JsonResponse(
        answer.body, status=answer.status, json_dumps_params={"ensure_ascii": False}
    )
    if answer.status == 429:
        response["Retry-After"] = str(FAILURE_WINDOW)
    return response


def _body(request: HttpRequest) -> object:
    raw = request.body
    if request.headers.get("Content-Encoding", "").lower() == "gzip":
        reader = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        raw = reader.decompress(raw, protocol.MAX_BODY + 1)
        if len(raw) > protocol.MAX_BODY:
            raise ValueError("too big")
    return json.loads(raw)


@csrf_exempt
@require_POST
def changes(request: HttpRequest) -> JsonResponse:
    address = client_address(request)
    if limiter.failures(address, counter=FAILURES) >= FAILURE_LIMIT:
        return _answer(refused(protocol.LIMITED, _("Too many wrong publishing tokens: wait.")))
    kind, _space, secret = request.headers.get("Authorization", "").partition(" ")
    token = token_for(secret.strip()) if kind.lower() == "bearer" else None
    if token is None:
        limiter.add_failure(address, window=FAILURE_WINDOW, counter=FAILURES)
        return _answer(
            refused(
                protocol.BAD_TOKEN,
                _("The club's server does not know this publishing token, or it was revoked."),
            )
        )
    try:
        body = _body(request)
    except RequestDataTooBig:
        return _answer(refused(protocol.BAD_REQUEST, _("The request is too big: send it gzipped.")))
    except (ValueError, OSError, EOFError, gzip.BadGzipFile, zlib.error):
        return _answer(refused(protocol.BAD_REQUEST, _("The request is not JSON.")))
    return _answer(receive(token, body))


@require_POST
@manage_view
def publish_as(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """At the venue: publish the tournament under another slug on the club's server (its
    own being another tournament's there). The old name there is left as it is."""
    back = HttpResponseRedirect(reverse("tournaments:round-control", args=[tournament.slug]))
    slug = request.POST.get("slug", "").strip()
    try:
        validate_slug(slug)
        if not slug or len(slug) > 80:
            raise ValidationError("length")
    except ValidationError:
        messages.error(request, _("A name for the club's server: letters, digits, - and _."))
        return back
    with transaction.atomic():
        publication, _created = Publication.objects.select_for_update().get_or_create(
            tournament=tournament
        )
        before = publication.slug or tournament.slug
        publication.slug = slug
        publication.error = publication.error_code = ""
        publication.acknowledged_through = 0  # a new mirror there: everything again
        publication.save(update_fields=["slug", "error", "error_code", "acknowledged_through"])
        audit.record(
            tournament=tournament,
            action="published under another name",
            obj=publication,
            before={"slug": before},
            after={"slug": slug},
            user=request.user,
        )
    messages.success(request, _("It will be published as %(slug)s.") % {"slug": slug})
    return back
