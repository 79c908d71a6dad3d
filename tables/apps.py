from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Tables")

    def ready(self) -> None:
        from web.submissions import answered

        from .devices import count_answer

        # A table link's resends and refused hands, for the director's device board.
        answered.connect(count_answer, dispatch_uid="tables.devices.count_answer")
