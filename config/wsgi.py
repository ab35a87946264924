import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

from config import row_cache  # noqa: E402 (once Django is set up)
from config.request_bodies import ChunkedBodies  # noqa: E402

# A web process keeps the rows its requests read most, as long as they stay as they were.
row_cache.enable()
application = ChunkedBodies(django_application)
