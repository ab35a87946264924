"""Calling the generation entry point the way the job pipeline does."""

import time

from django.test import override_settings

from courses import generation
from tests.support.samples import ALL_ADD_ONS


def generate(
    *,
    subject="Intro to SQL",
    format="onepage",
    language_id="en-US",
    outline=(),
    add_ons=ALL_ADD_ONS,
    seconds=30.0,
    progress=None,
    generator=None,
):
    """Run the public entry point the job pipeline calls (with another generator than the settings' if given)."""
    reported = [] if progress is None else progress
    if generator is not None:
        with override_settings(COURSE_GENERATOR=generator):
            return generate(
                subject=subject, format=format, language_id=language_id, outline=outline, add_ons=add_ons,
                seconds=seconds, progress=reported,
            )
    return generation.generate_course(
        request=generation.CourseRequest(
            subject=subject,
            format=format,
            language_id=language_id,
            outline=list(outline),
            add_ons=list(add_ons),
        ),
        on_progress=reported.append,
        deadline=time.monotonic() + seconds,
    )
