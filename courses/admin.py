from django.contrib import admin
from django.utils.html import format_html

from courses import versions
from courses.models import Course, CourseVersion, Export, GenerationJob, Signoff


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


class CourseVersionInline(admin.TabularInline):
    model = CourseVersion
    fields = ["number", "source", "changed", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Course)
class CourseAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "name", "format", "language_id", "preview", "created_at"]
    list_filter = ["format", "language_id"]
    search_fields = ["public_id", "name", "api_key__account__email"]
    exclude = ["content"]
    readonly_fields = ["preview"]
    inlines = [CourseVersionInline]

    @admin.display(description="preview page")
    def preview(self, course):
        return format_html('<a href="{}" target="_blank" rel="noopener">{}</a>', course.share_url, course.share_url)


@admin.register(CourseVersion)
class CourseVersionAdmin(ReadOnlyAdmin):
    """A version of a course's document, with the text that changed from the version before."""

    list_display = ["course", "number", "source", "changed", "created_at"]
    list_filter = ["source"]
    search_fields = ["course__public_id", "course__name"]
    list_select_related = ["course"]
    exclude = ["content"]
    readonly_fields = ["course", "number", "source", "changed", "created_at", "text_changes"]

    @admin.display(description="changes from the version before")
    def text_changes(self, version):
        before = version.course.versions.filter(number=version.number - 1).first()
        if before is None:
            return "(the first version)"
        return format_html("<pre>{}</pre>", versions.text_diff(before.content, version.content))


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
