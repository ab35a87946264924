from django.contrib import admin
from django.utils.html import format_html

from courses.models import Course, Export, GenerationJob, Signoff


class ReadOnlyAdmin(admin.ModelAdmin):
    """Staff look; the API and the workers write."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(GenerationJob)
class GenerationJobAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "subject", "status", "progress", "error_code", "account", "created_at"]
    list_filter = ["status", "error_code", "format", "language_id"]
    search_fields = ["public_id", "subject", "api_key__account__email"]
    list_select_related = ["api_key__account"]

    @admin.display(description="account")
    def account(self, job):
        return job.api_key.account


@admin.register(Course)
class CourseAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "name", "format", "language_id", "preview", "created_at"]
    list_filter = ["format", "language_id"]
    search_fields = ["public_id", "name", "api_key__account__email"]
    exclude = ["content"]
    readonly_fields = ["preview"]

    @admin.display(description="preview page")
    def preview(self, course):
        return format_html('<a href="{}" target="_blank" rel="noopener">{}</a>', course.share_url, course.share_url)


@admin.register(Export)
class ExportAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "course", "format", "exported_at"]
    list_filter = ["format"]
    search_fields = ["public_id", "course__public_id", "course__name"]


@admin.register(Signoff)
class SignoffAdmin(ReadOnlyAdmin):
    """Learners' confirmations of a course's agreement, from its preview page."""

    list_display = ["name", "course", "signed_at"]
    search_fields = ["name", "course__public_id", "course__name"]
    list_select_related = ["course"]
    date_hierarchy = "signed_at"
    readonly_fields = ["course", "name", "ip_hash", "signed_at"]
