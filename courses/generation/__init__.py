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
    "PARTS",
    "CourseRequest",
    "GenerationError",
    "GenerationFailed",
    "GenerationTimeout",
    "ProviderUnavailable",
    "generate_course",
    "regenerate_part",
]

# The parts of a course that can be generated again on their own.
PARTS = pipeline.REGENERABLE_PARTS


@dataclass(frozen=True)
class CourseRequest:
    subject: str
    format: str
    language_id: str
    outline: list[str] = field(default_factory=list)
    add_ons: list[str] = field(default_factory=list)
    # When one part is generated again: the author's wishes for it, and which variant this is (the
    # offline generator writes a different one each time).
    instructions: str = ""
    variant: int = 0
    # The client's sources the course is built from (Source primary keys, in the order given); the
    # pipeline loads them as `grounding`.
    source_ids: tuple[int, ...] = ()
    grounding: object = None  # courses.generation.grounding.Grounding


def generate_course(
    *, request: CourseRequest, on_progress: Callable[[int], None], deadline: float, checkpoints=None
) -> CourseContent:
    """
    Build the whole course document with the generator chosen by settings.COURSE_GENERATOR.

    Calls on_progress(percent) with rising values in 1..99 as steps finish. `deadline` is a
    time.monotonic() value; past it, generation stops. `checkpoints` (courses.checkpoints) keeps
    each finished step, and steps an earlier attempt kept are not generated again.
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
        checkpoints=checkpoints,
    )


def regenerate_part(
    *,
    request: CourseRequest,
    document: CourseContent,
    part: str,
    chapter: int | None,
    on_progress: Callable[[int], None],
    deadline: float,
    checkpoints=None,
) -> CourseContent:
    """
    The course document with one part written again (`part` one of PARTS; `chapter` 1-based for a
    chapter), fitting the rest of the course, which stays as it is. Progress and failures as for
    generate_course; a part the generator cannot write fails (nothing falls back).
    """
    return pipeline.regenerate(
        request=request,
        document=document,
        part=part,
        chapter=chapter,
        generator_name=settings.COURSE_GENERATOR,
        on_progress=on_progress,
        deadline=deadline,
        checkpoints=checkpoints,
    )
