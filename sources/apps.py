from django.apps import AppConfig


class SourcesConfig(AppConfig):
    name = "sources"
    verbose_name = "Sources"

    def ready(self):
        from core import health, metrics
        from sources import queries, services

        health.add_detail("sourceSandbox", services.sandbox_detail)
        metrics.add_counts("cgs_sources", "Sources, by status.", label="status", count=queries.sources_by_status)
