"""Publishing's rows: at the club, the tokens and the mirrors; at the venue, where it
publishes and how far each tournament has gone. One installation can be both."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class PublishToken(models.Model):
    """At the club: a director's key for publishing from a venue. Only its SHA-256 is
    kept; the token itself is shown once, when it is made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="publish_tokens"
    )
    label = models.CharField(_("label"), max_length=60, blank=True)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(
        max_length=8, help_text="The token's first characters, to tell tokens apart."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"


class Mirror(models.Model):
    """At the club: a tournament that follows a venue. Writes to it are refused."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="mirror")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="mirrors"
    )
    token = models.ForeignKey(PublishToken, on_delete=models.SET_NULL, null=True, blank=True)
    venue = models.CharField(max_length=120, blank=True)
    applied_through = models.PositiveIntegerField(default=0)
    received_at = models.DateTimeField(null=True, blank=True)
    """When the venue was last heard from (a change or a heartbeat)."""
    applied_at = models.DateTimeField(null=True, blank=True)
    # How far behind the venue it is (:mod:`publishing.lag`), as the venue last told it.
    venue_through = models.PositiveIntegerField(default=0)
    """The venue's newest change number."""
    last_change_at = models.DateTimeField(null=True, blank=True)
    """When the venue made that change, on this server's clock (null: not told)."""
    lacking_since = models.DateTimeField(null=True, blank=True)
    """When the venue made the oldest change this mirror may lack, on this server's clock."""

    def __str__(self) -> str:
        return f"{self.tournament.slug} ← {self.venue}"


class Destination(models.Model):
    """At the venue: the club's server it publishes to (one row, set from the command
    line or from a page)."""

    url = models.URLField(_("club server address"), max_length=300)
    token = models.CharField(_("publishing token"), max_length=100)
    venue = models.CharField(_("this venue's name"), max_length=120, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.url


class Publication(models.Model):
    """At the venue: how far one tournament has been published."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="publication"
    )
    slug = models.SlugField(_("published as"), max_length=80, blank=True)
    """The slug on the club's server; blank: the tournament's own."""
    acknowledged_through = models.PositiveIntegerField(default=0)
    sent = models.JSONField(null=True, blank=True, default=None)
    """Each match's fingerprint (:func:`publishing.sending.fingerprints`) as the club
    acknowledged it; null: the club's copy is not known, so the whole archive goes next."""
    succeeded_at = models.DateTimeField(null=True, blank=True)
    attempted_at = models.DateTimeField(null=True, blank=True)
    failing_since = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    error_code = models.CharField(max_length=30, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament.slug} → {self.acknowledged_through}"
