from django.contrib import admin
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import Account, ApiKey, Plan
from core.admin import DatesInRange, NoLookupsBySecrets


@admin.register(Plan)
class PlanAdmin(DatesInRange, admin.ModelAdmin):
    list_display = ["name", "slug", "is_paid", "monthly_course_credits", "source_storage_mb"]
    prepopulated_fields = {"slug": ["name"]}
    fieldsets = [
        (None, {"fields": ["name", "slug", "is_paid", "monthly_course_credits", "source_storage_mb"]}),
        (
            "Rate limits per key (requests in any 60 seconds; empty: the service-wide setting)",
            {
                "fields": [
                    "rate_limit_create", "rate_limit_export", "rate_limit_poll", "rate_limit_read",
                    "rate_limit_edit", "rate_limit_sources", "rate_limit_learners", "rate_limit_results",
                ]
            },
        ),
    ]


class ApiKeyInline(admin.TabularInline):
    """Keys of the account. Adding a row issues a new key, shown once in the page answering the save."""

    model = ApiKey
    extra = 0
    fields = ["name", "prefix", "created_at", "last_used_at", "revoked_at"]
    readonly_fields = ["prefix", "created_at", "last_used_at", "revoked_at"]
    can_delete = False


@admin.register(Account)
class AccountAdmin(NoLookupsBySecrets, DatesInRange, admin.ModelAdmin):
    secret_fields = ("webhook_secret",)
    list_display = ["email", "name", "plan", "credits_used", "credits_left", "created_at"]
    list_filter = ["plan"]
    search_fields = ["email", "name"]
    list_select_related = ["plan"]
    readonly_fields = ["credits_used", "credits_left", "webhook_signing_secret", "created_at"]
    exclude = ["webhook_secret"]
    inlines = [ApiKeyInline]
    actions = ["rotate_webhook_secret"]

    @admin.display(description="webhook signing secret")
    def webhook_signing_secret(self, account):
        # Never shown: it signs every webhook of the account. Staff rotate it (the action on the
        # list of accounts, or `manage.py webhook_secret EMAIL --rotate`) and see the new one once.
        return "set (hidden); rotate it to issue a new one" if account.webhook_secret else "not set"

    @admin.action(description="Rotate the webhook signing secret", permissions=["change"])
    def rotate_webhook_secret(self, request, queryset):
        secrets = [
            (f"New webhook signing secret for {account.email}", services.rotate_webhook_secret(account=account))
            for account in queryset
        ]
        return self._show_secrets(
            request,
            title="Webhook signing secrets rotated",
            secrets=secrets,
            note="The old secrets no longer verify.",
            next_url=reverse("admin:accounts_account_changelist"),
        )

    def _show_secrets(self, request, *, title: str, secrets: list[tuple[str, str]], next_url: str, note: str = ""):
        # In the answer to the POST that issued them, never in a message: Django keeps messages in a
        # signed but readable cookie (docs/run/security.md).
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "secrets": secrets,
            "note": note,
            "next_url": next_url,
        }
        return TemplateResponse(request, "admin/accounts/secrets_issued.html", context)

    def get_queryset(self, request):
        return services.with_credits_used(super().get_queryset(request))  # one query for the whole list

    @admin.display(description="credits used this month")
    def credits_used(self, account):
        return services.usage_for(account=account).used if account.pk else "—"

    @admin.display(description="credits left this month")
    def credits_left(self, account):
        return services.usage_for(account=account).left if account.pk else "—"

    def save_formset(self, request, form, formset, change):
        if formset.model is not ApiKey:
            return super().save_formset(request, form, formset, change)
        # The new keys wait on the request for the answer to it (response_add, response_change).
        request.issued_api_keys = []
        for key in formset.save(commit=False):
            if key.pk:
                key.save(update_fields=["name"])
                continue
            # A new row: issue a real key through the service, which stores only its hash.
            plain_key = services.issue_key(account=form.instance, name=key.name)
            request.issued_api_keys.append((f"New API key for {form.instance.email}", plain_key))

    def response_add(self, request, obj, post_url_continue=None):
        if getattr(request, "issued_api_keys", None):
            return self._show_issued_keys(request, obj)
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request, obj):
        if getattr(request, "issued_api_keys", None):
            return self._show_issued_keys(request, obj)
        return super().response_change(request, obj)

    def _show_issued_keys(self, request, account):
        return self._show_secrets(
            request,
            title=f"Account {account.email} saved",
            secrets=request.issued_api_keys,
            next_url=reverse("admin:accounts_account_change", args=[account.pk]),
        )


@admin.register(ApiKey)
class ApiKeyAdmin(NoLookupsBySecrets, DatesInRange, admin.ModelAdmin):
    secret_fields = ("key_hash",)
    list_display = ["prefix", "name", "account", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["prefix", "name", "account__email"]
    list_select_related = ["account"]
    fields = ["account", "name", "prefix", "created_at", "last_used_at", "revoked_at"]
    readonly_fields = ["account", "prefix", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False  # keys are issued from their account's page, which shows the raw key once

    @admin.action(description="Revoke selected keys", permissions=["change"])
    def revoke(self, request, queryset):
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        self.message_user(request, f"Revoked {count} key(s).")
