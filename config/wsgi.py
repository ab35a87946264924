import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

from core.request_bodies import ChunkedBodies  # noqa: E402 (once Django is set up)

application = ChunkedBodies(django_application)
