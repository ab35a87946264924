"""The service's settings, plus the bare view the benchmark measures everything against."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
