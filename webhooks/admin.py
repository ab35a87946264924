import json

from django.contrib import admin, messages
from django.utils.html import format_html

from config.admin import DatesInRange
from webhooks import services
from webhooks.models import WebhookAttempt, WebhookEvent

# How much of a receiver's answer the list of attempts shows; an attempt's page shows the stored excerpt.
ANSWER_START_CHARS = 120

ATTEMPT_FIELDS = [
    "number",
    "started_at",
    "duration_ms",
    "status_code",
    "succeeded",
    "error",
    "response_excerpt",
]


class WebhookAttemptInline(admin.TabularInline):
    model = WebhookAttempt
    fields = ATTEMPT_FIELDS
    readonly_fields = ATTEMPT_FIELDS
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(WebhookEvent)
class WebhookEventAdmin(DatesInRange, admin.ModelAdmin):
    list_display = [
        "message_id",
        "event_type",
        "account",
        "status",
        "attempt_count",
        "next_attempt_at",
        "created_at",
        "delivered_at",
    ]
    list_filter = ["status", "event_type", "created_at"]
    search_fields = ["message_id", "url", "account__email"]
    list_select_related = ["account"]
    date_hierarchy = "created_at"
    actions = ["deliver_again"]
    inlines = [WebhookAttemptInline]
    fields = [
        "message_id",
        "event_type",
        "account",
        "url",
        "status",
        "attempt_count",
        "attempt_limit",
        "next_attempt_at",
        "created_at",
        "delivered_at",
        "pretty_body",
    ]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    @admin.display(description="body")
    def pretty_body(self, event):
        return format_html("<pre>{}</pre>", json.dumps(event.payload, indent=2, ensure_ascii=False))

    @admin.action(description="Deliver again", permissions=["change"])
    def deliver_again(self, request, queryset):
        for event in queryset:
            services.redeliver(event=event)
        self.message_user(request, f"{queryset.count()} event(s) queued for delivery.", messages.SUCCESS)


@admin.register(WebhookAttempt)
class WebhookAttemptAdmin(DatesInRange, admin.ModelAdmin):
    list_display = [
        "event", "number", "started_at", "status_code", "duration_ms", "succeeded", "error", "answer_start",
    ]
    list_filter = ["succeeded", "started_at"]
    search_fields = ["event__message_id", "event__url", "error"]
    list_select_related = ["event"]
    fields = ["event", "finished_at", *ATTEMPT_FIELDS]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    @admin.display(description="answer")
    def answer_start(self, attempt):
        excerpt = attempt.response_excerpt
        return excerpt if len(excerpt) <= ANSWER_START_CHARS else excerpt[: ANSWER_START_CHARS - 1] + "…"
