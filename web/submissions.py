"""One submission id per rendered form: a double tap, a resent POST or a second tab's
repeat of the same form does its write once and answers as the first did.

Every write form carries a hidden ``submission`` field, a fresh random id each time the
page renders it (``{% submission_field %}``, next to ``{% csrf_token %}``).
:class:`SubmissionMiddleware` runs the view of a signed-in user's POST that carries one in
a transaction that first inserts a :class:`~web.models.Submission` row under that
id, then records the view's answer in it (status, headers, body, and the messages a
redirect carries). The same id again, at once or later, finds the row (a twin sent at the
same moment waits on the row's unique key until the first commits) and gets the recorded
answer: the same redirect and message, or the same page; nothing is written twice.

A refusal (a status of 400 or more) or an exception records nothing and writes nothing,
so the same form can be sent again. Two *different* submissions racing for one unique
thing (the same player entered from two tabs) are the services' to refuse by name; a
unique key that a service did not foresee still never reaches the user as an error: the
write is rolled back and the page says it was just done elsewhere.

The phones' forms (a table link, ``/table/<token>/…``, no account) carry the same id
(issue 32): a view marked :func:`by_link` runs through :func:`once` for a visitor without
an account when its URL names a link (a ``token``). Such a submission is bound to its path,
so to its link: the same id sent to another link is refused (400) and writes nothing. The
phones' own script may make the id itself: any 32 lowercase hex digits (:data:`KEY`).

An answer that shows a secret once (a new publishing token, a one-time set-password link;
the view is marked :func:`shows_a_secret`) is not recorded as it is (issue 43): a page
saying it is not kept is recorded in its place, so a resend does nothing again, and the
secret is in no row of the database, nor in a backup of it.
"""

from __future__ import annotations

import datetime
import functools
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from .models import Submission
from .pages import page

FIELD = "submission"
KEY = re.compile(r"^[0-9a-f]{32}$")
# Headers a replay must not repeat: the server sets them anew for each response.
NOT_REPLAYED = {"content-length", "set-cookie", "date"}
answered = Signal()
"""Sent once a submission is answered, after its transaction ended (committed, or rolled
back for a refusal), with ``request``, ``response`` and ``replayed`` (True for a resend
answered from its record). Apps above this one count what they need without this floor
knowing them (the phones' device board, :mod:`tables.devices`)."""
SECRET_NOT_KEPT = "web/secret_not_kept.html"
KEPT = datetime.timedelta(days=1)
"""How long an answer is kept for a resend: a day; a new submission after that forgets
them (within :data:`SWEEP_EVERY`). An answer that showed a secret is never kept
(:func:`shows_a_secret`)."""
SWEEP_EVERY = 60.0
"""Seconds between two sweeps of old answers by one process: a sweep is a DELETE, which
every hand entered from a phone would otherwise pay for."""
next_sweep = 0.0
"""When (``time.monotonic()``) this process sweeps next; 0 sweeps at the next submission."""


def new_id() -> str:
    """A fresh submission id: 32 hex digits."""
    return uuid.uuid4().hex


def submission_id(request: HttpRequest) -> str | None:
    """The POST's submission id, if it carries a well-formed one."""
    key = request.POST.get(FIELD, "")
    return key if KEY.match(key) else None


def by_link(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Mark a view that a table link (its URL's ``token``) lets a visitor without an account
    write through: its POSTs' submission ids are kept as a signed-in user's are."""
    view.submission_by_link = True  # type: ignore[attr-defined]
    return view


def keeps_own_submissions(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Mark a POST view that keeps its submission ids on the rows it writes and answers a
    resend itself (hand entry: a hand keeps the id of the form that stored it, so a resend
    finds it under the match's lock). The middleware records nothing for it: an insert and
    an update less on every hand."""
    view.submission_kept = True  # type: ignore[attr-defined]
    return view


def shows_a_secret(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Mark a POST view whose answer shows a secret once (a new publishing token, a
    one-time set-password link): its answer is never cached, and the middleware records in
    its place a page saying so (:func:`secret_not_kept`), so a resend does nothing again
    and the secret is neither stored (nor in a backup of the database) nor shown again."""

    @functools.wraps(view)
    def never_cached(*args: Any, **kwargs: Any) -> HttpResponse:
        response = view(*args, **kwargs)
        add_never_cache_headers(response)  # Cache-Control: no-store among others
        return response

    never_cached.submission_secret = True  # type: ignore[attr-defined]
    return never_cached


def submission_exempt(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Mark a POST view that writes nothing and answers what it is sent each time (a live
    preview posts the form it sits in, submission id and all, at every change): its
    answers are not recorded, and the form's own save still is."""
    view.submission_exempt = True  # type: ignore[attr-defined]
    return view


class SubmissionMiddleware:
    """Runs each POST that carries a submission id through :func:`once`. After the CSRF,
    authentication and messages middleware, so a forged POST is refused before it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponse],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        if request.method != "POST":
            return None
        if not request.user.is_authenticated and not (
            kwargs.get("token") and getattr(view, "submission_by_link", False)
        ):
            return None
        if getattr(view, "submission_exempt", False) or getattr(view, "submission_kept", False):
            return None
        key = submission_id(request)
        if key is None:
            return None
        secret = getattr(view, "submission_secret", False)
        return once(request, key, lambda: view(request, *args, **kwargs), secret=secret)


def once(
    request: HttpRequest, key: str, view: Callable[[], HttpResponse], *, secret: bool = False
) -> HttpResponse:
    """``view``'s answer to the submission ``key``, the first time it is sent; the recorded
    answer every later time (``secret``: the answer shows a secret, and a page saying so
    is recorded in its place)."""
    for attempt in range(3):
        # A new id is tried at once (one query less on every first POST); a resend, or a
        # twin that committed meanwhile, then finds its row.
        if attempt:
            done = Submission.objects.filter(key=key).first()
            if done is not None:
                return replay(request, done)
        try:
            response = _first(request, key, view, secret=secret)
        except _Twin:
            continue
        answered.send(Submission, request=request, response=response, replayed=False)
        return response
    return replay(request, Submission.objects.get(key=key))


class _Twin(Exception):
    """The same submission is being (or was just) written by another request."""


def forget_old() -> int:
    """Forget the answers recorded more than :data:`KEPT` ago; how many were forgotten."""
    deleted, _kinds = Submission.objects.filter(created_at__lt=timezone.now() - KEPT).delete()
    return deleted


def sweep_if_due() -> None:
    """:func:`forget_old`, at most once every :data:`SWEEP_EVERY` seconds in this process."""
    global next_sweep
    now = time.monotonic()
    if now < next_sweep:
        return
    next_sweep = now + SWEEP_EVERY
    forget_old()


def _first(
    request: HttpRequest, key: str, view: Callable[[], HttpResponse], *, secret: bool
) -> HttpResponse:
    shown = len(_messages(request))
    sweep_if_due()
    try:
        with transaction.atomic():
            try:
                # No savepoint: a clash is the transaction's first statement, and _Twin
                # leaves it, rolled back, at once.
                with transaction.atomic(savepoint=False):
                    record = Submission.objects.create(
                        key=key, user=_user(request), path=request.path[:500]
                    )
            except IntegrityError as twin:
                raise _Twin from twin
            response = view()
            if hasattr(response, "render") and not getattr(response, "is_rendered", True):
                response.render()
            if response.status_code >= 400:
                transaction.set_rollback(True)
                return response
            # A redirect shows no secret (a refusal said in a message): kept as it is.
            secret_shown = secret and not 300 <= response.status_code < 400
            kept = secret_not_kept(request) if secret_shown else response
            _record(record, kept, _messages(request)[shown:])
            return response
    except _Twin:
        raise
    except IntegrityError:
        return done_elsewhere(request)


def _user(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _record(record: Submission, response: HttpResponse, added: list[list[Any]]) -> None:
    record.status = response.status_code
    record.headers = {
        name: value for name, value in response.items() if name.lower() not in NOT_REPLAYED
    }
    record.body = b"" if response.streaming else response.content
    record.messages = added if 300 <= response.status_code < 400 else []
    record.save(update_fields=["status", "headers", "body", "messages"])


def secret_not_kept(request: HttpRequest) -> HttpResponse:
    """What is recorded for an answer that showed a secret: a page (or, for htmx, its
    region) saying it is not kept, with a way back to the page the form was on."""
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "/"
    response = page(request, SECRET_NOT_KEPT, {"back": back}, partial="secret-not-kept")
    add_never_cache_headers(response)
    return response


def replay(request: HttpRequest, done: Submission) -> HttpResponse:
    """The answer recorded for ``done``, with the messages its redirect carried."""
    if done.user_id != request.user.pk or done.path != request.path[:500]:
        # Another user's, another page's, or another table link's: nothing is replayed.
        return sent_elsewhere()
    response = HttpResponse(bytes(done.body), status=done.status)
    for name, value in done.headers.items():
        response[name] = value
    for level, text, tags in done.messages:
        messages.add_message(request, level, text, extra_tags=tags)
    answered.send(Submission, request=request, response=response, replayed=True)
    return response


def sent_elsewhere() -> HttpResponse:
    """The answer to a submission id already used by another user, page or table link."""
    return HttpResponse(
        _("This form was already sent from another page: reload the page and try again."),
        status=400,
        content_type="text/plain; charset=utf-8",
    )


def _messages(request: HttpRequest) -> list[list[Any]]:
    """The request's messages so far (level, text, tags), read without marking them shown."""
    storage = messages.get_messages(request)
    used = storage.used
    found = [[m.level, str(m.message), m.extra_tags] for m in storage]
    storage.used = used
    return found


def done_elsewhere(request: HttpRequest) -> HttpResponse:
    """A unique key met: nothing was written; back to the page, saying why."""
    messages.error(
        request,
        _(
            "This was just done elsewhere (another tab or device), so nothing was changed. "
            "Here is the page as it is now."
        ),
    )
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "/"
    if getattr(request, "htmx", False):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = back
        return response
    return HttpResponseRedirect(back)
