"""The site's URLs plus ``/bench/bare/``: the yardstick for hand entry (SPEC 10).

The bare view is what a minimal Django view costs: an authenticated POST through the
same middleware (sessions, CSRF, auth) that inserts one row and answers a few bytes.
It exists only in the bench process (``ROOT_URLCONF`` of :mod:`tests.bench.settings`, or
a test's settings override), never in the site.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from config.urls import urlpatterns as site_urlpatterns
from tournaments.models import AuditEntry

BARE_PATH = "/bench/bare/"


@require_POST
@login_required
def bare_insert(request: HttpRequest) -> HttpResponse:
    AuditEntry.objects.create(action="bench", user=request.user, via="bench")
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path(BARE_PATH.strip("/") + "/", bare_insert, name="bench-bare"), *site_urlpatterns]
