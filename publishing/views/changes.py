"""``POST /publish/changes/``: where a venue publishes (see :mod:`publishing.protocol`).
Token-auth'd (``Authorization: Bearer``), never cookie-auth'd, so CSRF does not apply; wrong
tokens are limited per address like wrong table links."""

from __future__ import annotations

import gzip
import json
import zlib

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from web import limiter
from web.clients import client_address

from .. import protocol
from ..receiving import Answer, receive, refused
from ..tokens import token_for

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
