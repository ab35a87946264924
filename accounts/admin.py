from django.contrib import admin, messages
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
    """Keys of the account. Adding a row issues a new key, shown once in a message."""

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
        for account in queryset:
            secret = services.rotate_webhook_secret(account=account)
            messages.warning(
                request,
                f"New webhook signing secret for {account.email}: {secret} — copy it now; it is not shown "
                "again. The old one no longer verifies.",
            )

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
        for key in formset.save(commit=False):
            if key.pk:
                key.save(update_fields=["name"])
                continue
            # A new row: issue a real key through the service, which stores only its hash.
            plain_key = services.issue_key(account=form.instance, name=key.name)
            messages.warning(
                request,
                f"New API key for {form.instance.email}: {plain_key} — copy it now; it is not shown again.",
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
