from django.contrib import admin

from core import redaction
from core.admin import DatesInRange, NoLookupsBySecrets, redacted_url_of
from sources.models import Passage, Source


class PassageInline(admin.TabularInline):
    """Where each passage is and how long, never its text: the client's document, in pieces."""

    model = Passage
    fields = ["public_id", "ordinal", "heading_path", "page", "page_end", "words"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False
    max_num = 0

    @admin.display(description="file")
    def stored_file(self, source):
        return source.file.name or "-"

    def get_queryset(self, request):
        return super().get_queryset(request).defer("text", "search_vector", "embedding")


@admin.register(Source)
class SourceAdmin(NoLookupsBySecrets, DatesInRange, admin.ModelAdmin):
    """
    Read-only: sources are the clients' documents; they delete them through the API. Their text is
    never shown, and their URLs only redacted: a web page's may carry a token, and so may the name of
    a web source given none (its URL).
    """

    secret_fields = ("text", "url", "name", "callback_url")
    list_display = [
        "public_id", "shown_name", "status", "media_type", "bytes", "pages", "language", "api_key",
        "created_at",
    ]
    list_filter = ["status", "media_type", "language"]
    search_fields = ["public_id", "api_key__prefix", "api_key__account__email"]  # and names, below
    list_select_related = ["api_key"]
    exclude = ["text", "name", "url", "callback_url", "file"]
    inlines = [PassageInline]
    page_url = redacted_url_of("url", description="URL")
    callback = redacted_url_of("callback_url", description="callback URL")

    @admin.display(description="name")
    def shown_name(self, source):
        return redaction.redacted_text(source.name)

    @admin.display(description="file")
    def stored_file(self, source):
        return source.file.name or "-"

    def get_queryset(self, request):
        return super().get_queryset(request).defer("text")

    def get_readonly_fields(self, request, obj=None):
        # The file by its name only: a link to it would open the client's document.
        shown_as = {"name": "shown_name", "url": "page_url", "callback_url": "callback", "file": "stored_file"}
        return [shown_as.get(field.name, field.name) for field in Source._meta.fields if field.name != "text"]

    def get_search_results(self, request, queryset, search_term):
        # Names are searched too, but not one holding a URL: the count of what a search matched
        # would tell its token.
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        if search_term.strip():
            found |= queryset.exclude(name__contains="://").filter(name__icontains=search_term.strip())
        return found, may_have_duplicates

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # deleting goes through the service, which removes the file too
