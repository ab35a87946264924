from django.contrib import admin, messages
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.shortcuts import redirect
from django.utils.html import format_html, format_html_join

from core.admin import DatesInRange, NoLookupsBySecrets, redacted_url_of
from courses import deletion, quality, versions
from courses.models import Course, CourseVersion, Export, GenerationJob, Signoff


class ReadOnlyAdmin(DatesInRange, admin.ModelAdmin):
    """Staff look; the API and the workers write."""

    # Course documents (up to a megabyte each) that no list shows: read only where a page needs them.
    deferred: tuple[str, ...] = ()

    def get_queryset(self, request):
        return super().get_queryset(request).defer(*self.deferred)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(GenerationJob)
class GenerationJobAdmin(NoLookupsBySecrets, ReadOnlyAdmin):
    secret_fields = ("callback_url", "learner_callback_url")
    list_display = ["public_id", "subject", "status", "progress", "error_code", "account", "created_at"]
    list_filter = ["status", "error_code", "format", "language_id"]
    search_fields = ["public_id", "subject", "api_key__account__email"]
    list_select_related = ["api_key__account"]
    exclude = ["callback_url", "learner_callback_url"]
    readonly_fields = ["callback", "learner_callback"]
    callback = redacted_url_of("callback_url", description="callback URL")
    learner_callback = redacted_url_of("learner_callback_url", description="learner callback URL")

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


class DeletesThroughService:
    """
    Staff delete with Django's confirmation page, but the deletion itself is the API's (files,
    links answering 410, events, the audit line in the log): `delete_one`. What goes with the object
    is listed on the page; staff need no permission on those kinds, which they cannot delete alone.
    """

    def has_delete_permission(self, request, obj=None):
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    def get_deleted_objects(self, objs, request):
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected

    def delete_model(self, request, obj):
        self.delete_one(obj, by=f"staff {request.user.get_username()}")

    def log_deletions(self, request, queryset):
        # Django's log of staff's changes keeps each entry for good, and the admin's home page shows
        # it to every staff member: a deleted object is named there by what `deleted_name` says, never
        # by what it held.
        content_type = ContentType.objects.get_for_model(self.model, for_concrete_model=False)
        return LogEntry.objects.bulk_create(
            LogEntry(
                user_id=request.user.pk, content_type_id=content_type.id, object_id=obj.pk,
                object_repr=self.deleted_name(obj), action_flag=DELETION,
            )
            for obj in queryset
        )

    def deleted_name(self, obj) -> str:
        return str(obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            try:
                self.delete_one(obj, by=f"staff {request.user.get_username()}")
            except versions.CourseBusy:
                self.message_user(request, f"{obj} is being generated again; it was left as it is.", messages.WARNING)


@admin.register(Course)
class CourseAdmin(NoLookupsBySecrets, DeletesThroughService, ReadOnlyAdmin):
    secret_fields = ("learner_callback_url",)
    list_display = ["public_id", "name", "format", "language_id", "preview", "created_at"]
    list_filter = ["format", "language_id"]
    search_fields = ["public_id", "name", "api_key__account__email"]
    deferred = ("content",)
    exclude = ["content", "learner_callback_url"]
    readonly_fields = ["preview", "learner_callback", "learner_results", "quality_report"]
    inlines = [CourseVersionInline]
    learner_callback = redacted_url_of("learner_callback_url", description="learner callback URL")

    def delete_one(self, course, *, by: str):
        deletion.delete_course(course=course, by=by)

    def deleted_name(self, course) -> str:
        return course.public_id  # its name is gone with it (courses.deletion)

    def delete_view(self, request, object_id, extra_context=None):
        course = self.get_object(request, object_id)
        if course is not None and versions.is_busy(course=course):
            self.message_user(
                request, "A part of this course is being generated again: delete it once that job has ended.",
                messages.ERROR,
            )
            return redirect("admin:courses_course_change", course.pk)
        return super().delete_view(request, object_id, extra_context)

    @admin.display(description="preview page")
    def preview(self, course):
        return format_html('<a href="{}" target="_blank" rel="noopener">{}</a>', course.share_url, course.share_url)

    @admin.display(description="learner results")
    def learner_results(self, course):
        from learners.admin import results_links  # learners' admin builds on this module

        return results_links(course)

    @admin.display(description="quality")
    def quality_report(self, course):
        """The report clients get from GET /api/v1/courses/<id>/quality, for staff (learners never see it)."""
        report = quality.report_for_document(course.content)
        summary = report.summary
        findings = format_html_join(
            "",
            "<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
            ((item.code, item.severity, item.where, item.message) for item in report.findings),
        )
        objectives = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (objective.id, objective.statement, objective.bloom_level,
                 ", ".join(str(number + 1) for number in objective.questions) or "none")
                for objective in report.objectives
            ),
        )
        lessons = format_html_join(
            "",
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            (
                (lesson.where, lesson.title,
                 f"{lesson.readability.score} ({lesson.readability.band}, {lesson.readability.formula})"
                 if lesson.readability else "no text")
                for lesson in report.readability
            ),
        )
        return format_html(
            "<p><strong>Score {}</strong> of 100 (rules version {}): {} high, {} medium, {} low findings; "
            "{} of {} objectives tested.</p>"
            "<table><thead><tr><th>rule</th><th>severity</th><th>where</th><th>message</th></tr></thead>"
            "<tbody>{}</tbody></table>"
            "<table><thead><tr><th>objective</th><th>statement</th><th>Bloom level</th><th>questions</th></tr>"
            "</thead><tbody>{}</tbody></table>"
            "<table><thead><tr><th>lesson</th><th>title</th><th>reading ease</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            summary.score, report.rules_version, summary.high, summary.medium, summary.low,
            summary.objectives_tested, summary.objectives, findings, objectives, lessons,
        )


@admin.register(CourseVersion)
class CourseVersionAdmin(ReadOnlyAdmin):
    """A version of a course's document, with the text that changed from the version before."""

    list_display = ["course", "number", "source", "changed", "created_at"]
    list_filter = ["source"]
    search_fields = ["course__public_id", "course__name"]
    list_select_related = ["course"]
    deferred = ("content", "course__content")
    exclude = ["content"]
    readonly_fields = ["course", "number", "source", "changed", "created_at", "text_changes"]

    @admin.display(description="changes from the version before")
    def text_changes(self, version):
        before = version.course.versions.filter(number=version.number - 1).first()
        if before is None:
            return "(the first version)"
        return format_html("<pre>{}</pre>", versions.text_diff(before.content, version.content))


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
        deletion.revoke(export=export, by=by)


@admin.register(Signoff)
class SignoffAdmin(NoLookupsBySecrets, ReadOnlyAdmin):
    """Learners' confirmations of a course's agreement, from its preview page."""

    # The id is the confirmation page's address, which shows the signer's name: never shown, nor filtered by.
    secret_fields = ("public_id",)
    list_display = ["name", "course", "signed_at"]
    search_fields = ["name", "course__public_id", "course__name"]
    list_select_related = ["course"]
    deferred = ("course__content",)
    date_hierarchy = "signed_at"
    readonly_fields = ["course", "name", "ip_hash", "signed_at"]
