from django.apps import AppConfig


class CoursesConfig(AppConfig):
    name = "courses"

    def ready(self):
        from core import metrics
        from courses import jobs, queries  # noqa: F401 (jobs connects what a source's deletion marks on courses)

        metrics.add_counts("cgs_jobs", "Generation jobs, by status.", label="status", count=queries.jobs_by_status)
