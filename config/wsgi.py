"""WSGI entry point (gunicorn config.wsgi; the venue server's processes).

The site is served behind :class:`public.micro_cache.MicroCache`: each live region a room
polls is kept half a second for every follower, whatever serves it (the venue server's
processes, gunicorn's workers on a club's server, a node behind HAProxy's cache).

Once the site is loaded, everything it loaded (Django, the apps, their modules: some
56,000 objects) is frozen out of the garbage collector's sight (``gc.freeze()``): it
stays for the life of the process, and a full collection no longer walks it each time,
which in a worker serving a full room was a pause of every thread of the process.
"""

import gc
import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_wsgi_application()

from public.micro_cache import MicroCache  # noqa: E402  (its module needs Django set up)

application = MicroCache(django_application, language_cookie=settings.LANGUAGE_COOKIE_NAME)
gc.freeze()
