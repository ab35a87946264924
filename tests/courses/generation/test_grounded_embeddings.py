"""
With OPENAI_EMBEDDINGS_MODEL, the openai generator retrieves a chapter's passages by meaning too:
the passages are embedded once by the model server and kept, the chapter's text is embedded, and
the similarity ranking is fused with the full-text rank. Without the server, full text goes on alone.
"""

import json
import logging
import time

import pytest

from core.logs import JsonFormatter
from courses import generation
from courses.generation import grounding
from sources import embeddings
from sources.models import Passage, Source
from tests.support.fake_openai import passages_in
from tests.support.grounded import add_source, assert_cited

# Ten sections of an office guide. The chapter "Automobiles" shares no word with any; the one it is
# about comes last, after more than a chapter takes (8), where the full-text rank never reaches it.
TOPICS = [
    ("Kitchen", "The kitchen closes at three in the afternoon. Wash your cup and plate after each use."),
    ("Printers", "Printers on each floor need a badge to release a job. Paper is in the cupboard."),
    ("Holidays", "Holidays are booked in the staff portal at least two weeks ahead of the first day."),
    ("Expenses", "Expenses are claimed with a photo of the receipt within thirty days of paying."),
    ("Badges", "Badges open the doors you need. Report a lost badge to reception at once."),
    ("Meetings", "Meetings start on the hour and end five minutes early so people can move rooms."),
    ("Plants", "Plants are watered by the facilities team on Mondays. Please do not move them."),
    ("Lockers", "Lockers are free to use during the day and must be emptied every Friday evening."),
    ("Mail", "Mail arrives at noon and is sorted into trays by team name at the front desk."),
    ("Fleet", (
        "Every car in the fleet has its tyres checked each month. A car with a warning light "
        "goes to the garage the same day, and the car keys hang at reception."
    )),
]
MODEL = "embed-small-1"


@pytest.fixture
def office_guide(api_client) -> Source:
    text = "# Office guide\n\n" + "".join(f"## {title}\n\n{body}\n\n" for title, body in TOPICS)
    return Source.objects.get(public_id=add_source(api_client, text.encode(), "office.md"))


@pytest.fixture
def embeddings_on(settings, openai_generator):
    settings.OPENAI_EMBEDDINGS_MODEL = MODEL
    return openai_generator


def request_for(source: Source, *, outline=("Automobiles",)) -> generation.CourseRequest:
    return generation.CourseRequest(
        subject="Working at the office",
        format="onepage",
        language_id="en-US",
        outline=list(outline),
        add_ons=[],
        source_ids=(source.pk,),
    )


def generate(source: Source, *, outline=("Automobiles",)):
    return generation.generate_course(
        request=request_for(source, outline=outline), on_progress=lambda percent: None,
        deadline=time.monotonic() + 60,
    )


def sections_shown_to_chapter(fake, title: str = "Automobiles") -> list[str]:
    (request,) = [
        body
        for body in fake.requests
        if body["response_format"]["json_schema"]["name"] == "course_chapter"
        and f"\nThis chapter: {title}:" in body["messages"][1]["content"]
    ]
    return [passage["section"] for passage in passages_in(request)]


def test_retrieval_by_meaning_finds_only_the_passage_that_stands_out(embeddings_on, office_guide):
    embedder = embeddings.Embedder(deadline=time.monotonic() + 30)
    sources = grounding.Grounding.load([office_guide.pk], embedder=embedder)
    fleet = Passage.objects.get(source=office_guide, text__contains="car in the fleet")

    assert sources.retrieve("Automobiles") == [fleet.public_id]  # no word in common
    assert sources.retrieve("Automobiles", exclude=[fleet.public_id]) == []
    assert sources.retrieve("Printers")[0] != fleet.public_id


def test_each_chapter_gets_the_section_it_is_about_and_takes_none_of_anothers_to_fill_up(
    embeddings_on, office_guide
):
    generate(office_guide, outline=["Kitchen rules", "Printers and paper", "Automobiles"])

    chapters = [("Kitchen rules", "Kitchen"), ("Printers and paper", "Printers"), ("Automobiles", "Fleet")]
    for title, section in chapters:
        assert any(section in shown for shown in sections_shown_to_chapter(embeddings_on, title)), title


def test_a_chapter_finds_the_passage_it_is_about_by_meaning_where_no_word_matches(
    embeddings_on, office_guide
):
    course = generate(office_guide)

    assert any("Fleet" in section for section in sections_shown_to_chapter(embeddings_on))
    assert_cited(course.model_dump(mode="json"), source_ids=[office_guide.public_id])
    # The chapter's text was embedded to find them; the model named is the one configured.
    assert any("Automobiles" in text for text in embeddings_on.embedded_texts())
    assert {body["model"] for body in embeddings_on.embedding_requests} == {MODEL}


def test_without_the_setting_only_words_match_and_the_chapter_misses_it(openai_generator, office_guide):
    generate(office_guide)

    assert not any("Fleet" in section for section in sections_shown_to_chapter(openai_generator))
    assert openai_generator.embedding_requests == []


def passage_texts(texts: list[str]) -> list[str]:
    """The texts sent for embedding that are passages (with their headings), not a chapter's text."""
    return [text for text in texts if text.startswith("Office guide › ")]


def test_passages_are_embedded_once_and_kept_for_the_next_course(embeddings_on, office_guide):
    generate(office_guide)
    passages = Passage.objects.filter(source=office_guide)
    assert {passage.embedding_model for passage in passages} == {MODEL}
    first = embeddings_on.embedded_texts()
    assert len(passage_texts(first)) == len(set(passage_texts(first))) == passages.count()

    generate(office_guide, outline=["Vehicles"])

    # Only the new chapter's text: the passages' vectors were kept.
    assert embeddings_on.embedded_texts()[len(first) :][0] == "Vehicles"
    assert passage_texts(embeddings_on.embedded_texts()[len(first) :]) == []


def test_another_embeddings_model_embeds_the_passages_again(embeddings_on, office_guide, settings):
    generate(office_guide)
    settings.OPENAI_EMBEDDINGS_MODEL = "embed-large-2"
    before = len(embeddings_on.embedded_texts())

    generate(office_guide)

    passages = Passage.objects.filter(source=office_guide)
    assert len(passage_texts(embeddings_on.embedded_texts()[before:])) == passages.count()
    assert {passage.embedding_model for passage in passages} == {"embed-large-2"}


def test_a_step_that_retrieves_nothing_embeds_nothing(embeddings_on, office_guide, settings):
    settings.OPENAI_EMBEDDINGS_MODEL = ""
    course = generate(office_guide, outline=["Fleet cars", "Kitchen and mail"])
    settings.OPENAI_EMBEDDINGS_MODEL = MODEL
    first_chapter_cites = {
        citation.passage_id
        for where, cited in course.cited_parts()
        if where.startswith("/chapters/0/")
        for citation in cited
    }
    assert len(first_chapter_cites) >= 2

    # A chapter written again draws on the passages it cites (two or more): no retrieval.
    generation.regenerate_part(
        request=request_for(office_guide, outline=["Fleet cars", "Kitchen and mail"]),
        document=course,
        part="chapter",
        chapter=1,
        on_progress=lambda percent: None,
        deadline=time.monotonic() + 60,
    )

    assert embeddings_on.embedding_requests == []


def test_without_an_embeddings_server_the_course_is_built_by_full_text_rank(
    embeddings_on, office_guide, caplog
):
    embeddings_on.embeddings_script.extend(["error500"] * 10)

    with caplog.at_level(logging.WARNING, logger="courses.generation.grounding"):
        course = generate(office_guide, outline=["Fleet cars"])

    assert_cited(course.model_dump(mode="json"), source_ids=[office_guide.public_id])
    assert any("Fleet" in section for section in sections_shown_to_chapter(embeddings_on, "Fleet cars"))
    assert "embeddings unavailable, retrieval by full-text rank only" in caplog.messages
    assert len(embeddings_on.embedding_requests) == 3  # one request and the SDK's two retries, then no more
    assert not Passage.objects.filter(source=office_guide).exclude(embedding_model="").exists()


def test_a_server_refusing_the_key_is_logged_by_the_errors_type_and_status_alone(
    embeddings_on, office_guide, caplog
):
    embeddings_on.embeddings_script.append("error401")

    with caplog.at_level(logging.WARNING, logger="courses.generation.grounding"):
        generate(office_guide, outline=["Fleet cars"])

    [line] = [
        json.loads(JsonFormatter().format(record))
        for record in caplog.records
        if record.getMessage() == "embeddings unavailable, retrieval by full-text rank only"
    ]
    # What the server answered names the key (OpenAI's, its start and end): none of it is logged.
    assert "Incorrect API key" not in json.dumps(line) and "sk-test" not in json.dumps(line)
    assert (line["error"], line["status"]) == ("AuthenticationError", 401)


@pytest.mark.parametrize("behaviour", ["error429_for_10s", "trickle"])
def test_embedding_ends_at_the_jobs_deadline_whatever_the_server_asks(embeddings_on, behaviour):
    embeddings_on.embeddings_script.extend([behaviour] * 10)
    started = time.monotonic()

    with pytest.raises(embeddings.EmbeddingsUnavailable):
        embeddings.Embedder(deadline=started + 1).embed(["Every car in the fleet"])

    assert time.monotonic() - started < 8  # neither the 10 s the server asked for nor its slow answer


def test_the_offline_generator_never_asks_for_embeddings(embeddings_on, office_guide, settings):
    settings.COURSE_GENERATOR = "offline"

    course = generate(office_guide)

    assert_cited(course.model_dump(mode="json"), source_ids=[office_guide.public_id])
    assert embeddings_on.embedding_requests == []


def test_fusion_puts_what_both_rankings_rank_high_first_and_keeps_the_first_rankings_order_on_ties():
    assert grounding.fused([[1, 2, 3], [3, 4]]) == [3, 1, 2, 4]
    assert grounding.fused([[], [7, 8]]) == [7, 8]
    assert grounding.fused([[5, 6], []]) == [5, 6]
