import base64
import secrets

from django.db import models
from django.db.models.functions import Lower


def new_webhook_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


class Plan(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    is_paid = models.BooleanField(default=False)
    monthly_course_credits = models.PositiveIntegerField(default=0)
    # Requests per API key in any sliding 60 seconds; empty means the RATE_LIMIT_* setting applies.
    rate_limit_create = models.PositiveIntegerField(
        null=True, blank=True, help_text="POST /api/v1/courses per key per 60 s. Empty: RATE_LIMIT_CREATE."
    )
    rate_limit_export = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="POST /api/v1/courses/:id/export per key per 60 s. Empty: RATE_LIMIT_EXPORT.",
    )
    rate_limit_poll = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="GET /api/v1/courses/jobs/:jobId per key per 60 s. Empty: RATE_LIMIT_POLL.",
    )
    rate_limit_read = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Reading a course and its versions, per key per 60 s. Empty: RATE_LIMIT_READ.",
    )
    rate_limit_edit = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Editing a course's content (PUT, PATCH), per key per 60 s. Empty: RATE_LIMIT_EDIT.",
    )
    rate_limit_sources = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="POST and DELETE /api/v1/sources per key per 60 s. Empty: RATE_LIMIT_SOURCES.",
    )
    rate_limit_learners = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Adding and erasing learners (POST, DELETE …/learners), per key per 60 s. Empty: RATE_LIMIT_LEARNERS.",
    )
    rate_limit_results = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Reading a course's learner results, per key per 60 s. Empty: RATE_LIMIT_RESULTS.",
    )
    source_storage_mb = models.PositiveIntegerField(
        default=0, help_text="Storage for uploaded and fetched sources, in MB (2^20 bytes), for the whole account."
    )

    class Meta:
        ordering = ["monthly_course_credits", "slug"]

    def __str__(self):
        return self.name


class Account(models.Model):
    email = models.EmailField()
    name = models.CharField(max_length=200, blank=True)
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="accounts")
    # Signs the webhooks of every job and export of this account (Standard Webhooks).
    webhook_secret = models.CharField(max_length=100, default=new_webhook_secret)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("email"), name="account_email_unique_ci")]

    def __str__(self):
        return self.email


class ApiKey(models.Model):
    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100, blank=True)
    # Only the SHA-256 of the key is stored; the prefix stays in clear so staff can tell keys apart.
    prefix = models.CharField(max_length=16)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "API key"

    def __str__(self):
        return f"{self.prefix}… ({self.name})" if self.name else f"{self.prefix}…"


class UsagePeriod(models.Model):
    """Course credits an account used in one billing period (a calendar month in UTC)."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="usage_periods")
    period_date = models.DateField(help_text="First day of the billing month (UTC).")
    courses_used = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["account", "period_date"], name="usage_one_row_per_period"),
        ]

    def __str__(self):
        return f"{self.account} {self.period_date:%Y-%m}: {self.courses_used}"
