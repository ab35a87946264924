"""
Course generation: turn a subject (and optional outline and add-ons) into a complete, validated
course document.

The one entry point is `generate_course`; the generator is chosen by `settings.COURSE_GENERATOR`:
`offline` (templates, no network) or `openai` (any OpenAI-compatible server).
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings

from courses.content import CourseContent
from courses.generation import pipeline
from courses.generation.errors import (
    GenerationError,
    GenerationFailed,
    GenerationTimeout,
    ProviderUnavailable,
)

__all__ = [
    "CourseRequest",
    "GenerationError",
    "GenerationFailed",
    "GenerationTimeout",
    "ProviderUnavailable",
    "generate_course",
]


@dataclass(frozen=True)
class CourseRequest:
    subject: str
    format: str
    language_id: str
    outline: list[str] = field(default_factory=list)
    add_ons: list[str] = field(default_factory=list)


def generate_course(
    *, request: CourseRequest, on_progress: Callable[[int], None], deadline: float
) -> CourseContent:
    """
    Build the whole course document with the generator chosen by settings.COURSE_GENERATOR.

    Calls on_progress(percent) with rising values in 1..99 as steps finish. `deadline` is a
    time.monotonic() value; past it, generation stops.
    :raises GenerationFailed: the generator produced nothing usable (code GENERATION_FAILED)
    :raises GenerationTimeout: the deadline passed (code GENERATION_TIMEOUT)
    :raises ProviderUnavailable: the model server is unreachable or keeps failing (code PROVIDER_UNAVAILABLE)
    :raises ImproperlyConfigured: COURSE_GENERATOR names no generator
    """
    return pipeline.run(
        request=request,
        generator_name=settings.COURSE_GENERATOR,
        on_progress=on_progress,
        deadline=deadline,
    )
