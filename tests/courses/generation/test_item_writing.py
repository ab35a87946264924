"""
The openai generator holds model-written quizzes to the item-writing rules: what changes no meaning
is mended, other flaws are asked for again by name, and a flaw never fails a course.
"""

import json
import math

import pytest

from courses import quality
from tests.support.generation import generate
from tests.support.sloppy_model import CarelessQuizWriter

COURSES = 25  # of 8 questions each: 200 questions


@pytest.fixture
def careless_model(settings):
    server = CarelessQuizWriter(flaw_probability=0.4).start()
    settings.COURSE_GENERATOR = "openai"
    settings.OPENAI_BASE_URL = server.base_url
    settings.OPENAI_API_KEY = "sk-test"
    settings.OPENAI_MAX_RETRIES = 0
    yield server
    server.stop()


def quiz_findings(course) -> list[tuple[str, str]]:
    """(code, where) of the findings on the questions and the quiz (the fake tests few of its objectives)."""
    return [
        (item.code, item.where)
        for item in quality.report_for(course).findings
        if item.part in ("question", "quiz")
    ]


def chi_square_p_value_3_degrees(statistic: float) -> float:
    """P(X >= statistic) for a chi-square variable with 3 degrees of freedom (closed form)."""
    half = statistic / 2
    return math.erfc(math.sqrt(half)) + math.sqrt(2 * statistic / math.pi) * math.exp(-half)


def test_final_quizzes_balance_answer_positions_and_do_not_reward_picking_the_longest_option(careless_model):
    courses = [
        generate(subject=f"Operations runbook {number}", add_ons=["assessment"]) for number in range(COURSES)
    ]

    questions = [question for course in courses for question in course.assessment.questions]
    assert len(questions) == 200 and {len(question.options) for question in questions} == {4}
    # The model put every answer first and wrote flawed items: it needed telling.
    assert sum(careless_model.flaws.values()) >= 60 and len(careless_model.flaws) == len(
        CarelessQuizWriter.FLAWS
    )
    assert careless_model.told >= 10

    counts = [sum(1 for question in questions if question.correct_index == position) for position in range(4)]
    expected = len(questions) / 4
    statistic = sum((count - expected) ** 2 / expected for count in counts)
    assert chi_square_p_value_3_degrees(statistic) > 0.01, counts

    def only_longest(question) -> list[int]:
        lengths = [len(option) for option in question.options]
        return [number for number, length in enumerate(lengths) if length == max(lengths)][:2]

    correct_only_longest = sum(
        1 for question in questions if only_longest(question) == [question.correct_index]
    )
    # By chance: the answer at a random position is the only longest option in 1/4 of the questions
    # that have an only longest option.
    chance = sum(1 / len(question.options) for question in questions if len(only_longest(question)) == 1)
    print(
        f"positions {counts}, chi-square {statistic:.2f}; correct only longest {correct_only_longest}, chance {chance:.1f}"
    )
    assert correct_only_longest <= chance, (correct_only_longest, chance)


def test_the_chi_square_helper_matches_known_critical_values():
    assert chi_square_p_value_3_degrees(11.345) == pytest.approx(0.01, abs=1e-4)
    assert chi_square_p_value_3_degrees(7.815) == pytest.approx(0.05, abs=1e-4)


def test_a_negative_stem_is_emphasised_without_asking_again(openai_generator):
    def negative_first_question(document):
        document["questions"][0]["prompt"] = "Which of these is not a good habit?"
        return document

    openai_generator.script["course_assessment"] = [negative_first_question]

    course = generate(add_ons=["assessment"])

    assert openai_generator.steps().count("course_assessment") == 1
    assert course.assessment.questions[0].prompt == "Which of these is NOT a good habit?"
    assert quiz_findings(course) == []


def test_the_correct_answer_always_first_is_spread_over_the_positions_without_asking_again(openai_generator):
    course = generate(add_ons=["assessment"], outline=["Joins", "Indexes"])  # the fake answers A every time

    positions = [question.correct_index for question in course.assessment.questions]
    assert openai_generator.steps().count("course_assessment") == 1
    assert sorted(positions) == [0, 1, 2, 3]
    assert "ANSWER_POSITION_PILED" not in [item.code for item in quality.report_for(course).findings]


def test_an_item_flaw_is_asked_for_again_by_name_and_the_better_answer_kept(openai_generator):
    def all_of_the_above(document):
        document["questions"][2]["options"][3] = "All of the above"
        return document

    openai_generator.script["course_assessment"] = [all_of_the_above]

    course = generate(add_ons=["assessment"])

    first, retry = [
        body
        for body in openai_generator.requests
        if body["response_format"]["json_schema"]["name"] == "course_assessment"
    ]
    assert json.loads(retry["messages"][2]["content"])["questions"][2]["options"][3] == "All of the above"
    feedback = retry["messages"][3]["content"]
    assert feedback.startswith(
        "Some questions of that answer have item-writing flaws that let learners guess"
    )
    assert (
        "- questions/2: Option D is “all (none) of the above”: learners answer it from partial knowledge. "
        "Write a specific, plausible option instead."
    ) in feedback
    assert "All of the above" not in [
        option for question in course.assessment.questions for option in question.options
    ]
    assert quiz_findings(course) == []


def test_a_quiz_flawed_at_every_attempt_still_completes_with_the_least_flawed_answer_and_reports_the_rest(
    openai_generator, settings
):
    assert settings.GENERATION_MAX_ATTEMPTS == 3

    def flawed(count):
        def write(document):
            for question in document["questions"][:count]:
                question["options"][3] = "None of the above"
            return document

        return write

    openai_generator.script["course_assessment"] = [flawed(3), flawed(1), flawed(2)]

    course = generate(add_ons=["assessment"])

    assert openai_generator.steps().count("course_assessment") == 3
    assert [code for code, _ in quiz_findings(course)].count(
        "ALL_OR_NONE_OF_THE_ABOVE"
    ) == 1  # the second answer's


def test_a_question_naming_an_objective_the_course_lacks_names_none(openai_generator):
    def unknown_objective(document):
        document["questions"][1]["objectiveId"] = "9.9"
        return document

    openai_generator.script["course_assessment"] = [unknown_objective]

    course = generate(add_ons=["assessment"])

    assert course.assessment.questions[1].objective_id is None
    assert quiz_findings(course) == [("QUESTION_WITHOUT_OBJECTIVE", "/assessment/questions/1")]


def test_objective_verbs_take_our_tables_spelling_and_level_and_an_unlisted_verb_is_kept_and_reported(
    openai_generator,
):
    def verbs(document):
        document["objectives"] = [
            {"verb": "To Explain", "object": "what a join does", "bloomLevel": "create"},
            {"verb": "master", "object": "outer joins", "bloomLevel": "apply"},
        ]
        return document

    openai_generator.script["course_chapter"] = [verbs]

    course = generate(add_ons=[], outline=["Joins"])

    objectives = course.chapters[0].objectives
    assert [(o.id, o.verb, o.object, o.bloom_level) for o in objectives] == [
        ("1.1", "explain", "what a join does", "understand"),
        ("1.2", "master", "outer joins", "apply"),
    ]
    assert [(item.code, item.where) for item in quality.report_for(course).findings] == [
        ("OBJECTIVE_VERB_UNLISTED", "/chapters/0/objectives/1")
    ]


def test_the_assessment_request_lists_the_objectives_and_the_item_writing_rules(openai_generator):
    course = generate(add_ons=["assessment"], outline=["Joins"])

    body = next(
        b
        for b in openai_generator.requests
        if b["response_format"]["json_schema"]["name"] == "course_assessment"
    )
    prompt = body["messages"][1]["content"]
    objective = course.chapters[0].objectives[0]
    assert f"   objective 1.1: {objective.verb.capitalize()} {objective.object}" in prompt
    assert 'no "all of the above" or "none of the above"' in prompt
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["questions"]["items"]["properties"]["objectiveId"]["enum"] == [
        o.id for o in course.chapters[0].objectives
    ]
    assert [question.objective_id for question in course.assessment.questions] != [None] * 4
