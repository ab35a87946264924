from django.apps import AppConfig


class LearnersConfig(AppConfig):
    name = "learners"
    verbose_name = "Learner results"

    def ready(self):
        # What a course's deletion and a change of its learnerCallbackUrl do to its learners.
        from learners import events, services  # noqa: F401
