"""
gunicorn's settings for the web process (the Procfile's `-c config/gunicorn.py`): the metrics of its
workers (docs/run/metrics.md).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def on_starting(server):
    # Values left by the processes of a web server that ran before would be summed with the new ones.
    from core import metrics

    metrics.empty_directory()


def child_exit(server, worker):
    from core import metrics

    metrics.process_ended(worker.pid)
