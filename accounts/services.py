"""Accounts a director makes from the Roles page: a new person, by name and email, given a
role in the tournament and a one-time link to choose a password. The club's administrator
makes further directors the same way (the Directors page, ``manage.py add_director``).

The link is Django's password-reset token (``default_token_generator``): it stops working
once the password is set (the token signs the password hash) and after
``PASSWORD_RESET_TIMEOUT`` (a day, config/settings.py). Nothing is emailed: the director
hands the link over as it is shown, or as its QR code on their screen. Nobody needs the
admin or a shell. Writes go through :func:`create_member`, :func:`create_director` and
:func:`make_director` only.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments import audit
from tournaments.models import AuditEntry, Tournament
from tournaments.organising import ROLES


def _username(email: str, name: str) -> str:
    """The part of the email before the @ (else the name), letters, digits and . _ - only,
    made unique with a number."""
    User = get_user_model()
    base = re.sub(r"[^\w.\-]+", "", email.split("@")[0] or name.replace(" ", ".")) or "member"
    base = base[:140]
    username, n = base, 2
    while User.objects.filter(username__iexact=username).exists():
        username, n = f"{base}{n}", n + 1
    return username


def _new_account(*, name: str, email: str, taken: str) -> Any:
    """A new active account for ``name`` with no password yet (its owner chooses one
    through a set-password link); ``taken``, the refusal when the email has an account.
    Call inside a transaction."""
    User = get_user_model()
    email = User.objects.normalize_email(email.strip())
    name = " ".join(name.split())
    if User.objects.filter(email__iexact=email).exists():
        raise ValidationError(taken % {"email": email})
    account = User(username=_username(email, name), email=email, is_active=True)
    first, _space, last = name.partition(" ")
    account.first_name, account.last_name = first[:150], last[:150]
    account.set_unusable_password()
    account.save()
    return account


def create_member(*, tournament: Tournament, name: str, email: str, role: str, user: Any) -> Any:
    """A new account for ``name`` with no password yet, given ``role`` here."""
    if role not in ROLES:
        raise ValidationError(_("Unknown role."))
    with transaction.atomic():
        member = _new_account(
            name=name,
            email=email,
            taken=_(
                "An account with the email %(email)s exists already: "
                "add it by its username instead."
            ),
        )
        relation = tournament.co_directors if role == "co_director" else tournament.scorekeepers
        relation.add(member)
        audit.record(
            tournament=tournament,
            action="role added",
            obj=tournament,
            after={"role": role, "username": member.get_username(), "new_account": True},
            user=user,
        )
    return member


def set_password_url(member: Any, request: HttpRequest | None = None) -> str:
    """The absolute one-time link (SITE_URL, else the request's host, as table links)."""
    path = reverse(
        "set-password",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(member.pk)),
            "token": default_token_generator.make_token(member),
        },
    )
    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/") + path
    return request.build_absolute_uri(path) if request is not None else path


def awaiting_password(tournament: Tournament) -> list[Any]:
    """Members whose account was made here and who have not chosen a password yet.

    Only accounts this tournament made: a link for any passwordless account added by
    username would let a co-director take over an account another director made."""
    made_here = set(
        AuditEntry.objects.filter(
            tournament=tournament, action="role added", after__new_account=True
        ).values_list("after__username", flat=True)
    )
    members = [*tournament.co_directors.all(), *tournament.scorekeepers.all()]
    return [m for m in members if not m.has_usable_password() and m.get_username() in made_here]


# -- further directors (the Directors page, manage.py add_director) ---------------------------

DIRECTOR_CODENAME = "add_tournament"


def _director_permission() -> Any:
    from django.contrib.auth.models import Permission

    return Permission.objects.get(content_type__app_label="tournaments", codename=DIRECTOR_CODENAME)


def create_director(
    *, name: str, email: str, user: Any = None, via: str = "", administrator: bool = False
) -> Any:
    """A new account for ``name`` with no password yet, allowed to create tournaments;
    audited in the registry's log (no tournament). An ``administrator`` (the club's
    first account, ``add_director --administrator``) is a superuser as well: it makes
    further directors and opens the admin."""
    with transaction.atomic():
        director = _new_account(
            name=name,
            email=email,
            taken=_(
                "An account with the email %(email)s exists already: "
                "make it a director by its username instead."
            ),
        )
        director.user_permissions.add(_director_permission())
        if administrator:
            director.is_staff = director.is_superuser = True
            director.save(update_fields=["is_staff", "is_superuser"])
        after = {"username": director.get_username(), "new_account": True}
        audit.record(
            tournament=None,
            action="director added",
            obj=director,
            after={**after, "administrator": True} if administrator else after,
            user=user,
            via=via,
        )
    return director


def make_director(*, username: str, user: Any = None, via: str = "") -> Any:
    """Let the existing account ``username`` create tournaments (audited once)."""
    User = get_user_model()
    account = User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": username.strip()}).first()
    if account is None or not account.is_active:
        raise ValidationError(_("There is no account %(username)s.") % {"username": username})
    permission = _director_permission()
    with transaction.atomic():
        if account.is_superuser or account.user_permissions.filter(pk=permission.pk).exists():
            return account
        account.user_permissions.add(permission)
        audit.record(
            tournament=None,
            action="director added",
            obj=account,
            after={"username": account.get_username()},
            user=user,
            via=via,
        )
    return account


def directors() -> list[Any]:
    """Every active account that may create tournaments, by username."""
    return accounts_holding(_director_permission())


def accounts_holding(permission: Any) -> list[Any]:
    """Every active account that holds ``permission`` (a superuser holds them all; an
    account through its own permissions or a group's), by username."""
    from django.db.models import Q

    User = get_user_model()
    return list(
        User.objects.filter(
            Q(is_superuser=True)
            | Q(user_permissions=permission)
            | Q(groups__permissions=permission),
            is_active=True,
        )
        .distinct()
        .order_by(User.USERNAME_FIELD)
    )


def directors_awaiting_password(among: list[Any]) -> list[Any]:
    """Directors made as new accounts (the Directors page, the command) who have not chosen
    a password yet: only those, so a fresh link cannot take over another account."""
    made = set(
        AuditEntry.objects.filter(
            tournament=None, action="director added", after__new_account=True
        ).values_list("after__username", flat=True)
    )
    return [d for d in among if not d.has_usable_password() and d.get_username() in made]
