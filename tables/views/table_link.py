"""The director's table-link button on the match sheet: switch the link off, or issue a new
one (:mod:`tables.table_links`)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import table_links
from ..access import MatchAccess
from .links import link_view


@require_POST
@link_view
def table_link(request: HttpRequest, access: MatchAccess) -> HttpResponse:
    """A director switches the table link off, or issues a new one (the old one dies)."""
    if access.token is not None or not access.can_direct:
        raise PermissionDenied(_("Only a director manages table links."))
    # Exactly one known action: QueryDict.get would quietly take the last of several.
    actions = request.POST.getlist("action")
    if len(actions) != 1 or actions[0] not in table_links.TABLE_LINK_ACTIONS:
        # 400.html shows the messages, so the director reads what was wrong.
        message = _("Choose either “Switch off table link” or “Issue a new table link”.")
        messages.error(request, message)
        raise BadRequest(message)
    table_links.set_table_link(match=access.match, action=actions[0], user=access.user)
    messages.success(request, _("Table link updated."))
    return HttpResponseRedirect(access.url("scoring:match-sheet"))
