"""Root URLs. The paths under /t/<slug>/ and /table/<token>/ are a stable interface (SPEC 8)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse_lazy

from config.health import health
from tournaments import views as tournament_views

urlpatterns = [
    path("", tournament_views.home, name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The one-time link a director hands a new co-director or scorekeeper
    # (accounts/services.py): choose a password, and be logged in.
    path(
        "accounts/set-password/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="registration/set_password.html",
            post_reset_login=True,
            post_reset_login_backend="django.contrib.auth.backends.ModelBackend",
            success_url=reverse_lazy("tournaments:dashboard"),
        ),
        name="set-password",
    ),
    # The load balancer's check: 200 when this node reaches its database and cache.
    path("health/", health, name="health"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("public.urls")),
    path("", include("scoring.urls")),
    path("", include("tables.urls")),
    path("", include("tournaments.urls")),
    path("", include("accounts.urls")),
    path("", include("players.urls")),
    path("", include("printing.urls")),
    path("", include("archive.urls")),
    path("", include("money.urls")),
    path("", include("club.urls")),
    path("", include("publishing.urls")),
]
