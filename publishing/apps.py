from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublishingConfig(AppConfig):
    name = "publishing"
    verbose_name = _("Publishing")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from tournaments import kept_elsewhere

        from .mirrors import forget_mirrored, kept_by_venues
        from .models import Destination, Mirror
        from .status import forget_publishes

        # The map of mirrored tournaments the read-only check keeps (publishing.mirrors).
        post_save.connect(forget_mirrored, sender=Mirror, dispatch_uid="mirrored-saved")
        post_delete.connect(forget_mirrored, sender=Mirror, dispatch_uid="mirrored-deleted")
        # A registry edit leaves a mirror's rows alone (tournaments.kept_elsewhere).
        kept_elsewhere.register(kept_by_venues)
        # Whether this installation publishes, which the banner's line asks (.status).
        post_save.connect(forget_publishes, sender=Destination, dispatch_uid="destination-saved")
        post_delete.connect(forget_publishes, sender=Destination, dispatch_uid="destination-gone")
