"""Settings for ``make bench``: the site's own settings, run as production would (DEBUG
off, so no query log and no debug pages), plus the bare comparison views in the URLconf.

The database is whatever ``config.settings`` picks; :mod:`tools.bench.run` points
``SQLITE_PATH`` at a scratch file and ``GINCLUB_DATA_DIR`` at the scratch folder before
Django starts. The cache is the site's default, files in the data folder (so the scratch
folder's), and never Redis even when ``REDIS_URL`` is set: the bench clears its cache
before every cold request.
"""

from config.settings import *  # noqa: F403
from config.settings import DATA_DIR

DEBUG = False
ROOT_URLCONF = "tools.bench.urls"
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
# Users are logged in with force_login; nothing hashes a password while timing.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(DATA_DIR / "cache"),
    }
}
