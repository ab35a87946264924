from django.apps import AppConfig


class ExportsConfig(AppConfig):
    name = "exports"

    def ready(self):
        from exports import services  # noqa: F401 (connects what a course's deletion takes of its exports)
