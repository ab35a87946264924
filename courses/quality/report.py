"""The quality report of one course document: a pure function of the document, in one pass."""

import collections
import dataclasses
import hashlib
import json
import threading
from dataclasses import dataclass

from courses import content
from courses.quality import bloom, coverage, readability, rules
from courses.quality.rules import Finding, finding
from sources.extraction import matter
from sources.extraction.document import SECTION_NUMBER

# What each finding takes off the score of 100 (never below 0).
PENALTY = {"high": 15, "medium": 5, "low": 1}
# A question's stem names it in a finding up to this many characters.
STEM_AS_TITLE_MAX = 80


@dataclass(frozen=True)
class ObjectiveReport:
    id: str
    where: str
    chapter: int  # 0-based, like the pointers
    verb: str
    object: str
    statement: str
    bloom_level: str
    questions: tuple[int, ...]  # 0-based positions of the questions that test it


@dataclass(frozen=True)
class LessonReadability:
    where: str
    chapter: int
    lesson: int
    title: str
    readability: readability.Readability | None  # None for a lesson without words to read


@dataclass(frozen=True)
class Summary:
    score: int
    findings: int
    high: int
    medium: int
    low: int
    questions: int
    questions_with_findings: int
    objectives: int
    objectives_tested: int
    lessons: int
    lessons_with_findings: int


@dataclass(frozen=True)
class QualityReport:
    language_id: str
    rules_version: int
    summary: Summary
    findings: tuple[Finding, ...]
    objectives: tuple[ObjectiveReport, ...]
    untested_objectives: tuple[str, ...]
    readability: tuple[LessonReadability, ...]


def report_for(
    course: content.CourseContent, *, sections: tuple[coverage.Section, ...] = ()
) -> QualityReport:
    """
    Check a course document against every rule and measure its lessons: findings (questions and
    the quiz first, then objectives, chapters, lessons and sources, each in document order), the
    objectives with the questions that test them, and the readability of every lesson. `sections`:
    the body's sections of the course's sources (courses.queries.source_sections), for THIN_COVERAGE.
    """
    language = course.language_id
    questions = course.assessment.questions if course.assessment else []
    has_objectives = any(chapter.objectives for chapter in course.chapters)

    findings = rules.check_quiz(questions, language=language)
    # Matter is what surrounds a document's substance: only a course built from documents has any.
    from_documents = bool(course.sources)
    for number, question in enumerate(questions):
        where = f"/assessment/questions/{number}"
        if has_objectives and question.objective_id is None:
            findings.append(
                finding(
                    "QUESTION_WITHOUT_OBJECTIVE",
                    where,
                    "The question names no learning objective, so nobody can tell what it measures.",
                )
            )
        if from_documents and any(
            matter.has_dot_leaders(text) for text in [question.prompt, *question.options]
        ):
            findings.append(
                finding(
                    "MATTER_IN_QUESTION",
                    where,
                    "The question is made of the document's index or contents (its dot leaders), not of what "
                    "it teaches.",
                )
            )
    if from_documents:
        for option, numbers in rules.recurring_distractors(questions):
            findings.append(
                finding(
                    "DISTRACTOR_RECURS",
                    "/assessment",
                    f"“{option}” is a wrong option in {len(numbers)} questions "
                    f"({', '.join(str(number + 1) for number in numbers)}): draw each question's distractors "
                    "afresh.",
                )
            )
    findings.sort(key=_question_order)

    objectives, untested = _objectives(course, questions, findings)
    titles = collections.Counter(chapter.title.casefold() for chapter in course.chapters)
    for number, chapter in enumerate(course.chapters):
        where = f"/chapters/{number}"
        if not chapter.objectives:
            findings.append(
                finding(
                    "CHAPTER_WITHOUT_OBJECTIVES",
                    where,
                    "The chapter states no learning objective: say what a learner can do after it.",
                )
            )
        if from_documents and (kind := matter.heading_kind(chapter.title)):
            findings.append(
                finding(
                    "MATTER_IN_CHAPTER",
                    where,
                    f"The chapter is the document's {matter.LABELS[kind].lower()}.",
                )
            )
        if from_documents and SECTION_NUMBER.match(chapter.title):
            findings.append(
                finding(
                    "NUMBERED_TITLE",
                    where,
                    f"“{chapter.title}” keeps the section number its document gives it.",
                )
            )
        if titles[chapter.title.casefold()] > 1:
            findings.append(
                finding("DUPLICATE_CHAPTER_TITLE", where, f"Another chapter is titled “{chapter.title}” too.")
            )
        cited = {citation.source_id for lesson in chapter.lessons for citation in lesson.citations}
        if len(cited) > 1:
            findings.append(
                finding(
                    "CHAPTER_SPANS_SOURCES",
                    where,
                    f"The chapter's lessons cite {len(cited)} sources: a chapter follows one document's section.",
                )
            )
    lessons = _lessons(course, findings, from_documents=from_documents, sections=sections)
    findings += _sources(course, sections)
    findings = [dataclasses.replace(item, **_part_named(course, item.where)) for item in findings]

    counts = {
        severity: sum(1 for item in findings if item.severity == severity) for severity in rules.SEVERITIES
    }
    summary = Summary(
        score=max(0, 100 - sum(PENALTY[item.severity] for item in findings)),
        findings=len(findings),
        high=counts["high"],
        medium=counts["medium"],
        low=counts["low"],
        questions=len(questions),
        questions_with_findings=len({item.where for item in findings if item.part == "question"}),
        objectives=len(objectives),
        objectives_tested=sum(1 for objective in objectives if objective.questions),
        lessons=len(lessons),
        lessons_with_findings=len({item.where for item in findings if item.part == "lesson"}),
    )
    return QualityReport(
        language_id=language,
        rules_version=rules.RULES_VERSION,
        summary=summary,
        findings=tuple(findings),
        objectives=tuple(objectives),
        untested_objectives=tuple(untested),
        readability=tuple(lessons),
    )


# Reports of the documents read last, per process, by digest: a report is a pure function of its
# document and the rules, so it never goes stale, and a client asking again costs one digest.
REMEMBERED_REPORTS = 256
_remembered: collections.OrderedDict[str, QualityReport] = collections.OrderedDict()
_remembered_lock = threading.Lock()


def report_for_document(document: dict, *, sections: tuple[coverage.Section, ...] = ()) -> QualityReport:
    """The report of a stored course document (its JSON form), computed once per process."""
    shape = [[section.source_id, section.title, sorted(section.passage_ids)] for section in sections]
    digest = hashlib.sha256(
        json.dumps([rules.RULES_VERSION, document, shape], sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()
    with _remembered_lock:
        if digest in _remembered:
            _remembered.move_to_end(digest)
            return _remembered[digest]
    report = report_for(content.read_stored(document), sections=sections)
    with _remembered_lock:
        _remembered[digest] = report
        while len(_remembered) > REMEMBERED_REPORTS:
            _remembered.popitem(last=False)
    return report


def _part_named(course: content.CourseContent, where: str) -> dict:
    """
    The id and title of the part at `where`, which name it as a reader of the page knows it (a
    pointer counts from 0, the page from 1). Chapters, lessons and questions have no id in the
    document; the quiz as a whole has neither.
    """
    part_id, title = None, None
    match where.split("/")[1:]:
        case ["assessment", "questions", number]:
            title = _shortened(course.assessment.questions[int(number)].prompt)
        case ["chapters", chapter, "objectives", number]:
            objective = course.chapters[int(chapter)].objectives[int(number)]
            part_id = objective.id
            title = bloom.statement(verb=objective.verb, object=objective.object, language=course.language_id)
        case ["chapters", chapter, "lessons", number]:
            title = course.chapters[int(chapter)].lessons[int(number)].title
        case ["chapters", chapter]:
            title = course.chapters[int(chapter)].title
        case ["sources", number]:
            source = course.sources[int(number)]
            part_id, title = source.id, source.title or source.name
    return {"part_id": part_id, "part_title": title}


def _shortened(text: str) -> str:
    if len(text) <= STEM_AS_TITLE_MAX:
        return text
    cut = text[: STEM_AS_TITLE_MAX - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:") + "…"


def _question_order(item: Finding) -> tuple[int, int]:
    """Questions in order (each question's findings in rule order), then the quiz as a whole."""
    if item.where.startswith("/assessment/questions/"):
        return (0, int(item.where.rsplit("/", 1)[1]))
    return (1, 0)


def _objectives(
    course: content.CourseContent, questions: list[content.Question], findings: list[Finding]
) -> tuple[list[ObjectiveReport], list[str]]:
    language = course.language_id
    reports, untested = [], []
    for chapter_number, chapter in enumerate(course.chapters):
        for number, objective in enumerate(chapter.objectives):
            where = f"/chapters/{chapter_number}/objectives/{number}"
            testing = tuple(
                position
                for position, question in enumerate(questions)
                if question.objective_id == objective.id
            )
            reports.append(
                ObjectiveReport(
                    id=objective.id,
                    where=where,
                    chapter=chapter_number,
                    verb=objective.verb,
                    object=objective.object,
                    statement=bloom.statement(
                        verb=objective.verb, object=objective.object, language=language
                    ),
                    bloom_level=objective.bloom_level,
                    questions=testing,
                )
            )
            level = bloom.level_of(objective.verb, language)
            if bloom.is_vague(objective.verb, language):
                findings.append(
                    finding(
                        "OBJECTIVE_VERB_VAGUE",
                        where,
                        f"“{objective.verb}” names no behaviour anyone can observe: use a measurable verb such "
                        "as explain, apply, compare or design.",
                    )
                )
            elif level is None:
                findings.append(
                    finding(
                        "OBJECTIVE_VERB_UNLISTED",
                        where,
                        f"“{objective.verb}” is not in our verb table for {language}: its Bloom level "
                        f"({objective.bloom_level}) could not be checked.",
                    )
                )
            elif level != objective.bloom_level:
                findings.append(
                    finding(
                        "OBJECTIVE_LEVEL_MISMATCH",
                        where,
                        f"“{objective.verb}” is at the level {level} in our verb table, not {objective.bloom_level}.",
                    )
                )
            if not testing:
                untested.append(objective.id)
                # A flaw of the quiz: a course without one has none to mend, though it tests no objective.
                if course.assessment is not None:
                    findings.append(
                        finding("OBJECTIVE_UNTESTED", where, "No question of the assessment tests this objective.")
                    )
    return reports, untested


def _lessons(
    course: content.CourseContent,
    findings: list[Finding],
    *,
    from_documents: bool,
    sections: tuple[coverage.Section, ...],
) -> list[LessonReadability]:
    language = course.language_id
    measured = []
    for chapter_number, chapter in enumerate(course.chapters):
        for number, lesson in enumerate(chapter.lessons):
            where = f"/chapters/{chapter_number}/lessons/{number}"
            ease = readability.readability(lesson.body, language)
            measured.append(
                LessonReadability(
                    where=where, chapter=chapter_number, lesson=number, title=lesson.title, readability=ease
                )
            )
            kind = from_documents and (
                matter.heading_kind(lesson.title) or matter.shape_kind(lesson.body, in_front=False)
            )
            if kind:
                findings.append(
                    finding(
                        "MATTER_IN_LESSON",
                        where,
                        f"The lesson is the document's {matter.LABELS[kind].lower()}.",
                    )
                )
            if from_documents and SECTION_NUMBER.match(lesson.title):
                findings.append(
                    finding(
                        "NUMBERED_TITLE",
                        where,
                        f"“{lesson.title}” keeps the section number its document gives it.",
                    )
                )
            body_words = len(lesson.body.split())
            # A lesson as short as the sections it is drawn from is all there is to say of them.
            drawn_on = coverage.words_drawn_on((citation.passage_id for citation in lesson.citations), sections)
            if lesson.citations and body_words < rules.SCRAP_WORDS and (drawn_on is None or drawn_on > body_words):
                findings.append(
                    finding(
                        "LESSON_SCRAP",
                        where,
                        f"The lesson has {body_words} words: draw it from its whole section, or join it to its "
                        "neighbour.",
                    )
                )
            if ease is not None and ease.score < rules.HARD_TO_READ_BELOW:
                findings.append(
                    finding(
                        "LESSON_HARD_TO_READ",
                        where,
                        f"Reading ease {ease.score} ({ease.formula}) is very difficult for {language} readers: "
                        f"{ease.words_per_sentence} words per sentence, {ease.syllables_per_word} syllables per "
                        "word. Use shorter sentences and plainer words.",
                    )
                )
    return measured


def _sources(course: content.CourseContent, sections: tuple[coverage.Section, ...]) -> list[Finding]:
    found = []
    for number, source in enumerate(course.sources):
        if source.title and SECTION_NUMBER.match(source.title):
            found.append(
                finding(
                    "SOURCE_TITLED_BY_HEADING",
                    f"/sources/{number}",
                    f"The source is titled “{source.title}”, a heading of it: give it the document's own title.",
                )
            )
    numbers = {source.id: number for number, source in enumerate(course.sources)}
    for measured in coverage.coverage(course, sections):
        if measured.share < rules.COVERAGE_MIN:
            missing = ", ".join(f"“{title}”" for title in measured.missing[:5] if title)
            more = len(measured.missing) - min(5, len(measured.missing))
            found.append(
                finding(
                    "THIN_COVERAGE",
                    f"/sources/{numbers[measured.source_id]}",
                    f"The course draws on {measured.covered} of the source's {measured.sections} sections"
                    + (f"; it leaves out {missing}" if missing else "")
                    + (f" and {more} more" if more > 0 else "")
                    + ".",
                )
            )
    return found
