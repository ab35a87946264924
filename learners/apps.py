from django.apps import AppConfig


class LearnersConfig(AppConfig):
    name = "learners"
    verbose_name = "Learner results"
