"""Public tournament pages (filled in by the public-pages work)."""

app_name = "public"

urlpatterns: list = []
