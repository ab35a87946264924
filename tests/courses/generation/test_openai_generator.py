import json
import threading

import pytest

from courses.generation import GenerationFailed, GenerationTimeout, ProviderUnavailable
from courses.generation import openai_generator as openai_generator_module
from tests.support.fake_openai import PHRASES, FakeOpenAI, closed_port_url
from tests.support.generation import generate
from tests.support.samples import ALL_ADD_ONS
from tests.support.walk import assert_complete

LANGUAGES = ["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"]


@pytest.mark.parametrize("language_id", LANGUAGES)
@pytest.mark.parametrize("format", ["onepage", "classic"])
def test_openai_course_with_every_add_on_is_complete_in_every_language(openai_generator, language_id, format):
    course = generate(language_id=language_id, format=format, add_ons=ALL_ADD_ONS)

    assert_complete(course, language_id=language_id, format=format, add_ons=ALL_ADD_ONS)
    assert course.introduction.startswith(PHRASES[language_id])
    assert sorted(openai_generator.steps()) == sorted(
        ["course_plan"]
        + ["course_chapter"] * len(course.chapters)
        + ["course_wrapup", "course_assessment", "course_agreement"]
    )


def test_openai_course_is_assembled_from_the_model_answers(openai_generator):
    course = generate(subject="Intro to SQL", add_ons=["practical-exercises", "videos", "articles"])

    assert len(course.chapters) == 4  # the fake plans four chapters of four lessons
    assert all(len(chapter.lessons) == 4 for chapter in course.chapters)
    lesson = course.chapters[0].lessons[0]
    assert lesson.title.startswith(PHRASES["en-US"]) and lesson.body.startswith(PHRASES["en-US"])
    assert len(lesson.exercise.steps) == 4
    # Without a YouTube key, each lesson's video is a search for the query the model suggested.
    assert lesson.video.kind == "search" and lesson.video.query.startswith(PHRASES["en-US"][:40])
    assert course.chapters[0].article.body.startswith(PHRASES["en-US"])
    assert (course.wrapup, course.assessment, course.agreement) == (None, None, None)


def test_requests_name_the_model_the_language_and_a_strict_schema(openai_generator):
    generate(subject="Photosynthèse", language_id="pt-BR", add_ons=["practical-exercises", "videos"])

    plan, chapter = openai_generator.requests[0], openai_generator.requests[1]
    assert plan["model"] == "course-writer-1"
    assert set(openai_generator.authorizations) == {"Bearer sk-test"}
    assert "Brazilian Portuguese (locale pt-BR)" in plan["messages"][0]["content"]
    assert '"Photosynthèse"' in plan["messages"][1]["content"]
    response_format = chapter["response_format"]
    assert response_format["type"] == "json_schema" and response_format["json_schema"]["strict"] is True
    lesson_schema = response_format["json_schema"]["schema"]["properties"]["lessons"]["items"]
    assert lesson_schema["required"] == ["title", "body", "exercise", "videoQuery"]
    assert lesson_schema["additionalProperties"] is False
    assert "article" not in response_format["json_schema"]["schema"]["properties"]


def test_given_outline_is_kept_verbatim_and_the_model_only_summarises_it(openai_generator):
    outline = ["Tabelas", "Consultas <SELECT>", "Junções"]

    course = generate(language_id="pt-BR", outline=outline, add_ons=[])

    assert [chapter.title for chapter in course.chapters] == outline
    plan_schema = openai_generator.requests[0]["response_format"]["json_schema"]["schema"]
    assert "chapters" not in plan_schema["properties"]
    assert plan_schema["properties"]["chapterSummaries"]["minItems"] == 3
    assert plan_schema["properties"]["chapterSummaries"]["maxItems"] == 3
    assert '2. "Consultas <SELECT>"' in openai_generator.requests[0]["messages"][1]["content"]


def test_chapters_and_then_add_ons_are_written_concurrently(openai_generator, settings):
    settings.GENERATION_CONCURRENCY = 3
    # Chapter requests wait at the server until three are in flight together; so do the add-ons.
    openai_generator.barriers["course_chapter"] = threading.Barrier(3, timeout=5)
    openai_generator.barriers["add_ons"] = threading.Barrier(3, timeout=5)

    course = generate(outline=[f"Chapter {number}" for number in range(1, 7)], add_ons=ALL_ADD_ONS)

    assert len(course.chapters) == 6
    assert openai_generator.steps().count("course_chapter") == 6
    assert openai_generator.max_in_flight["course_chapter"] == 3  # together, and never more than allowed
    assert openai_generator.max_in_flight["add_ons"] == 3
    assert openai_generator.max_in_flight["course_plan"] == 1


def test_progress_rises_as_chapters_finish(openai_generator):
    progress = []

    generate(outline=[f"Chapter {number}" for number in range(1, 10)], progress=progress)

    assert progress == sorted(set(progress))
    assert 1 <= progress[0] and progress[-1] == 99
    assert len(progress) >= 9 + 1  # the plan, each chapter, the add-ons


UNREADABLE = [
    "deeply_nested", "body_not_json", "body_not_utf8", "body_nested_too_deep", "body_huge_number",
    "choices_not_a_list", "message_null",
]


@pytest.mark.parametrize("unusable", ["garbage", "wrong_shape", "truncated", *UNREADABLE])
def test_unusable_output_is_asked_for_again(openai_generator, unusable):
    openai_generator.script["course_plan"] = [unusable, unusable]

    course = generate(add_ons=[])

    assert openai_generator.steps()[:3] == ["course_plan"] * 3
    assert len(course.chapters) == 4


def test_a_retry_tells_the_model_which_rules_its_last_answer_broke(openai_generator):
    def one_lesson(document):
        document["lessons"] = document["lessons"][:1]
        return document

    openai_generator.script["course_chapter"] = [one_lesson]

    generate(add_ons=[], outline=["Joins"])

    first, retry = [body for body in openai_generator.requests if body["messages"][1]["content"].startswith("Write")]
    assert len(first["messages"]) == 2
    assert retry["messages"][:2] == first["messages"]
    assert retry["messages"][2]["role"] == "assistant"
    assert len(json.loads(retry["messages"][2]["content"])["lessons"]) == 1  # its own answer, shown back
    feedback = retry["messages"][3]
    assert feedback["role"] == "user"
    assert "- lessons: List should have at least 2 items after validation, not 1" in feedback["content"]


@pytest.mark.parametrize("unusable", ["garbage", "wrong_shape", "truncated"])
def test_a_chapter_unusable_at_every_attempt_fails_the_generation(openai_generator, settings, unusable):
    assert settings.GENERATION_MAX_ATTEMPTS == 3
    openai_generator.script["course_chapter"] = [unusable] * 20

    with pytest.raises(GenerationFailed) as failure:
        generate(add_ons=[], outline=["Only chapter"])

    assert failure.value.code == "GENERATION_FAILED"
    assert failure.value.message == (
        "The course could not be generated from this subject. Please try again or rephrase it."
    )
    assert openai_generator.steps().count("course_chapter") == 3


@pytest.mark.parametrize("add_on, step", [("wrapup", "course_wrapup"), ("assessment", "course_assessment"),
                                          ("agreement", "course_agreement")])
@pytest.mark.parametrize("unusable", ["garbage", "body_not_json"])
def test_an_add_on_unusable_at_every_attempt_comes_from_the_offline_generator(
    openai_generator, add_on, step, unusable
):
    openai_generator.script[step] = [unusable] * 3

    course = generate(add_ons=[add_on])
    offline = generate(add_ons=[add_on], generator="offline")

    assert openai_generator.steps().count(step) == 3
    expected = getattr(offline, add_on)
    if add_on == "assessment":
        # The offline questions test the offline chapters' objectives, which the model's chapters lack.
        expected = expected.model_copy(
            update={"questions": [q.model_copy(update={"objective_id": None}) for q in expected.questions]}
        )
    assert getattr(course, add_on) == expected
    assert course.chapters[0].lessons[0].body.startswith(PHRASES["en-US"])  # the rest is the model's


def test_a_server_refusing_length_keywords_gets_the_schema_without_them(openai_generator):
    openai_generator.script["course_plan"] = ["refuse_lengths"]

    course = generate(add_ons=["wrapup"])

    schemas = [json.dumps(body["response_format"]) for body in openai_generator.requests]
    assert "minLength" in schemas[0] and "maxLength" in schemas[0]
    assert all("minLength" not in schema and "maxLength" not in schema for schema in schemas[1:])
    assert "minItems" in schemas[1]  # counts stay: every server takes them
    assert len(course.chapters) == 4


def test_what_changes_no_meaning_is_mended_without_asking_again(openai_generator):
    def sloppy_quiz(document):
        first, second, third = document["questions"][:3]
        first["options"][2] = "  " + first["options"][first["correctIndex"]].upper() + " "  # said twice
        second["correctIndex"] = 9  # not among the options: the question cannot be asked
        third["prompt"] = "  " + "Which of these words is the best answer here " * 20  # over 500 characters
        return document

    openai_generator.script["course_assessment"] = [sloppy_quiz]

    course = generate(add_ons=["assessment"])

    questions = course.assessment.questions
    assert openai_generator.steps().count("course_assessment") == 1
    assert len(questions) == 3  # four asked for, the one that cannot be asked dropped
    assert len(questions[0].options) == 3
    clipped = questions[1].prompt
    assert len(clipped) <= 500 and clipped.endswith("here…") and clipped.startswith("Which")


@pytest.mark.parametrize("wrapping", ["fenced", "reasoning"])
def test_json_wrapped_the_way_some_servers_answer_is_accepted(openai_generator, wrapping):
    openai_generator.script["course_plan"] = [wrapping]

    course = generate(add_ons=[])

    assert openai_generator.steps().count("course_plan") == 1
    assert len(course.chapters) == 4


def test_subject_the_model_cannot_teach_fails_without_retrying(openai_generator):
    openai_generator.script["course_plan"] = ["cannot_teach"]

    with pytest.raises(GenerationFailed) as failure:
        generate(subject="asdf qwerty zxcv")

    assert failure.value.code == "GENERATION_FAILED"
    assert failure.value.message == "This subject cannot be turned into a course. Please rephrase it."
    assert openai_generator.steps() == ["course_plan"]


def test_rate_limit_and_server_errors_are_retried(openai_generator):
    openai_generator.script["course_plan"] = ["error429", "error500"]
    openai_generator.script["course_wrapup"] = ["error500"]

    course = generate(add_ons=["wrapup"])

    assert openai_generator.steps().count("course_plan") == 3
    assert openai_generator.steps().count("course_wrapup") == 2
    assert course.wrapup is not None


def test_server_still_failing_after_retries_is_provider_unavailable(openai_generator):
    openai_generator.script["course_plan"] = ["error500"] * 3

    with pytest.raises(ProviderUnavailable) as failure:
        generate()

    assert failure.value.code == "PROVIDER_UNAVAILABLE"
    assert failure.value.message == "The content provider is unavailable right now. Please try again later."
    assert openai_generator.steps() == ["course_plan"] * 3  # the first try and OPENAI_MAX_RETRIES=2


def test_rate_limited_chapter_after_retries_is_provider_unavailable(openai_generator, settings):
    settings.OPENAI_MAX_RETRIES = 1
    openai_generator.script["course_chapter"] = ["error429"] * 20

    with pytest.raises(ProviderUnavailable):
        generate(add_ons=[])


def test_server_refusing_the_key_is_provider_unavailable_without_retrying(openai_generator):
    openai_generator.script["course_plan"] = ["error401"]

    with pytest.raises(ProviderUnavailable):
        generate()

    assert openai_generator.steps() == ["course_plan"]
    assert openai_generator.requests[0]["model"] == "course-writer-1"


def test_a_redirect_is_provider_unavailable_and_never_followed(openai_generator):
    elsewhere = FakeOpenAI().start()
    openai_generator.redirect_to = f"{elsewhere.base_url}/chat/completions"
    openai_generator.script["course_plan"] = ["redirect"]
    try:
        with pytest.raises(ProviderUnavailable):
            generate()
    finally:
        elsewhere.stop()

    assert openai_generator.steps() == ["course_plan"]
    assert elsewhere.requests == []


def test_the_model_server_is_reached_through_the_proxy_the_environment_names(
    openai_generator, settings, monkeypatch
):
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy", "http_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", openai_generator.base_url.removesuffix("/v1"))
    settings.OPENAI_BASE_URL = "http://model-server.invalid/v1"  # resolvable by the proxy only

    course = generate(add_ons=[])

    assert len(course.chapters) == 4
    assert openai_generator.urls[0] == "http://model-server.invalid/v1/chat/completions"


@pytest.mark.parametrize("behaviour", ["trickle", "oversized", "gzipped"])
def test_an_answer_too_slow_too_large_or_compressed_is_cut_off_and_asked_for_again(
    openai_generator, settings, behaviour
):
    settings.OPENAI_TIMEOUT_S = 1.0  # for the whole answer, not for each byte of it
    openai_generator.script["course_plan"] = [behaviour]

    course = generate(add_ons=[], seconds=30)

    assert openai_generator.steps()[:2] == ["course_plan"] * 2
    assert len(course.chapters) == 4
    assert {headers["accept-encoding"] for headers in openai_generator.headers_seen} == {"identity"}


def test_unreachable_server_is_provider_unavailable(openai_generator, settings):
    settings.OPENAI_BASE_URL = closed_port_url()
    settings.OPENAI_MAX_RETRIES = 1

    with pytest.raises(ProviderUnavailable) as failure:
        generate()

    assert failure.value.code == "PROVIDER_UNAVAILABLE"
    assert "127.0.0.1" not in failure.value.message


def test_server_too_slow_for_every_attempt_is_provider_unavailable(openai_generator, settings):
    settings.OPENAI_TIMEOUT_S = 0.2
    settings.OPENAI_MAX_RETRIES = 1
    openai_generator.script["course_plan"] = ["stall", "stall"]

    with pytest.raises(ProviderUnavailable):
        generate(seconds=30)

    assert openai_generator.steps() == ["course_plan", "course_plan"]


def test_generation_still_running_at_the_deadline_times_out(openai_generator):
    openai_generator.script["course_chapter"] = ["stall"] * 4

    with pytest.raises(GenerationTimeout) as failure:
        generate(seconds=1.0, add_ons=[])

    assert failure.value.code == "GENERATION_TIMEOUT"
    assert openai_generator.steps().count("course_chapter") == 4


def test_with_concurrency_one_chapters_are_written_one_at_a_time(openai_generator, settings):
    settings.GENERATION_CONCURRENCY = 1

    course = generate(add_ons=[])

    assert len(course.chapters) == 4
    assert openai_generator.max_in_flight["course_chapter"] == 1


def test_with_concurrency_one_a_hanging_request_still_ends_at_the_deadline(openai_generator, settings):
    settings.GENERATION_CONCURRENCY = 1
    openai_generator.script["course_plan"] = ["stall"]

    with pytest.raises(GenerationTimeout):
        generate(seconds=0.5)


@pytest.mark.parametrize(
    "reply_model",
    [
        openai_generator_module.PlanReply,
        openai_generator_module.fixed_plan_reply_model(chapters=3),
        openai_generator_module.WrapupReply,
        openai_generator_module.assessment_reply_model(objective_ids=("1.1", "1.2", "2.1")),
        openai_generator_module.assessment_reply_model(objective_ids=()),
        openai_generator_module.AgreementReply,
        openai_generator_module.chapter_reply_model(exercises=True, videos=True, article=True, language_id="en-US"),
        openai_generator_module.chapter_reply_model(
            exercises=False, videos=False, article=False, language_id="de-DE"
        ),
    ],
    ids=lambda model: model.__name__,
)
def test_reply_schemas_are_strict_and_state_the_rules_json_schema_can_say(reply_model):
    schema = openai_generator_module.strict_schema(reply_model)
    portable = openai_generator_module.strict_schema(reply_model, lengths=False)

    def objects(node):
        if node.get("type") == "object":
            yield node
        for sub in [*node.get("properties", {}).values(), *([node["items"]] if "items" in node else [])]:
            yield from objects(sub)

    assert schema["type"] == "object"
    for node in objects(schema):
        assert node["additionalProperties"] is False
        assert node["required"] == list(node["properties"])
    text = json.dumps(schema)
    assert "$ref" not in text
    assert '"title": "' not in text and '"default"' not in text  # schema titles, not properties named title
    assert '"minLength": 1' in text and '"maxLength": ' in text
    assert "minLength" not in json.dumps(portable) and "maxLength" not in json.dumps(portable)


def test_the_schema_states_counts_and_lengths_the_validator_enforces():
    schema = openai_generator_module.strict_schema(
        openai_generator_module.assessment_reply_model(objective_ids=("1.1", "2.1"))
    )

    questions = schema["properties"]["questions"]
    question = questions["items"]["properties"]
    assert (questions["minItems"], questions["maxItems"]) == (3, 20)
    assert (question["options"]["minItems"], question["options"]["maxItems"]) == (2, 6)
    assert question["options"]["items"] == {
        "type": "string", "minLength": 1, "maxLength": 500, "pattern": "^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]*$",
    }
    assert question["correctIndex"] == {"type": "integer", "minimum": 0}
