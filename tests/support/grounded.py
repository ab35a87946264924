"""What the tests of courses built from sources share: adding sources, making courses, checking citations."""

from django.test import TestCase

from courses import citations
from courses.content import CourseContent
from courses.quality import words
from sources.models import Passage
from tests.support.uploads import read

ALL_ADD_ONS = ["practical-exercises", "wrapup", "assessment", "articles", "videos", "agreement"]


def add_source(client, data: bytes, name: str) -> str:
    """Upload a document through the API, let it be read, and return its id (it is ready)."""
    source = read(client, data, name)
    assert source["status"] == "ready", source
    return source["id"]


def create_course(client, **body):
    """POST /api/v1/courses; the generation task runs at commit, as a worker would run it."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post("/api/v1/courses", body, format="json")


def make_course(client, **body) -> dict:
    """Create a course, and return it as GET /api/v1/courses/{id} shows it (the job completed)."""
    response = create_course(client, **body)
    assert response.status_code == 202, response.content
    job = client.get(response.json()["pollUrl"]).json()
    assert job["status"] == "completed", job
    read_back = client.get(f"/api/v1/courses/{job['course']['id']}")
    assert read_back.status_code == 200
    return read_back.json()


# Function words of every course language: a quote states an answer by its other words.
STOPWORDS = set().union(*words.STOPWORDS.values())


def assert_cited(document: dict, *, source_ids: list[str]) -> CourseContent:
    """
    The document is a course built from these sources (in this order), every part that can cite does,
    and every citation is a passage of one of them that holds its quote word for word, on its page;
    each quiz question's citations state its correct answer.
    """
    course = CourseContent.model_validate(document)
    assert course.schema_version == 3
    assert [source.id for source in course.sources] == source_ids
    parts = course.cited_parts()
    assert parts
    cited_ids = {citation.passage_id for _, cited in parts for citation in cited}
    passages = {
        passage.public_id: passage
        for passage in Passage.objects.filter(public_id__in=cited_ids).select_related("source")
    }
    for where, cited in parts:
        assert cited, f"{where} cites nothing"
        for citation in cited:
            passage = passages[citation.passage_id]
            assert passage.source.public_id == citation.source_id
            assert citation.quote in passage.text, (where, citation.quote)
            assert len(citation.quote) <= 300
            if passage.page is not None:
                assert passage.page <= citation.page <= passage.page_end, (where, citation)
    for question in course.assessment.questions if course.assessment else []:
        answer = question.options[question.correct_index]
        assert any(
            citations.supports(citation.quote, answer, stopwords=STOPWORDS) for citation in question.citations
        ), (question.prompt, answer, question.citations)
    return course
