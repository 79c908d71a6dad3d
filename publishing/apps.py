from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublishingConfig(AppConfig):
    name = "publishing"
    verbose_name = _("Publishing")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from .mirrors import forget_mirrored
        from .models import Mirror

        # The map of mirrored tournaments the read-only check keeps (publishing.mirrors).
        post_save.connect(forget_mirrored, sender=Mirror, dispatch_uid="mirrored-saved")
        post_delete.connect(forget_mirrored, sender=Mirror, dispatch_uid="mirrored-deleted")
