"""At the venue, "Publish to the club's server": the club's administrator sets where the
venue publishes (the one :class:`~publishing.models.Destination` row, which the publishing
thread reads on each pass) or stops it, and sees each tournament's publishing line; a
tournament's director publishes it under another name when the club has its own."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_slug
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.models import Tournament
from tournaments.permissions import is_club_admin
from tournaments.views.base import login_redirect, manage_view
from web.pages import page

from .. import services
from ..forms import DestinationForm
from ..models import Destination
from ..sending import published
from ..status import statuses_of

DESTINATION = "publishing/destination.html"


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
    saved = services.set_destination(
        url=data["url"], token=data["token"], venue=data["venue"], user=request.user
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
    services.stop(user=request.user)
    messages.success(request, _("This server no longer publishes."))
    return redirect("publishing:destination")


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
    services.publish_as(tournament=tournament, slug=slug, user=request.user)
    messages.success(request, _("It will be published as %(slug)s.") % {"slug": slug})
    return back
