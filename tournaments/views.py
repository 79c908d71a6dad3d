"""The director's screens: player registry, tournament setup, registration and check-in,
bracket generation, round control, roles and the audit log; plus the home page.

Every view is a function with an explicit method decorator. Pages own their partials: an
htmx request gets ``page.html#partial`` (the element with that id), a plain request gets
the whole page, and every response varies on ``HX-Request``. A POST without htmx ends in
a redirect with a message; with htmx it returns the region it changed. Permissions are
checked here, on the server, for every view: anonymous visitors are sent to log in, a
signed-in user without the right gets 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from scoring.engine import PRESETS, resolve_rules

from . import registration, registry, services, setup
from .forms import (
    AddEntryForm,
    PlayerForm,
    PlayerImportForm,
    PlayerSearchForm,
    RoleForm,
    SeedForm,
    TournamentForm,
    WalkoverForm,
    rules_from_query,
)
from .models import AuditEntry, Entry, Match, Player, Tournament
from .models.audit import ACTION_LABELS
from .models.tournaments import DEFAULT_PRESET
from .permissions import can_direct, is_director
from .rounds import round_overview
from .rules_text import rules_summary

Status = Match.Status
# htmx events: other regions of the registration page reload themselves on these.
ENTRIES_CHANGED = "entries-changed"
PLAYER_REGISTERED = "player-registered"


# -- plumbing --------------------------------------------------------------------------------


def page(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The whole page, or only ``partial`` for htmx; varies on HX-Request either way."""
    name = f"{template}#{partial}" if partial and request.htmx else template
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def message_text(error: ValidationError) -> str:
    return " ".join(str(m) for m in error.messages)


def _login_redirect(request: HttpRequest) -> HttpResponse:
    return redirect_to_login(request.get_full_path())


def director_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For the club-wide screens (registry, new tournament): directors only."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return _login_redirect(request)
        if not is_director(request.user):
            raise PermissionDenied(_("Only tournament directors can do this."))
        response = view(request, *args, **kwargs)
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


def manage_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For ``/t/<slug>/manage/…``: the tournament's owner and co-directors only."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament.objects.select_related("owner"), slug=slug)
        if not request.user.is_authenticated:
            return _login_redirect(request)
        if not can_direct(request.user, tournament):
            raise PermissionDenied(_("You do not direct this tournament."))
        response = view(request, tournament, **kwargs)
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


def manage_url(name: str, tournament: Tournament, **kwargs: Any) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": tournament.slug, **kwargs})


# -- home and dashboard ----------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Public: the tournaments that are open, running or finished (no personal data)."""
    tournaments = Tournament.objects.exclude(status=Tournament.Status.DRAFT).order_by(
        "-date", "name"
    )[:50]
    return render(request, "home.html", {"tournaments": tournaments})


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return _login_redirect(request)
    user = request.user
    directing = (
        Tournament.objects.filter(Q(owner=user) | Q(co_directors=user)).distinct()
        if not user.is_superuser
        else Tournament.objects.all()
    )
    scorekeeping = Tournament.objects.filter(scorekeepers=user).exclude(
        pk__in=directing.values("pk")
    )
    context = {
        "directing": directing.select_related("owner")
        .annotate(players=Count("entries", filter=Q(entries__withdrawn=False), distinct=True))
        .order_by("-date", "name"),
        "scorekeeping": scorekeeping.order_by("-date", "name"),
        "is_director": is_director(user),
    }
    return page(request, "tournaments/dashboard.html", context)


# -- player registry -------------------------------------------------------------------------


def _player_page(request: HttpRequest) -> dict[str, Any]:
    search = PlayerSearchForm(request.GET or None)
    players = Player.objects.all()
    query = ""
    if search.is_valid():
        query = search.cleaned_data["q"].strip()
    if query:
        players = players.filter(
            Q(name__icontains=query) | Q(email__icontains=query) | Q(club_id__icontains=query)
        )
    paginator = Paginator(players.order_by("name", "pk"), 50)
    return {
        "search": search,
        "query": query,
        "players": paginator.get_page(request.GET.get("page")),
    }


@require_GET
@director_view
def player_list(request: HttpRequest) -> HttpResponse:
    return page(request, "tournaments/players.html", _player_page(request), partial="player-list")


@require_http_methods(["GET", "POST"])
@director_view
def player_create(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = registry.create_player(data=form.cleaned_data, user=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s added to the registry.") % {"name": player})
            return redirect("tournaments:player-list")
    return page(request, "tournaments/player_form.html", {"form": form, "player": None})


@require_http_methods(["GET", "POST"])
@director_view
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    form = PlayerForm(request.POST or None, instance=Player.objects.get(pk=player.pk))
    if request.method == "POST" and form.is_valid():
        try:
            registry.update_player(player=player, data=form.cleaned_data, user=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": player})
            return redirect("tournaments:player-list")
    return page(request, "tournaments/player_form.html", {"form": form, "player": player})


@require_http_methods(["GET", "POST"])
@director_view
def player_import(request: HttpRequest) -> HttpResponse:
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    result = None
    if request.method == "POST" and form.is_valid():
        try:
            text = registry.decode_csv(form.cleaned_data["file"].read())
        except ValidationError as error:
            form.add_error("file", error)
        else:
            result = registry.import_players_csv(text=text, user=request.user)
            if result.ok:
                messages.success(
                    request,
                    _("Imported %(count)d players.") % {"count": len(result.players)},
                )
                return redirect("tournaments:player-list")
    return page(request, "tournaments/player_import.html", {"form": form, "result": result})


# -- tournaments -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@director_view
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = setup.create_tournament(owner=request.user, data=form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Tournament created. Now register the players."))
            return redirect(manage_url("entry-list", tournament))
    return page(request, "tournaments/setup.html", _setup_context(form, None))


def _setup_context(form: TournamentForm, tournament: Tournament | None) -> dict[str, Any]:
    """The summary shows the rules as submitted (when valid), else as stored."""
    submitted = getattr(form, "cleaned_data", {}).get("rules") if form.is_bound else None
    if submitted:
        ruleset = resolve_rules(submitted)
    elif tournament is not None:
        ruleset = tournament.ruleset
    else:
        ruleset = PRESETS[DEFAULT_PRESET]
    return {
        "form": form,
        "tournament": tournament,
        "summary": rules_summary(ruleset),
        "section": "setup",
    }


@require_http_methods(["GET", "POST"])
@manage_view
def tournament_setup(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST":
        if form.is_valid():
            try:
                setup.update_tournament(
                    tournament=tournament, data=form.cleaned_data, user=request.user
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Tournament saved."))
                return redirect(manage_url("tournament-setup", tournament))
        tournament.refresh_from_db()
    return page(request, "tournaments/setup.html", _setup_context(form, tournament))


@require_GET
@director_view
def rules_summary_view(request: HttpRequest) -> HttpResponse:
    """The live one-line summary for the setup form (htmx swaps it in as you pick)."""
    ruleset = rules_from_query(request.GET)
    context = {
        "summary": rules_summary(ruleset) if ruleset else "",
        "invalid": ruleset is None,
    }
    return page(request, "tournaments/rules_summary.html", context, partial="rules-summary")


@require_POST
@manage_view
def tournament_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        setup.set_status(
            tournament=tournament, status=request.POST.get("status", ""), user=request.user
        )
    except ValidationError as error:
        messages.error(request, message_text(error))
    else:
        messages.success(request, _("Status changed."))
    return redirect(manage_url("tournament-setup", tournament))


# -- registration ----------------------------------------------------------------------------


def _entries_context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict:
    entries = list(
        tournament.entries.select_related("player").order_by("withdrawn", "seed", "player__name")
    )
    entries.sort(key=lambda e: (e.withdrawn, e.seed is None, e.seed or 0, e.player.name))
    query = request.GET.get("q", "").strip()[:100]
    candidates = Player.objects.none()
    if query:
        candidates = (
            Player.objects.filter(Q(name__icontains=query) | Q(club_id__icontains=query))
            .exclude(entries__tournament=tournament)
            .order_by("name")[:20]
        )
    generated = tournament.matches.exists()
    context = {
        "tournament": tournament,
        "entries": entries,
        "counts": {
            "entered": sum(not e.withdrawn for e in entries),
            "checked_in": sum(e.checked_in and not e.withdrawn for e in entries),
            "paid": sum(e.paid for e in entries),
            "withdrawn": sum(e.withdrawn for e in entries),
        },
        "query": query,
        "candidates": candidates,
        "open": not generated and tournament.status != Tournament.Status.FINISHED,
        "generated": generated,
        "new_player_form": PlayerForm(prefix="new"),
        "section": "entries",
    }
    context.update(extra)
    return context


@require_GET
@manage_view
def entry_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    partial = (
        "registry-results" if request.GET.get("target") == "registry-results" else "entry-list"
    )
    return page(
        request, "tournaments/entries.html", _entries_context(request, tournament), partial=partial
    )


def _entry_result(
    request: HttpRequest, tournament: Tournament, *, ok: str = "", error: str = ""
) -> HttpResponse:
    """After a registration POST: the refreshed list for htmx, else back to the page."""
    if request.htmx:
        context = _entries_context(request, tournament, notice=ok, error=error)
        response = page(request, "tournaments/entries.html", context, partial="entry-list")
        if not error:
            trigger_client_event(response, ENTRIES_CHANGED)
        return response
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect(manage_url("entry-list", tournament))


@require_POST
@manage_view
def entry_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = AddEntryForm(request.POST)
    if not form.is_valid():
        problems = " ".join(str(e) for errors in form.errors.values() for e in errors)
        return _entry_result(request, tournament, error=problems)
    try:
        entry = registration.add_entry(
            tournament=tournament,
            player=form.cleaned_data["player"],
            seed=form.cleaned_data.get("seed"),
            user=request.user,
        )
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament, ok=_("%(name)s entered.") % {"name": entry})


@require_POST
@manage_view
def entry_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Add a brand-new player to the registry and enter them."""
    form = PlayerForm(request.POST, prefix="new")
    if form.is_valid():
        try:
            entry = registration.register_new_player(
                tournament=tournament, data=form.cleaned_data, user=request.user
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            ok = _("%(name)s entered.") % {"name": entry}
            if not request.htmx:
                messages.success(request, ok)
                return redirect(manage_url("entry-list", tournament))
            context = _entries_context(request, tournament, new_notice=ok)
            response = page(request, "tournaments/entries.html", context, partial="new-player")
            trigger_client_event(response, PLAYER_REGISTERED)
            trigger_client_event(response, ENTRIES_CHANGED)
            return response
    # Invalid: the form again with its errors, nothing saved.
    context = _entries_context(request, tournament, new_player_form=form)
    return page(request, "tournaments/entries.html", context, partial="new-player")


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, tournament=tournament
    )


@require_POST
@manage_view
def entry_flag(
    request: HttpRequest, tournament: Tournament, entry_id: int, field: str
) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    if field not in registration.ENTRY_FLAGS:
        return _entry_result(request, tournament, error=_("Unknown flag."))
    value = request.POST.get("value") == "1"
    try:
        registration.set_entry_flag(entry=entry, field=field, value=value, user=request.user)
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament)


@require_POST
@manage_view
def entry_seed(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    form = SeedForm(request.POST)
    if not form.is_valid():
        return _entry_result(
            request, tournament, error=_("A seed is a whole number from 1 up, or empty.")
        )
    try:
        registration.set_seed(entry=entry, seed=form.cleaned_data["seed"], user=request.user)
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament)


@require_POST
@manage_view
def entry_withdraw(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    try:
        services.withdraw(entry=entry, user=request.user)
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament, ok=_("%(name)s withdrawn.") % {"name": entry})


@require_POST
@manage_view
def entry_reinstate(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    try:
        registration.reinstate_entry(entry=entry, user=request.user)
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament, ok=_("%(name)s is back in.") % {"name": entry})


@require_POST
@manage_view
def entry_remove(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    name = str(entry)
    try:
        registration.remove_entry(entry=entry, user=request.user)
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament, ok=_("%(name)s removed.") % {"name": name})


@require_POST
@manage_view
def entry_seed_by_rating(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        registration.seed_by_rating(tournament=tournament, user=request.user)
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament, ok=_("Seeded by rating."))


# -- bracket ---------------------------------------------------------------------------------


@require_GET
@manage_view
def bracket(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Before generation: a preview of exactly what will be stored. After: the bracket."""
    context: dict[str, Any] = {"tournament": tournament, "section": "bracket"}
    matches = list(
        tournament.matches.select_related("side_a__player", "side_b__player").order_by("pk")
    )
    if matches:
        context["generated"] = True
        context["groups"] = _groups(matches)
    else:
        context["generated"] = False
        try:
            plan = services.generate_bracket(tournament=tournament, user=request.user, preview=True)
        except ValidationError as error:
            context["problem"] = message_text(error)
        else:
            context["plan"] = plan
            context["groups"] = _groups(plan.matches)
    return page(request, "tournaments/bracket.html", context, partial="bracket-view")


def _groups(matches: list[Match]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, int], list[Match]] = {}
    for match in matches:
        groups.setdefault((match.section, match.round), []).append(match)
    return [
        {
            "section": Match.Section(section).label,
            "round": round_,
            "matches": sorted(group, key=lambda m: m.position),
        }
        for (section, round_), group in groups.items()
    ]


@require_POST
@manage_view
def bracket_generate(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        plan = services.generate_bracket(tournament=tournament, user=request.user)
    except ValidationError as error:
        messages.error(request, message_text(error))
        return redirect(manage_url("bracket", tournament))
    messages.success(
        request,
        _("Bracket generated: %(count)d matches. Tables are assigned; print the round.")
        % {"count": len(plan.matches)},
    )
    return redirect(manage_url("round-control", tournament))


@require_POST
@manage_view
def bracket_clear(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        services.clear_bracket(tournament=tournament, user=request.user)
    except ValidationError as error:
        messages.error(request, message_text(error))
    else:
        messages.success(request, _("Bracket cleared. Registration is open again."))
    return redirect(manage_url("bracket", tournament))


# -- round control ---------------------------------------------------------------------------


def _rounds_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "overview": round_overview(tournament),
        "walkover_form": WalkoverForm(),
        "section": "rounds",
        **extra,
    }


@require_GET
@manage_view
def round_control(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return page(
        request, "tournaments/rounds.html", _rounds_context(tournament), partial="round-control"
    )


def _round_result(
    request: HttpRequest, tournament: Tournament, *, ok: str = "", error: str = ""
) -> HttpResponse:
    if request.htmx:
        context = _rounds_context(tournament, notice=ok, error=error)
        return page(request, "tournaments/rounds.html", context, partial="round-control")
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect(manage_url("round-control", tournament))


def _match(tournament: Tournament, match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("side_a__player", "side_b__player"),
        pk=match_id,
        tournament=tournament,
    )


@require_POST
@manage_view
def match_confirm(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    match = _match(tournament, match_id)
    try:
        services.confirm_match(match=match, user=request.user)
    except ValidationError as error:
        return _round_result(request, tournament, error=message_text(error))
    return _round_result(
        request,
        tournament,
        ok=_("%(match)s confirmed: %(winner)s wins.")
        % {"match": match.label, "winner": match.winner},
    )


@require_POST
@manage_view
def match_walkover(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    match = _match(tournament, match_id)
    form = WalkoverForm(request.POST)
    if not form.is_valid():
        return _round_result(request, tournament, error=_("Choose who wins the walkover."))
    try:
        services.forfeit(
            match=match, winner_side=form.cleaned_data["winner_side"], user=request.user
        )
    except ValidationError as error:
        return _round_result(request, tournament, error=message_text(error))
    return _round_result(
        request, tournament, ok=_("Walkover: %(winner)s goes through.") % {"winner": match.winner}
    )


@require_POST
@manage_view
def tables_assign(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    changed = services.assign_tables(tournament=tournament, user=request.user)
    return _round_result(
        request, tournament, ok=_("%(count)d matches given a table.") % {"count": len(changed)}
    )


# -- roles -----------------------------------------------------------------------------------


def _roles_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "co_directors": tournament.co_directors.order_by("username"),
        "scorekeepers": tournament.scorekeepers.order_by("username"),
        "form": RoleForm(),
        "section": "roles",
        **extra,
    }


@require_GET
@manage_view
def roles(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return page(request, "tournaments/roles.html", _roles_context(tournament), partial="role-list")


@require_POST
@manage_view
def role_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RoleForm(request.POST)
    error = ""
    ok = ""
    if form.is_valid():
        try:
            member = setup.add_role(
                tournament=tournament,
                username=form.cleaned_data["username"],
                role=form.cleaned_data["role"],
                user=request.user,
            )
        except ValidationError as exc:
            form.add_error("username", exc)
        else:
            ok = _("%(username)s added.") % {"username": member.get_username()}
            form = RoleForm()
    if not form.is_valid() and form.is_bound:
        error = " ".join(str(e) for errors in form.errors.values() for e in errors)
    if request.htmx:
        context = _roles_context(tournament, form=form, notice=ok)
        return page(request, "tournaments/roles.html", context, partial="role-list")
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect(manage_url("roles", tournament))


@require_POST
@manage_view
def role_remove(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        user_id = int(request.POST.get("user", ""))
        setup.remove_role(
            tournament=tournament,
            user_id=user_id,
            role=request.POST.get("role", ""),
            user=request.user,
        )
    except ValueError:
        error, ok = _("Choose an account to remove."), ""
    except ValidationError as exc:
        error, ok = message_text(exc), ""
    else:
        error, ok = "", _("Role removed.")
    if request.htmx:
        context = _roles_context(tournament, notice=ok, error=error)
        return page(request, "tournaments/roles.html", context, partial="role-list")
    if error:
        messages.error(request, error)
    else:
        messages.success(request, ok)
    return redirect(manage_url("roles", tournament))


# -- audit log -------------------------------------------------------------------------------


@require_GET
@manage_view
def audit_log(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entries = AuditEntry.objects.filter(tournament=tournament).select_related("user")
    action = request.GET.get("action", "").strip()[:80]
    if action:
        entries = entries.filter(action=action)
    paginator = Paginator(entries.order_by("-at", "-pk"), 100)
    context = {
        "tournament": tournament,
        "entries": paginator.get_page(request.GET.get("page")),
        "actions": [
            (code, ACTION_LABELS.get(code, code))
            for code in AuditEntry.objects.filter(tournament=tournament)
            .order_by("action")
            .values_list("action", flat=True)
            .distinct()
        ],
        "action": action,
        "section": "audit",
    }
    return page(request, "tournaments/audit.html", context, partial="audit-list")
