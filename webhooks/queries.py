"""Reads of webhook events."""

from core import metrics
from webhooks.models import WebhookEvent


def events_by_status() -> dict[str, int]:
    """How many events there are in each state (pending, delivered, failed), for /metrics: one query."""
    return metrics.counted_by(WebhookEvent.objects, "status", WebhookEvent.Status.values)
