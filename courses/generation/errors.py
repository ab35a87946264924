"""
The ways generating a course can fail. Each carries a stable `code` (the job's error code) and a
`message` that is safe to show to an end user: it never contains provider output, URLs or keys.
"""


class GenerationError(Exception):
    code = "GENERATION_FAILED"
    message = "The course could not be generated."

    def __init__(self, message: str | None = None):
        self.message = message or self.message
        super().__init__(self.message)


class GenerationFailed(GenerationError):
    """The generator produced nothing usable (invalid or truncated output, impossible subject)."""

    code = "GENERATION_FAILED"
    message = "The course could not be generated from this subject. Please try again or rephrase it."


class GenerationTimeout(GenerationError):
    """Generation ran past its deadline."""

    code = "GENERATION_TIMEOUT"
    message = "Generating the course took too long and was stopped. Please try again."


class ProviderUnavailable(GenerationError):
    """The model server could not be reached, or kept answering errors after retries."""

    code = "PROVIDER_UNAVAILABLE"
    message = "The content provider is unavailable right now. Please try again later."


# Every code a failed job can carry (the poll answer's `error.code`, the course.failed event's), with
# when it happens: the `JobErrorCodeEnum` of the API document. A test holds it to the classes above.
FAILURE_CODES = [
    (
        GenerationFailed.code,
        "The course could not be generated: the generator's output stayed unusable after retries, or the "
        "job's workers died on every one of its attempts. Try again, or rephrase the subject.",
    ),
    (
        GenerationTimeout.code,
        "Generation ran past its time limit, or no worker started the job in time. Try again later.",
    ),
    (
        ProviderUnavailable.code,
        "The content provider could not be reached, or kept answering errors after retries. Try again later.",
    ),
]
