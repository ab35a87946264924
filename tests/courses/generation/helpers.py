"""Calling the generation entry point the way the job pipeline does."""

import time

from courses import generation
from tests.samples import ALL_ADD_ONS


def generate(
    *,
    subject="Intro to SQL",
    format="onepage",
    language_id="en-US",
    outline=(),
    add_ons=ALL_ADD_ONS,
    seconds=30.0,
    progress=None,
):
    """Run the public entry point the job pipeline calls."""
    reported = [] if progress is None else progress
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
