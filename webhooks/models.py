import json

from django.db import models

from core.ids import new_public_id


def new_message_id() -> str:
    return new_public_id("msg_")


class WebhookEvent(models.Model):
    """One event for one receiver (the outbox row), delivered by one or more attempts."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"

    # The `webhook-id` header: one per event, the same on every attempt, so receivers deduplicate.
    message_id = models.CharField(max_length=40, unique=True, default=new_message_id, editable=False)
    account = models.ForeignKey("accounts.Account", on_delete=models.CASCADE, related_name="webhook_events")
    event_type = models.CharField(max_length=60)
    # The public id of whom the event is about, where erasure must find it (a learner: `lrn_…`).
    subject = models.CharField(max_length=40, blank=True)
    url = models.TextField()
    # The exact body sent, kept as text: key order and spelling stay as the caller built them.
    body = models.TextField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    # Attempts made so far, and the number at which to give up (raised by "deliver again").
    attempt_count = models.PositiveIntegerField(default=0)
    attempt_limit = models.PositiveIntegerField()
    # The attempts made before the current allowance ("deliver again" gives a fresh one): its waits
    # between attempts start again from the first.
    allowance_after = models.PositiveIntegerField(default=0)
    # When the next attempt is due while pending; while an attempt runs, the end of its lease.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="webhook_event_due",
                condition=models.Q(status="pending"),
            ),
            models.Index(fields=["subject"], name="webhook_event_subject", condition=~models.Q(subject="")),
        ]

    def __str__(self):
        return f"{self.event_type} {self.message_id}"

    @property
    def payload(self) -> dict:
        return json.loads(self.body)


class WebhookAttempt(models.Model):
    """One POST of an event; written when it starts, completed when it ends."""

    event = models.ForeignKey(WebhookEvent, on_delete=models.CASCADE, related_name="attempts")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    status_code = models.PositiveIntegerField(null=True, blank=True)
    succeeded = models.BooleanField(default=False)
    error = models.TextField(blank=True)
    response_excerpt = models.TextField(blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="webhook_attempt_number_unique"),
        ]

    def __str__(self):
        return f"{self.event} attempt {self.number}"

    @property
    def outcome(self) -> str:
        if self.finished_at is None:
            return "in progress or interrupted"
        if self.succeeded:
            return f"delivered ({self.status_code})"
        return self.error or f"HTTP {self.status_code}"
