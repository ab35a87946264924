from django.contrib import admin

from config.admin import DatesInRange, NoLookupsBySecrets, redacted_url_of
from sources.models import Passage, Source


class PassageInline(admin.TabularInline):
    model = Passage
    fields = ["public_id", "ordinal", "heading_path", "page", "page_end", "words", "text"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False
    max_num = 0

    def get_queryset(self, request):
        return super().get_queryset(request).defer("search_vector", "embedding")


@admin.register(Source)
class SourceAdmin(NoLookupsBySecrets, DatesInRange, admin.ModelAdmin):
    """Read-only: sources are the clients' documents; they delete them through the API."""

    secret_fields = ("callback_url",)
    list_display = ["public_id", "name", "status", "media_type", "bytes", "pages", "language", "api_key", "created_at"]
    list_filter = ["status", "media_type", "language"]
    search_fields = ["public_id", "name", "url", "api_key__prefix", "api_key__account__email"]
    list_select_related = ["api_key"]
    exclude = ["text", "callback_url"]
    inlines = [PassageInline]
    callback = redacted_url_of("callback_url", description="callback URL")

    def get_queryset(self, request):
        return super().get_queryset(request).defer("text")

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Source._meta.fields if field.name not in self.exclude] + ["callback"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # deleting goes through the service, which removes the file too
