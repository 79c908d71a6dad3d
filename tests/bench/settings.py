"""Settings for ``make bench``: the site's own settings, run as production would (DEBUG
off, so no query log and no debug pages), plus a bare comparison view in the URLconf.

The database is whatever ``config.settings`` picks; :mod:`tests.bench.run` points
``SQLITE_PATH`` at a scratch file before Django starts.
"""

from config.settings import *  # noqa: F403

DEBUG = False
ROOT_URLCONF = "tests.bench.urls"
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
# Users are logged in with force_login; nothing hashes a password while timing.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
