from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html

from core.admin import NoLookupsBySecrets, ReadOnlyAdmin
from courses.admin import CourseAdmin
from courses.models import Course
from learners import queries, results_csv, serializers
from learners.models import Learner, QuizAttempt, Signoff


class QuizAttemptInline(admin.TabularInline):
    model = QuizAttempt
    fields = ["number", "version", "correct", "questions", "score", "passed", "answers", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class SignoffInline(admin.TabularInline):
    model = Signoff
    fields = ["name", "signed_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class CompletedFilter(admin.SimpleListFilter):
    title = parameter_name = "completed"

    def lookups(self, request, model_admin):
        return [("yes", "Completed"), ("no", "Not completed")]

    def queryset(self, request, learners):
        if self.value() in ("yes", "no"):
            return learners.filter(completed_at__isnull=self.value() == "no")
        return learners


@admin.register(Learner)
class LearnerAdmin(ReadOnlyAdmin):
    """Learner results, per course (filter by course, or follow the link on a course's page)."""

    list_display = [
        "public_id", "external_id", "name", "course", "started_at", "progress", "completed_at", "best_score",
        "passed", "signed_at", "signed_name", "version",
    ]
    list_filter = [CompletedFilter, "passed"]
    search_fields = ["public_id", "external_id", "name", "signed_name", "course__public_id", "course__name"]
    list_select_related = ["course"]
    deferred = ("course__content",)
    date_hierarchy = "created_at"
    exclude = ["events_pending", "notified", "attempts_notified", "pages_seen", "time_counted_until"]
    readonly_fields = ["progress", "results_of_the_course"]
    inlines = [QuizAttemptInline, SignoffInline]

    @admin.display(description="progress")
    def progress(self, learner):
        return f"{learner.progress_percent} % ({learner.pages_seen_count} of {learner.pages} pages)"

    @admin.display(description="results of the course")
    def results_of_the_course(self, learner):
        return results_links(learner.course)

    def lookup_allowed(self, lookup, value, request=None):
        # The link from a course's page lists its learners.
        return lookup == "course__id__exact" or super().lookup_allowed(lookup, value, request)

    def get_urls(self):
        csv_view = self.admin_site.admin_view(self.results_csv)
        return [
            path("course/<int:course_id>/results.csv", csv_view, name="learners_course_results_csv"),
            *super().get_urls(),
        ]

    def results_csv(self, request, course_id: int):
        """The course's whole results, as `GET …/results` gives them with `Accept: text/csv`."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        course = get_object_or_404(Course.objects.defer("content"), pk=course_id)
        rows = (serializers.result_output(learner) for learner in queries.every_result_of(course))
        response = StreamingHttpResponse(results_csv.lines(rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{course.public_id}-results.csv"'
        return response


def results_links(course: Course) -> str:
    """What staff see of a course's learner results: the counts, the list, and its CSV."""
    summary = queries.summary_of(course)
    listed = reverse("admin:learners_learner_changelist") + f"?course__id__exact={course.pk}"
    csv_url = reverse("admin:learners_course_results_csv", args=[course.pk])
    return format_html(
        '{} learners, {} completed, {} passed, {} signed — <a href="{}">see them</a> · <a href="{}">download CSV</a>',
        summary["learners"], summary["completed"], summary["passed"], summary["signed"], listed, csv_url,
    )


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


# A course's page shows its learner results: the courses' admin knows nothing of learners, which build
# on courses, so their app gives the page its results (Django's admin is read after INSTALLED_APPS).
class CourseWithResultsAdmin(CourseAdmin):
    readonly_fields = [*CourseAdmin.readonly_fields, "learner_results"]

    @admin.display(description="learner results")
    def learner_results(self, course):
        return results_links(course)


admin.site.unregister(Course)
admin.site.register(Course, CourseWithResultsAdmin)
