from django.apps import AppConfig


class SourcesConfig(AppConfig):
    name = "sources"
    verbose_name = "Sources"

    def ready(self):
        from core import health
        from sources import services

        health.add_detail("sourceSandbox", services.sandbox_detail)
