import json

from django.contrib import admin, messages
from django.utils.html import format_html

from core import redaction
from core.admin import DatesInRange, NoLookupsBySecrets, redacted_url_of
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
    "shown_error",
    "shown_answer",
]


class ShowsAttemptErrors:
    # An error names where a redirect pointed (Location), and a receiver redirecting http to https
    # repeats the callback URL's token there; so may the start of its answer ("Redirecting to …").
    @admin.display(description="error")
    def shown_error(self, attempt):
        return redaction.redacted_text(attempt.error)

    @admin.display(description="start of the answer")
    def shown_answer(self, attempt):
        return shown_answer(attempt)


class WebhookAttemptInline(ShowsAttemptErrors, admin.TabularInline):
    model = WebhookAttempt
    fields = ATTEMPT_FIELDS
    readonly_fields = ATTEMPT_FIELDS
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(WebhookEvent)
class WebhookEventAdmin(NoLookupsBySecrets, DatesInRange, admin.ModelAdmin):
    # The URL may carry the receiver's token; the body holds download links and learners' names.
    secret_fields = ("url", "body")
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
    search_fields = ["message_id", "account__email"]
    list_select_related = ["account"]
    date_hierarchy = "created_at"
    actions = ["deliver_again"]
    inlines = [WebhookAttemptInline]
    fields = [
        "message_id",
        "event_type",
        "account",
        "destination",
        "status",
        "attempt_count",
        "attempt_limit",
        "next_attempt_at",
        "created_at",
        "delivered_at",
        "pretty_body",
    ]
    readonly_fields = fields
    destination = redacted_url_of("url", description="URL")

    def has_add_permission(self, request):
        return False

    @admin.display(description="body (URLs redacted, link ids masked, learners' names hidden)")
    def pretty_body(self, event):
        shown = json.dumps(shown_payload(event.payload), indent=2, ensure_ascii=False)
        return format_html("<pre>{}</pre>", shown)

    @admin.action(description="Deliver again", permissions=["change"])
    def deliver_again(self, request, queryset):
        for event in queryset:
            services.redeliver(event=event)
        self.message_user(request, f"{queryset.count()} event(s) queued for delivery.", messages.SUCCESS)


@admin.register(WebhookAttempt)
class WebhookAttemptAdmin(ShowsAttemptErrors, NoLookupsBySecrets, DatesInRange, admin.ModelAdmin):
    secret_fields = ("error", "response_excerpt")
    list_display = [
        "event", "number", "started_at", "status_code", "duration_ms", "succeeded", "shown_error",
        "answer_start",
    ]
    list_filter = ["succeeded", "started_at"]
    search_fields = ["event__message_id"]
    list_select_related = ["event"]
    fields = ["event", "finished_at", *ATTEMPT_FIELDS]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    @admin.display(description="answer")
    def answer_start(self, attempt):
        excerpt = shown_answer(attempt)
        return excerpt if len(excerpt) <= ANSWER_START_CHARS else excerpt[: ANSWER_START_CHARS - 1] + "…"


def shown_answer(attempt: WebhookAttempt) -> str:
    """
    The start of a receiver's answer as staff see it: URLs redacted and link ids masked, and the
    names of the learner its event is about hidden, as in the event's body (a receiver may echo it).
    """
    excerpt = redaction.redacted_text(attempt.response_excerpt)
    for name in _learner_names(attempt.event.payload):
        for written in {name, json.dumps(name)[1:-1]}:  # as sent, and as JSON escapes it
            excerpt = excerpt.replace(written, "(hidden)")
    return excerpt


# Fields of an event about a learner that name them: `signedName` is the name typed at a sign-off.
_NAMING_A_LEARNER = frozenset({"signedName", "name"})


def _learner_names(value) -> set[str]:
    """The names of the learner an event's body is about (_NAMING_A_LEARNER), wherever they are."""
    if isinstance(value, dict):
        about_a_learner = "learnerId" in value
        named = {item for key, item in value.items() if about_a_learner and key in _NAMING_A_LEARNER}
        return {name for name in named if isinstance(name, str) and name} | {
            name for item in value.values() for name in _learner_names(item)
        }
    if isinstance(value, list):
        return {name for item in value for name in _learner_names(item)}
    return set()


def shown_payload(value):
    """
    An event's body as staff see it: URLs redacted (a download link's id, a web source's or a personal
    link's token), link ids masked (`exportId`), and the names of the learner an event is about hidden.
    """
    if isinstance(value, dict):
        about_a_learner = "learnerId" in value
        return {
            key: "(hidden)" if about_a_learner and key in _NAMING_A_LEARNER and item else shown_payload(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [shown_payload(item) for item in value]
    if isinstance(value, str):
        return redaction.redacted_text(value)
    return value
