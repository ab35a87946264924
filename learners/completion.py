"""
When a learner has completed a course, the one rule everything follows: every chapter seen, the
assessment passed (when the course has one) and the agreement signed (when it has one). The
agreement is open to sign only once the rest is done (docs/api/learners.md).

The rule is here twice, side by side: in Python, to say what remains (the sign-off form, the page's
first batch, a sign-off that comes too early), and in SQL, for the statements of learners.progress
that record progress and sign-offs, which decide completion in the same write as the change that
completes. The packages' player applies the same rule to what it tells the LMS
(exports/player/assets/sco.js).

Pages are numbered as learners.progress numbers them: 0 the introduction, 1 to n the chapters.
"""

import dataclasses


@dataclasses.dataclass(frozen=True)
class Requirements:
    """What a course asks of a learner who completes it."""

    chapters: int
    assessment: bool
    agreement: bool

    @property
    def chapter_bits(self) -> int:
        """The bits of `pages_seen` that are chapters (pages 1 to n)."""
        return ((1 << self.chapters) - 1) << 1


def requirements_of(document: dict) -> Requirements:
    """The requirements of a course document as stored (JSON)."""
    chapters = document.get("chapters")
    return Requirements(
        chapters=len(chapters) if isinstance(chapters, list) else 0,
        assessment=isinstance(document.get("assessment"), dict),
        agreement=isinstance(document.get("agreement"), dict),
    )


@dataclasses.dataclass(frozen=True)
class Remaining:
    """What a learner still has to do to complete a course."""

    chapters: tuple[int, ...] = ()  # the numbers of the chapters not seen yet
    assessment: bool = False  # the assessment is still to pass
    agreement: bool = False  # the agreement is still to sign

    @property
    def may_sign(self) -> bool:
        """Whether everything but the agreement is done, so it may be signed."""
        return not self.chapters and not self.assessment

    @property
    def complete(self) -> bool:
        return self.may_sign and not self.agreement

    def as_json(self) -> dict:
        return {"chapters": list(self.chapters), "assessment": self.assessment, "agreement": self.agreement}


class SignoffTooEarly(Exception):
    """
    A sign-off by a learner who has not done everything else the course asks: the page's form (not
    the API) says what remains.
    """

    def __init__(self, remaining: Remaining):
        super().__init__("Finish the course before you sign its agreement.")
        self.remaining = remaining


def remaining(requirements: Requirements, *, pages_seen: int, passed: bool | None, signed: bool) -> Remaining:
    """What remains of the course for a learner who saw `pages_seen` (bits), passed or not, signed or not."""
    return Remaining(
        chapters=tuple(n for n in range(1, requirements.chapters + 1) if not pages_seen & (1 << n)),
        assessment=requirements.assessment and not passed,
        agreement=requirements.agreement and not signed,
    )


def sql_values(requirements: Requirements) -> dict:
    """The values the SQL of the rule reads."""
    return {
        "chapter_bits": requirements.chapter_bits,
        "assessment": requirements.assessment,
        "agreement": requirements.agreement,
    }


# The rule in SQL, over `l`, the learner's row before the write (see learners.progress).

# Everything but the agreement is done: the agreement may be signed.
MAY_SIGN = (
    '(l."pages_seen" & %(chapter_bits)s) = %(chapter_bits)s'
    ' AND (NOT %(assessment)s OR COALESCE(l."passed", false))'
)

# A batch of progress completes the course: with the pages it saw (%(seen)s) and, with a quiz
# attempt, that attempt's verdict (%(passed)s, null without one).
BATCH_COMPLETES = (
    '((l."pages_seen" | %(seen)s) & %(chapter_bits)s) = %(chapter_bits)s'
    ' AND (NOT %(assessment)s OR COALESCE(l."passed", false) OR COALESCE(%(passed)s, false))'
    ' AND (NOT %(agreement)s OR l."signed_at" IS NOT NULL)'
)
