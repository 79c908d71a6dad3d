"""Settings for the gunicorn under load: the site's own settings, run as production would
(DEBUG off: no query log, no debug pages), without the HTTPS-only cookies and redirects,
since the simulated tables talk plain HTTP on loopback.

The database comes from the environment like the site's (``SQLITE_PATH`` or
``DATABASE_URL``); :mod:`tools.load.run` sets it for the server and for itself. Passwords
are hashed the fast way unless ``GINCLUB_LOAD_REAL_PASSWORDS=1`` (the log-in measurement,
:mod:`tools.load.logins`, wants the real cost of a guess).
"""

import os

from config.settings import *  # noqa: F403

DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
if os.environ.get("GINCLUB_LOAD_REAL_PASSWORDS") != "1":
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
