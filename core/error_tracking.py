"""
Error tracking with Sentry (or any server that takes its events), on when SENTRY_DSN is set: each
process starts it once, from config/settings.py, so web, workers and beat all have it. Events go
through the logs' redaction (core.redaction.redacted_secrets) and carry no request body, cookie,
header that authenticates, query string or local variable (docs/run/security.md).
"""

from core import redaction

# Headers that authenticate: an API key, the admin's session, a metrics scraper's token.
_DROPPED_HEADERS = frozenset({"authorization", "cookie", "proxy-authorization", "x-api-key"})
# Errors of the database quote the values they refused (a unique violation's detail names the row),
# which may be a learner's name: their message is left out, their type and frames stay.
_MESSAGE_DROPPED_FROM = ("psycopg", "django.db")


def start(*, dsn: str, environment: str, traces_sample_rate: float, secrets: list[str]) -> bool:
    """
    Start sending errors to `dsn`, unless it is empty; return whether it started. `secrets` are
    values no event may hold (SECRET_KEY, the model server's key), masked wherever they appear.
    """
    if not dsn:
        return False
    # Imported only when on: without a DSN nothing of Sentry's is loaded, so nothing of it can connect.
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    known = [secret for secret in secrets if len(secret) >= 8]
    sentry_sdk.init(
        dsn=dsn,
        environment=environment or None,
        traces_sample_rate=traces_sample_rate,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        # No user, address or cookie (send_default_pii, deprecated in this release, is off by default);
        # redacted_event removes what the integrations add all the same.
        include_local_variables=False,
        max_request_body_size="never",
        before_send=lambda event, hint: redacted_event(event, secrets=known),
        before_breadcrumb=lambda crumb, hint: redacted_breadcrumb(crumb, secrets=known),
    )
    return True


def redacted_event(event: dict, *, secrets: list[str]) -> dict:
    """The event as it may leave the process: its request cut down, every text in it redacted."""
    request = event.get("request")
    if isinstance(request, dict):
        event["request"] = {
            "method": request.get("method"),
            "url": request.get("url"),
            "headers": {
                name: value for name, value in (request.get("headers") or {}).items()
                if name.lower() not in _DROPPED_HEADERS
            },
        }
    event.pop("user", None)
    # Celery's integration adds the task's arguments (a learner's name may be one) and the process's
    # command line: only the task's name stays.
    task_name = ((event.get("extra") or {}).get("celery-job") or {}).get("task_name")
    event["extra"] = {"celery-job": {"task_name": task_name}} if task_name else {}
    for exception in (event.get("exception") or {}).get("values") or []:
        if str(exception.get("module") or "").startswith(_MESSAGE_DROPPED_FROM):
            exception["value"] = ""
        for frame in (exception.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    return _redacted(event, secrets=secrets)


def redacted_breadcrumb(crumb: dict, *, secrets: list[str]) -> dict:
    # A log line's breadcrumb keeps its fixed message; its fields (the record's extras) stay in the logs.
    crumb.pop("data", None)
    return _redacted(crumb, secrets=secrets)


def _redacted(value, *, secrets: list[str]):
    if isinstance(value, str):
        return redaction.redacted_secrets(value, secrets=secrets)
    if isinstance(value, dict):
        return {key: _redacted(item, secrets=secrets) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted(item, secrets=secrets) for item in value]
    return value
