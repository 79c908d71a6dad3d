"""The site's URLs plus two yardsticks for the bench (SPEC 10), each a minimal Django view
through the same middleware (sessions, CSRF, auth, messages, htmx) as the site's views:

- ``/bench/bare/``, for hand entry: an authenticated POST that inserts one row and
  answers a few bytes;
- ``/bench/bare-get/<slug>/``, for a follower's poll of a cached region: an anonymous
  GET that reads one tournament's id (one query) and answers it as a few bytes.

They exist only in the bench process (``ROOT_URLCONF`` of :mod:`tools.bench.settings`, or
a test's settings override), never in the site.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_GET, require_POST

from config.urls import urlpatterns as site_urlpatterns
from tournaments.models import AuditEntry, Tournament

BARE_PATH = "/bench/bare/"
BARE_GET_PATH = "/bench/bare-get/{slug}/"


@require_POST
@login_required
def bare_insert(request: HttpRequest) -> HttpResponse:
    AuditEntry.objects.create(action="bench", user=request.user, via="bench")
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def bare_read(request: HttpRequest, slug: str) -> HttpResponse:
    pk = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if pk is None:
        raise Http404
    return HttpResponse(str(pk), content_type="text/plain")


urlpatterns = [
    path(BARE_PATH.strip("/") + "/", bare_insert, name="bench-bare"),
    path("bench/bare-get/<slug:slug>/", bare_read, name="bench-bare-get"),
    *site_urlpatterns,
]
