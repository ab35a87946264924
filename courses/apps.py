from django.apps import AppConfig


class CoursesConfig(AppConfig):
    name = "courses"

    def ready(self):
        from courses import jobs  # noqa: F401 (connects what a source's deletion marks on courses)
