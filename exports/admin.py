from django.contrib import admin

from core.admin import DeletesThroughService, NoLookupsBySecrets, ReadOnlyAdmin, redacted_url_of
from exports import services
from exports.models import Export


@admin.register(Export)
class ExportAdmin(NoLookupsBySecrets, DeletesThroughService, ReadOnlyAdmin):
    """
    Deleting an export revokes its download link (410 from then on). The link's id is its secret:
    staff see it masked (str(export)), find an export by its whole id or by its course, and the list
    is never filtered by the id or the file's name, which holds it.
    """

    secret_fields = ("public_id", "file", "callback_url")
    list_display = ["masked_id", "course", "format", "exported_at"]
    list_select_related = ["course"]
    deferred = ("course__content",)
    list_filter = ["format"]
    search_fields = ["public_id__exact", "course__public_id", "course__name"]
    fields = ["masked_id", "course", "api_key", "format", "version", "callback", "exported_at"]
    readonly_fields = fields
    callback = redacted_url_of("callback_url", description="callback URL")

    @admin.display(description="export")
    def masked_id(self, export):
        return str(export)

    def delete_one(self, export, *, by: str):
        services.revoke(export=export, by=by)
