"""WSGI entry point (gunicorn config.wsgi; the venue server's processes).

Once the site is loaded, everything it loaded (Django, the apps, their modules: some
56,000 objects) is frozen out of the garbage collector's sight (``gc.freeze()``): it
stays for the life of the process, and a full collection no longer walks it each time,
which in a worker serving a full room was a pause of every thread of the process.
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
gc.freeze()
