"""``POST /publish/changes/``: where a venue publishes (see :mod:`publishing.protocol`).
Token-auth'd (``Authorization: Bearer``), never cookie-auth'd, so CSRF does not apply. The
token is checked first; wrong ones are counted per address and, past the limit, refused
before their body is read. Every body the club cannot read gets the protocol's JSON
refusal, never an error page."""

from __future__ import annotations

import datetime
import gzip
import json
import math
import time
import zlib

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from web import limiter
from web.clients import client_address

from .. import protocol
from ..models import PublishToken
from ..receiving import Answer, receive, refused
from ..tokens import token_for

FAILURES = "publish-token-failures"


class Unreadable(ValueError):
    """The body is not JSON the protocol reads (too big, too deep, not gzip, not JSON)."""


def _answer(answer: Answer, retry_after: int | None = None) -> JsonResponse:
    response = JsonResponse(
        answer.body, status=answer.status, json_dumps_params={"ensure_ascii": False}
    )
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def too_deep(value: object, limit: int = protocol.MAX_DEPTH) -> bool:
    """Whether ``value``'s lists and objects nest beyond ``limit`` (read without recursion)."""
    waiting: list[tuple[object, int]] = [(value, 1)]
    while waiting:
        item, depth = waiting.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            if depth > limit:
                return True
            waiting.extend((child, depth + 1) for child in item)
    return False


def read_body(request: HttpRequest) -> object:
    """The request's JSON, gunzipped when it says so; :class:`Unreadable` if it is not."""
    try:
        raw = request.body
        if request.headers.get("Content-Encoding", "").lower() == "gzip":
            reader = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
            # Never more than the limit unpacked: a gzip bomb stops here.
            raw = reader.decompress(raw, protocol.MAX_BODY + 1)
            if len(raw) > protocol.MAX_BODY:
                raise Unreadable("too big")
        body = json.loads(raw)
    except RequestDataTooBig:
        raise
    except RecursionError as error:  # nested beyond what the parser follows
        raise Unreadable("too deep") from error
    except (ValueError, OSError, EOFError, gzip.BadGzipFile, zlib.error) as error:
        raise Unreadable(str(error)) from error
    if too_deep(body):
        raise Unreadable("too deep")
    return body


def _limited(address: str) -> JsonResponse:
    """The refusal of a wrong token from an address past the limit: until when."""
    end = limiter.window_end(address, counter=FAILURES) or time.time()
    seconds = max(1, math.ceil(end - time.time()))
    until = timezone.localtime(datetime.datetime.fromtimestamp(end, tz=datetime.UTC))
    # A minute up, so that "after 20:46" is never a minute too early.
    shown = time_format(until.replace(second=0, microsecond=0) + datetime.timedelta(minutes=1))
    message = _(
        "Too many wrong publishing tokens from this address: the club's server reads "
        "tokens from it again after %(time)s. Check the token at the venue."
    ) % {"time": shown}
    return _answer(refused(protocol.LIMITED, message), retry_after=seconds)


def _token(request: HttpRequest) -> PublishToken | None:
    kind, _space, secret = request.headers.get("Authorization", "").partition(" ")
    return token_for(secret.strip()) if kind.lower() == "bearer" else None


@csrf_exempt
@require_POST
def changes(request: HttpRequest) -> JsonResponse:
    token = _token(request)
    if token is None:
        address = client_address(request)
        if limiter.failures(address, counter=FAILURES) >= protocol.TOKEN_FAILURE_LIMIT:
            return _limited(address)
        limiter.add_failure(address, window=protocol.TOKEN_FAILURE_WINDOW, counter=FAILURES)
        return _answer(
            refused(
                protocol.BAD_TOKEN,
                _("The club's server does not know this publishing token, or it was revoked."),
            )
        )
    try:
        body = read_body(request)
    except RequestDataTooBig:
        return _answer(refused(protocol.BAD_REQUEST, _("The request is too big: send it gzipped.")))
    except Unreadable:
        return _answer(refused(protocol.BAD_REQUEST, _("The request is not JSON.")))
    return _answer(receive(token, body))
