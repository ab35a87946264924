from django.contrib import admin, messages
from django.shortcuts import redirect
from django.utils.html import format_html, format_html_join

from core.admin import DeletesThroughService, NoLookupsBySecrets, ReadOnlyAdmin, redacted_url_of
from courses import deletion, quality, queries, versions
from courses.models import Course, CourseVersion, GenerationJob


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


@admin.register(Course)
class CourseAdmin(NoLookupsBySecrets, DeletesThroughService, ReadOnlyAdmin):
    secret_fields = ("learner_callback_url",)
    list_display = ["public_id", "name", "format", "language_id", "preview", "created_at"]
    list_filter = ["format", "language_id"]
    search_fields = ["public_id", "name", "api_key__account__email"]
    deferred = ("content",)
    exclude = ["content", "learner_callback_url"]
    readonly_fields = ["preview", "learner_callback", "quality_report"]
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

    @admin.display(description="quality")
    def quality_report(self, course):
        """The report clients get from GET /api/v1/courses/<id>/quality, for staff (learners never see it)."""
        report = quality.report_for_document(course.content, sections=queries.source_sections(course.content))
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
