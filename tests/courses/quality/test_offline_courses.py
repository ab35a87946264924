"""The offline generator writes courses that no rule finds fault with, in every language and add-on mix."""

import random

from courses import quality
from tests.support.generation import generate
from tests.support.samples import ALL_ADD_ONS

LANGUAGES = ["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"]
SUBJECTS = [
    "Intro to SQL",
    "Food safety for kitchen staff",
    "Why not learn Rust?",
    "All of the above: a guide to test writing",
    "Never split the difference",
    "Gestão de projetos ágeis",
    "Primeros auxilios en la oficina",
    "La négociation commerciale",
    "Datenschutz im Büro",
    "An hour a day of Spanish",
]
TOPICS = [
    "Basics",
    "Tables",
    "Filtering rows",
    "An overview",
    "Joins",
    "Indexes",
    "Every day practice",
    "Safety",
    "Review",
]


def courses(count: int):
    choices = random.Random(21)
    for number in range(count):
        language_id = LANGUAGES[number % len(LANGUAGES)]
        outline = choices.sample(TOPICS, choices.randint(1, 9)) if number % 2 else []
        add_ons = choices.sample(ALL_ADD_ONS, choices.randint(0, len(ALL_ADD_ONS)))
        if number % 4 == 0 and "assessment" not in add_ons:
            add_ons.append("assessment")
        yield generate(
            subject=SUBJECTS[number % len(SUBJECTS)],
            language_id=language_id,
            format=choices.choice(["onepage", "classic"]),
            outline=outline,
            add_ons=add_ons,
        )


def test_a_hundred_offline_courses_across_languages_and_add_ons_have_no_finding():
    reports = [(course, quality.report_for(course)) for course in courses(100)]

    findings = [
        (course.language_id, item.code, item.where) for course, report in reports for item in report.findings
    ]
    assert findings == []
    assert {report.summary.score for _, report in reports} == {100}
    with_quiz = [report for course, report in reports if course.assessment]
    assert len(with_quiz) >= 50 and {course.language_id for course, _ in reports if course.assessment} == set(
        LANGUAGES
    )
    # Every objective is tested, and every lesson was measured.
    assert all(report.untested_objectives == () for report in with_quiz)
    assert all(lesson.readability is not None for _, report in reports for lesson in report.readability)


def test_no_length_strategy_beats_guessing_on_the_offline_quizzes():
    questions = [
        question for course in courses(100) if course.assessment for question in course.assessment.questions
    ]

    def score(pick) -> float:
        """The expected share of right answers when always picking the options `pick` chooses (ties at random)."""
        total = 0.0
        for question in questions:
            lengths = [len(option) for option in question.options]
            chosen = [number for number, length in enumerate(lengths) if length == pick(lengths)]
            total += (question.correct_index in chosen) / len(chosen)
        return total / len(questions)

    chance = sum(1 / len(question.options) for question in questions) / len(questions)
    assert len(questions) >= 500
    assert score(max) < chance
    assert score(min) < chance
    # Nor does a letter: every position holds about a quarter of the answers.
    positions = [
        sum(1 for question in questions if question.correct_index == position) for position in range(4)
    ]
    assert max(positions) - min(positions) <= len(questions) * 0.05
