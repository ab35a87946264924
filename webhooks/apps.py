from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"

    def ready(self):
        from core import metrics
        from webhooks import queries

        metrics.add_counts(
            "cgs_webhook_events",
            "Webhook events, by state: pending (to be delivered), delivered, failed (given up).",
            label="state",
            count=queries.events_by_status,
        )
