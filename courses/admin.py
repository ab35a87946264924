from django.contrib import admin
from django.utils.html import format_html, format_html_join

from courses import quality, versions
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
    readonly_fields = ["preview", "learner_callback_url", "learner_results", "quality_report"]
    inlines = [CourseVersionInline]

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
