"""The public preview page over HTTP: layouts, add-ons, languages, safety, caching and sign-offs."""

import json
import re
import time
from html.parser import HTMLParser

import pytest
import time_machine
from django.conf import settings
from django.templatetags.static import static
from django.test import Client

from core import redis_client
from courses import content
from courses.models import Course
from learners import identity, signoffs
from learners.models import Learner, Signoff
from tests.support import legacy, samples
from tests.support.errors import refusal
from tests.support.factories import CourseFactory, LearnerFactory, SignoffFactory, do_all_but_sign
from tests.support.readers import FAILING, PASSING, Reader, some_ip

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)> [click me](javascript:alert(3))'


def ready_reader(course, *, ip=None) -> Reader:
    """A browser whose learner has done everything the course asks before its agreement."""
    reader = Reader(course, ip=ip)
    reader.ready_to_sign()
    return reader


def sign(course, *, name="Ada Lovelace", confirm=True, ip=None, reader=None):
    """Sign as the page's form does, as `reader`, or as a learner who has done the rest of the course."""
    reader = reader or ready_reader(course, ip=ip)
    data = {"name": name, "csrfmiddlewaretoken": reader.token, **({"confirm": "yes"} if confirm else {})}
    return reader.client.post(f"/go/{course.public_id}/agreement", data)


def csp_directives(response) -> dict[str, list[str]]:
    policy = response.headers["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in policy.split(";") if part.strip())}


# Layouts and add-ons --------------------------------------------------------------------------


def test_onepage_course_shows_every_add_on_on_one_page(client):
    course = CourseFactory(format="onepage")

    response = client.get(f"/go/{course.public_id}")

    html = response.content.decode()
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    anchors = ("introduction", "chapter-1", "chapter-2", "chapter-3", "wrap-up", "assessment", "agreement")
    for anchor in anchors:
        assert f'<a href="#{anchor}">' in html
        assert f'id="{anchor}"' in html
    assert "data-reading-progress" in html
    for text in (
        "Chapter title 3",
        "Lesson 3.2",
        "Practise 3.2",
        "Expected result:",
        "Videos about lesson 3.2",
        "Article 3",
        "Key takeaways",
        "Question 5",
        "I confirm I completed Intro to SQL.",
    ):
        assert text in html
    assert 'href="https://www.youtube.com/results?search_query=intro+to+sql"' in html
    assert html.count('type="radio"') == 15
    assert 'name="csrfmiddlewaretoken"' in html
    assert f'action="/go/{course.public_id}/agreement"' in html


def test_classic_course_has_an_overview_a_page_per_chapter_and_a_final_page(client):
    course = CourseFactory(format="classic")
    base = f"/go/{course.public_id}"

    overview = client.get(base).content.decode()
    chapter = client.get(f"{base}/2").content.decode()
    final = client.get(f"{base}/4").content.decode()

    assert "Welcome to Intro to SQL." in overview
    for number in (1, 2, 3, 4):
        assert f'href="{base}/{number}"' in overview
    assert f'<a class="pager-link pager-next" href="{base}/1" rel="next">' in overview
    assert "<h1>Chapter title 2</h1>" in chapter
    assert "Lesson 2.2" in chapter and "Lesson 1.1" not in chapter and "Question 1" not in chapter
    assert f'href="{base}/2" aria-current="page"' in chapter
    assert f'href="{base}/1" rel="prev"' in chapter
    assert f'href="{base}/3" rel="next"' in chapter
    assert "<h1>Final steps</h1>" in final
    assert "Key takeaways" in final and "Question 5" in final and 'name="csrfmiddlewaretoken"' in final
    assert 'rel="next"' not in final


def test_a_course_stored_with_options_the_rules_now_refuse_shows_them_as_it_has_them(client):
    # Stored before "two options say the same" (options A and B of the first question differ by a
    # trailing space): the page shows the course as it is. It was the 500 page.
    course = legacy.store_with_options_that_say_the_same(CourseFactory(format="onepage"))

    response = client.get(f"/go/{course.public_id}")

    html = response.content.decode()
    first = html[html.index("Question 1 of 5") : html.index("Question 2 of 5")]
    assert response.status_code == 200
    assert re.findall(r'name="question-1" value="(\d)"><span>([^<]*)</span>', first) == [
        ("0", "Right answer"), ("1", "Right answer"), ("2", "Also wrong"),
    ]
    assert html.count('type="radio"') == 15


def test_classic_course_without_closing_add_ons_ends_with_its_last_chapter(client):
    course = CourseFactory(format="classic", add_ons=["practical-exercises"])

    last = client.get(f"/go/{course.public_id}/3")
    beyond = client.get(f"/go/{course.public_id}/4")

    assert last.status_code == 200
    assert 'rel="next"' not in last.content.decode()
    assert beyond.status_code == 404


@pytest.mark.parametrize("number", [0, 4, 99])
def test_classic_page_number_out_of_range_is_not_found(client, number):
    course = CourseFactory(format="classic", add_ons=[])

    response = client.get(f"/go/{course.public_id}/{number}")

    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_onepage_chapter_link_jumps_to_the_chapter(client):
    course = CourseFactory(format="onepage")

    jump = client.get(f"/go/{course.public_id}/2")
    beyond = client.get(f"/go/{course.public_id}/9")

    assert jump.status_code == 302
    assert jump.headers["Location"] == f"/go/{course.public_id}#chapter-2"
    assert beyond.status_code == 404


def test_youtube_videos_are_lazy_privacy_enhanced_embeds(client):
    document = samples.course_document()
    document["chapters"][0]["lessons"][0]["video"] = {
        "kind": "youtube",
        "title": "SQL in 10 minutes",
        "query": "sql basics",
        "url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "videoId": "dQw4w9WgXcQ",
    }
    course = CourseFactory(content=document)

    response = client.get(f"/go/{course.public_id}")

    html = response.content.decode()
    iframe = re.search(r"<iframe [^>]*>", html).group(0)
    assert 'src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"' in iframe
    assert 'loading="lazy"' in iframe
    assert 'title="SQL in 10 minutes"' in iframe
    assert html.count("<iframe") == 1  # the other lessons keep their search links
    assert 'href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"' in html
    assert csp_directives(response)["frame-src"] == ["https://www.youtube-nocookie.com"]


def test_a_search_link_outside_youtube_is_rebuilt_from_the_query(client):
    document = samples.course_document(add_ons=["videos"])
    document["chapters"][0]["lessons"][0]["video"]["url"] = "https://evil.example/phish"
    course = CourseFactory(content=document, add_ons=["videos"])

    html = client.get(f"/go/{course.public_id}").content.decode()

    assert "evil.example" not in html
    assert 'href="https://www.youtube.com/results?search_query=Intro+to+SQL+lesson+1.1"' in html


# Languages ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language_id", "chapter", "check"),
    [
        ("en-US", "Chapter 1", "Check my answers"),
        ("pt-BR", "Capítulo 1", "Verificar minhas respostas"),
        ("es-ES", "Capítulo 1", "Comprobar mis respuestas"),
        ("fr-FR", "Chapitre 1", "Vérifier mes réponses"),
        ("de-DE", "Kapitel 1", "Antworten prüfen"),
    ],
)
def test_page_words_are_in_the_course_language(client, language_id, chapter, check):
    course = CourseFactory(language_id=language_id)

    html = client.get(f"/go/{course.public_id}").content.decode()

    assert f'<html lang="{language_id}"' in html
    assert chapter in html
    assert check in html
    assert f'<meta property="og:locale" content="{language_id.replace("-", "_")}">' in html


def test_one_request_in_another_language_leaves_the_next_in_its_own(client):
    german = CourseFactory(language_id="de-DE")
    english = CourseFactory(language_id="en-US")

    client.get(f"/go/{german.public_id}")
    html = client.get(f"/go/{english.public_id}").content.decode()

    assert "Check my answers" in html


# Safety ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("format", "pages"), [("onepage", [""]), ("classic", ["", "/1", "/4"])])
def test_hostile_subject_outline_and_model_output_stay_escaped(client, format, pages):
    course = CourseFactory(format=format, text=HOSTILE)

    for page in pages:
        html = client.get(f"/go/{course.public_id}{page}").content.decode()

        tags = _tags(html)
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert [attrs for tag, attrs in tags if tag == "script" and "src" not in attrs] == []
        assert [tag for tag, _ in tags if tag in ("img", "object", "embed", "svg", "math", "base")] == []
        assert [name for _, attrs in tags for name in attrs if name.startswith("on")] == []
        safe_starts = ("/", "#", "https://", settings.PUBLIC_BASE_URL)
        links = [value for _, attrs in tags for name, value in attrs.items() if name in ("href", "src", "action")]
        assert [link for link in links if not link.startswith(safe_starts)] == []
    assert "<title>Intro to SQL&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(
        f"/go/{course.public_id}"
    ).content.decode()


def _tags(html: str) -> list[tuple[str, dict]]:
    """Every start tag of the page with its attributes, as a browser would parse them."""
    found = []

    class Collector(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, dict(attrs)))

    Collector().feed(html)
    return found


def test_pages_have_a_strict_content_security_policy_and_no_inline_code(client):
    course = CourseFactory(format="onepage")

    response = client.get(f"/go/{course.public_id}")

    html = response.content.decode()
    directives = csp_directives(response)
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in response.headers["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response.headers["Content-Security-Policy"]
    tags = _tags(html)
    assert [attrs for tag, attrs in tags if tag == "script" and "src" not in attrs] == []
    assert [tag for tag, _ in tags if tag == "style"] == []
    assert [tag for tag, attrs in tags if "style" in attrs] == []
    assert [tag for tag, attrs in tags if any(name.startswith("on") for name in attrs)] == []


def test_pages_ask_search_engines_not_to_index_them(client):
    course = CourseFactory()

    response = client.get(f"/go/{course.public_id}")

    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()


def test_indexing_can_be_allowed_by_a_setting(client, settings):
    settings.PREVIEW_ALLOW_INDEXING = True
    course = CourseFactory()

    response = client.get(f"/go/{course.public_id}")

    assert "X-Robots-Tag" not in response.headers
    assert 'name="robots"' not in response.content.decode()


def test_link_previews_show_the_course_name_and_headline(client):
    course = CourseFactory()

    html = client.get(f"/go/{course.public_id}").content.decode()

    for tag in (
        '<meta property="og:title" content="Intro to SQL">',
        '<meta property="og:description" content="Query relational data with confidence">',
        f'<meta property="og:url" content="{course.share_url}">',
        '<meta name="twitter:card" content="summary">',
        '<meta name="twitter:title" content="Intro to SQL">',
        '<meta name="twitter:description" content="Query relational data with confidence">',
    ):
        assert tag in html


def test_unknown_course_gets_the_friendly_html_404_page(client):
    response = client.get("/go/cou_doesnotexist0000000000")
    malformed = client.get("/go/%3Cscript%3E")

    html = response.content.decode()
    assert response.status_code == 404
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    assert "<h1>Page not found</h1>" in html
    assert static("courses/course.css") in html
    assert malformed.status_code == 404
    assert "<script>" not in malformed.content.decode()


def test_unknown_api_path_still_gets_the_json_404(client):
    response = client.get("/api/v1/nothing-here")

    assert response.status_code == 404
    assert refusal(response) == {"message": "Not found.", "code": "NOT_FOUND"}


# Speed: queries and conditional requests ------------------------------------------------------


@pytest.mark.parametrize(
    ("format", "page"), [("onepage", ""), ("classic", ""), ("classic", "/2"), ("classic", "/4")]
)
def test_a_page_costs_at_most_three_queries(client, django_assert_max_num_queries, format, page):
    course = CourseFactory(format=format)

    with django_assert_max_num_queries(3):
        response = client.get(f"/go/{course.public_id}{page}")

    assert response.status_code == 200


def test_signing_and_its_confirmation_cost_at_most_three_queries_each(client, django_assert_max_num_queries):
    course = CourseFactory()
    reader = ready_reader(course)

    with django_assert_max_num_queries(3):
        signed = sign(course, reader=reader)
    with django_assert_max_num_queries(3):
        confirmation = client.get(signed.headers["Location"])

    assert signed.status_code == 303
    assert confirmation.status_code == 200


def test_reload_is_answered_with_304(client, django_assert_max_num_queries):
    course = CourseFactory()
    url = f"/go/{course.public_id}"
    first = client.get(url)

    with django_assert_max_num_queries(1):
        by_etag = client.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"])

    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert by_etag.status_code == 304
    assert by_etag.content == b""


def test_a_date_never_stands_for_the_page(client, api_client, api_key):
    # An edit, a deleted source or a deploy changes a page at no date the course keeps: only the ETag
    # can tell, so the page names no Last-Modified, and a date alone is never answered 304.
    course = CourseFactory(api_key=api_key)
    url = f"/go/{course.public_id}"
    first = client.get(url)
    edited = api_client.patch(
        f"/api/v1/courses/{course.public_id}/content", json.dumps({"name": "Renamed"}),
        content_type="application/merge-patch+json", HTTP_IF_MATCH='"1"',
    )

    by_date = client.get(url, HTTP_IF_MODIFIED_SINCE="Fri, 01 Jan 2999 00:00:00 GMT")

    assert "Last-Modified" not in first.headers
    assert edited.status_code == 200
    assert by_date.status_code == 200
    assert "Renamed" in by_date.content.decode()


def test_a_classic_courses_overview_has_one_address(client):
    course = CourseFactory(format="classic")
    overview = client.get(f"/go/{course.public_id}")  # now stored

    assert client.get(f"/go/{course.public_id}/0").status_code == 404
    revalidated = client.get(f"/go/{course.public_id}/0", HTTP_IF_NONE_MATCH=overview.headers["ETag"])
    assert revalidated.status_code == 404


def test_etag_changes_when_the_page_would_render_differently(client, settings):
    course = CourseFactory()
    other = CourseFactory()
    url = f"/go/{course.public_id}"
    etag = client.get(url).headers["ETag"]

    settings.PREVIEW_ALLOW_INDEXING = True
    after_setting = client.get(url, HTTP_IF_NONE_MATCH=etag)
    settings.PUBLIC_BASE_URL = "https://learn.example.org"
    after_moving = client.get(url, HTTP_IF_NONE_MATCH=after_setting.headers["ETag"])

    assert after_setting.status_code == 200
    assert after_setting.headers["ETag"] != etag
    assert client.get(f"/go/{other.public_id}").headers["ETag"] not in (etag, after_setting.headers["ETag"])
    assert after_moving.status_code == 200
    canonical = f'<link rel="canonical" href="https://learn.example.org/go/{course.public_id}">'
    assert canonical in after_moving.content.decode()


def test_a_page_is_rendered_once_then_served_stored_in_one_query(client, django_assert_num_queries):
    course = CourseFactory(format="classic")
    first = client.get(f"/go/{course.public_id}/2")

    with django_assert_num_queries(1):  # the course, without its content: nothing is rendered again
        again = client.get(f"/go/{course.public_id}/2")

    assert first.status_code == again.status_code == 200
    assert again.content == first.content
    assert again.headers["ETag"] == first.headers["ETag"]


def test_a_process_serves_a_page_it_served_before_without_asking_redis(client, settings, caplog, django_assert_num_queries):
    course = CourseFactory()
    first = client.get(f"/go/{course.public_id}")
    settings.CACHE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens here: asking Redis would be logged

    with django_assert_num_queries(1):  # the course, without its content: nothing is rendered again
        again = client.get(f"/go/{course.public_id}")

    assert again.status_code == 200
    assert again.content == first.content
    assert "stored renderings unavailable" not in caplog.text


def test_a_revalidation_costs_one_query_and_no_rendering(client, django_assert_num_queries):
    course = CourseFactory()
    etag = client.get(f"/go/{course.public_id}").headers["ETag"]

    with django_assert_num_queries(1):
        response = client.get(f"/go/{course.public_id}", HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 304


def test_changed_content_is_never_served_from_an_old_stored_page(client):
    course = CourseFactory(format="classic")
    before = client.get(f"/go/{course.public_id}/1")
    document = {**course.content, "chapters": [{**course.content["chapters"][0], "title": "A new first chapter"},
                                               *course.content["chapters"][1:]]}
    Course.objects.filter(pk=course.pk).update(content=document, content_digest=content.digest(document))

    after = client.get(f"/go/{course.public_id}/1", HTTP_IF_NONE_MATCH=before.headers["ETag"])

    assert after.status_code == 200
    assert "A new first chapter" in after.content.decode()
    assert after.headers["ETag"] != before.headers["ETag"]


def read_renderings(api_client, course) -> set[str]:
    """Read the course's JSON and two of its pages, as clients and readers do: the keys they are stored under."""
    api_client.get(f"/api/v1/courses/{course.public_id}")
    etag = Client().get(f"/go/{course.public_id}").headers["ETag"].strip('"')
    Client().get(f"/go/{course.public_id}/1")
    version = Course.objects.get(pk=course.pk).version
    pages = {redis_client.rendering_key("coursepage", course=course.public_id, variant=f"{etag}:{number}") for number in (0, 1)}
    return {redis_client.rendering_key("coursejson", course=course.public_id, variant=f"{version}:0"), *pages}


def stored_renderings(course) -> set[str]:
    return {key.decode() for key in redis_client.cache_client().scan_iter(match=f"course*:{{{course.public_id}}}:*")}


def rename(api_client, course, name: str, *, version: int):
    edited = api_client.patch(
        f"/api/v1/courses/{course.public_id}/content", json.dumps({"name": name}),
        content_type="application/merge-patch+json", HTTP_IF_MATCH=f'"{version}"',
    )
    assert edited.status_code == 200


def test_only_the_latest_versions_renderings_stay_stored(api_client, course):
    for version, name in enumerate(("Second name", "Third name"), start=1):
        read_renderings(api_client, course)
        rename(api_client, course, name, version=version)

    latest = read_renderings(api_client, course)

    assert len(latest) == 3
    assert stored_renderings(course) == latest
    listed = redis_client.cache_client().zrange(f"course-renderings:{{{course.public_id}}}", 0, -1)
    assert {key.decode() for key in listed} == latest


def test_a_page_of_a_version_read_before_an_edit_is_not_stored_after_the_newer_one(api_client, course):
    read_renderings(api_client, course)
    rename(api_client, course, "Second name", version=1)
    latest = read_renderings(api_client, course)

    # A reader who read version 1 just before the edit renders it, and stores it last.
    late = redis_client.rendering_key("coursepage", course=course.public_id, variant="late:2")
    redis_client.store(late, b"<p>old", course=course.public_id, version=1)

    assert stored_renderings(course) == latest


def test_every_reader_of_a_stored_page_gets_a_csrf_token_of_their_own():
    course = CourseFactory(format="onepage")
    readers = [Reader(course) for _ in range(2)]

    pages = [reader.open() for reader in readers]
    tokens = [page.cookies["csrftoken"].value for page in pages]  # what the page's script sends
    for reader in readers:
        reader.ready_to_sign()
    signed = [
        reader.client.post(
            f"/go/{course.public_id}/agreement", {"name": name, "confirm": "yes", "csrfmiddlewaretoken": token}
        )
        for reader, token, name in zip(readers, tokens, ["Ada", "Grace"], strict=True)
    ]

    assert tokens[0] != tokens[1]
    assert pages[0].content == pages[1].content  # nothing of either reader is in the page
    assert [response.status_code for response in signed] == [303, 303]
    assert sorted(course.signoffs.values_list("name", flat=True)) == ["Ada", "Grace"]


def test_pages_are_rendered_while_redis_is_down(client, settings, caplog):
    settings.REDIS_URL = settings.CACHE_REDIS_URL = "redis://127.0.0.1:1/0"
    course = CourseFactory()

    response = client.get(f"/go/{course.public_id}")

    assert response.status_code == 200
    assert course.name in response.content.decode()
    assert "stored renderings unavailable" in caplog.text


def test_static_assets_are_served_by_the_app_with_long_caching(client):
    course = CourseFactory()
    html = client.get(f"/go/{course.public_id}").content.decode()

    for name in ("courses/course.css", "courses/course.js"):
        url = static(name)
        response = client.get(url)

        assert url in html
        assert re.search(r"\.[0-9a-f]{12}\.(css|js)$", url)  # hashed name: changes with the content
        assert response.status_code == 200
        assert "immutable" in response.headers["Cache-Control"]
        assert b"".join(response.streaming_content)


# The agreement --------------------------------------------------------------------------------


def test_signing_the_agreement_records_a_signoff_and_confirms_it(client):
    course = CourseFactory(language_id="fr-FR")
    reader = ready_reader(course, ip="203.0.113.9")

    response = sign(course, name="  Ada   Lovelace ", reader=reader)

    signoff = Signoff.objects.get()
    assert response.status_code == 303
    assert response.headers["Location"].startswith(f"/go/{course.public_id}/signed/")
    assert (signoff.course, signoff.name) == (course, "Ada Lovelace")
    assert reader.learner_cookie.value.startswith(signoff.learner.public_id + ":")  # the reader's
    assert re.fullmatch(r"[0-9a-f]{64}", signoff.ip_hash)
    confirmation = client.get(response.headers["Location"]).content.decode()
    assert "Merci, Ada Lovelace." in confirmation
    assert "Votre attestation a été enregistrée le" in confirmation


def test_the_sign_off_confirmation_address_is_opaque(api_key):
    course = CourseFactory(api_key=api_key)
    browser = Client()

    response = sign(course, name="Ada Lovelace")

    signoff = Signoff.objects.get()
    assert response.status_code == 303
    assert response["Location"] == f"/go/{course.public_id}/signed/{signoff.public_id}"
    assert re.fullmatch(r"sig_[A-Za-z0-9]{22}", signoff.public_id)
    assert "Ada Lovelace" in browser.get(response["Location"]).content.decode()
    assert browser.get(f"/go/{course.public_id}/signed/{signoff.pk}").status_code == 404
    assert browser.get(f"/go/{course.public_id}/signed/sig_0000000000000000000000").status_code == 404


def test_signoff_keeps_a_keyed_hash_of_the_ip_not_the_ip(client):
    course = CourseFactory()

    sign(course, name="First", ip="203.0.113.9")
    sign(course, name="Same place", ip="203.0.113.9")
    sign(course, name="Elsewhere", ip="198.51.100.20")

    hashes = dict(Signoff.objects.values_list("name", "ip_hash"))
    assert hashes["First"] == hashes["Same place"] != hashes["Elsewhere"]
    assert not any("203.0.113.9" in value or "198.51.100.20" in value for value in hashes.values())


def test_signing_needs_a_valid_csrf_token():
    course = CourseFactory()
    reader = ready_reader(course)  # its client checks CSRF tokens, as a browser's requests are
    url = f"/go/{course.public_id}/agreement"

    refused = reader.client.post(url, {"name": "Ada", "confirm": "yes"})
    page = reader.client.get(url).content.decode()  # the agreement on its own page, as without a script
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    accepted = reader.client.post(url, {"name": "Ada", "confirm": "yes", "csrfmiddlewaretoken": token})

    assert refused.status_code == 403
    assert "This form has expired" in refused.content.decode()
    assert accepted.status_code == 303
    assert Signoff.objects.count() == 1


@pytest.mark.parametrize(
    ("name", "confirm", "message"),
    [
        ("", True, "Please type your name."),
        ("   ", True, "Please type your name."),
        ("\x01\x02", True, "Please type your name."),
        ("\u200d\u200c\u200d", True, "Please type your name."),  # joiners only: nothing to read
        ("- . -", True, "Please type your name."),
        ("x" * 201, True, "Please use at most 200 characters."),
        ("Ada", False, "Please tick the box to confirm."),
    ],
)
def test_incomplete_signoff_is_shown_again_with_the_problem(name, confirm, message):
    course = CourseFactory()

    response = sign(course, name=name, confirm=confirm)

    html = response.content.decode()
    assert response.status_code == 400
    assert message in html
    assert 'aria-invalid="true"' in html
    assert "I confirm I completed Intro to SQL." in html
    assert Signoff.objects.count() == 0


def test_a_name_with_a_null_character_is_refused_not_a_server_error():
    course = CourseFactory()

    response = sign(course, name="Ada\x00")

    assert response.status_code == 400
    assert Signoff.objects.count() == 0


def test_signing_is_limited_per_ip():
    course = CourseFactory()
    busy, other = some_ip(), some_ip()
    readers = [ready_reader(course, ip=busy) for _ in range(11)]
    elsewhere_reader = ready_reader(course, ip=other)

    with time_machine.travel(time.time(), tick=False):
        accepted = [sign(course, name=f"Learner {n}", reader=readers[n]).status_code for n in range(10)]
        refused = sign(course, name="One too many", reader=readers[10])
        elsewhere = sign(course, name="Someone else", reader=elsewhere_reader)

    assert accepted == [303] * 10
    assert refused.status_code == 429
    assert "Too many attempts" in refused.content.decode()
    assert elsewhere.status_code == 303
    assert Signoff.objects.count() == 11


def test_signing_still_works_while_the_cache_is_down(settings):
    course = CourseFactory()
    reader = ready_reader(course)
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens here
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }

    response = sign(course, reader=reader)

    assert response.status_code == 303
    assert Signoff.objects.count() == 1


def test_course_without_agreement_takes_no_signoff():
    course = CourseFactory(add_ons=["wrapup"])
    reader = Reader(course)
    reader.send(hello=True, page=4, seen=[0, 1, 2, 3, 4])

    response = sign(course, reader=reader)

    assert response.status_code == 404
    assert Signoff.objects.count() == 0


def test_a_confirmation_link_cannot_be_forged_or_moved_to_another_course(client):
    course = CourseFactory()
    other = CourseFactory()
    location = sign(course).headers["Location"]
    token = location.rsplit("/", 1)[1]

    forged = client.get(f"/go/{course.public_id}/signed/1")
    moved = client.get(f"/go/{other.public_id}/signed/{token}")

    assert client.get(location).status_code == 200
    assert forged.status_code == 404
    assert moved.status_code == 404


def test_a_signoff_before_the_rest_of_the_course_is_done_is_refused_and_says_what_remains():
    # The form opens only once the rest is done; sent around it (a script of one's own, a form
    # kept from before), the sign-off is refused, and nothing of it is recorded.
    course = CourseFactory(format="classic")
    reader = Reader(course)
    reader.send(hello=True, page=1, seen=[0, 1])
    reader.answer(FAILING)

    response = sign(course, reader=reader)

    html = response.content.decode()
    learner = Learner.objects.get()
    assert response.status_code == 409
    assert "Before you sign, finish the course:" in html
    assert f'<a href="/go/{course.public_id}/2">Read chapter 2: Chapter title 2</a>' in html
    assert f'<a href="/go/{course.public_id}/3">Read chapter 3: Chapter title 3</a>' in html
    assert "Read chapter 1:" not in html
    assert f'<a href="/go/{course.public_id}/4#assessment">Pass the assessment</a>' in html
    assert "data-signoff-fields disabled" in html
    assert Signoff.objects.count() == 0
    assert (learner.signed_at, learner.signed_name, learner.completed_at) == (None, "", None)


def test_a_signoff_two_seconds_in_is_refused_as_the_course_was_not_taken():
    # The learner of the report: opened the course, jumped to the agreement and signed.
    course = CourseFactory(format="onepage")
    reader = Reader(course)
    reader.send(hello=True, page=4, seen=[4])

    response = sign(course, reader=reader)

    html = response.content.decode()
    assert response.status_code == 409
    for number in (1, 2, 3):
        assert f'<a href="/go/{course.public_id}/{number}">Read chapter {number}: Chapter title {number}</a>' in html
    assert f'<a href="/go/{course.public_id}#assessment">Pass the assessment</a>' in html
    assert Signoff.objects.count() == 0
    assert Learner.objects.get().completed_at is None


@pytest.mark.parametrize("user_agent", [None, "", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"])
def test_a_signoff_from_a_browser_whose_progress_is_not_recorded_is_refused(user_agent):
    # No cookie of a learner (None: the browser keeps none), or a request that is never a learner's:
    # nothing of theirs is recorded that a sign-off could come after.
    course = CourseFactory()
    reader = ready_reader(course)
    if user_agent is None:
        reader.client.cookies.pop("cgs_learner")
    else:
        reader.client.defaults["HTTP_USER_AGENT"] = user_agent

    response = sign(course, reader=reader)

    html = response.content.decode()
    assert response.status_code == 409
    assert "Your progress is not being recorded in this browser, so you cannot sign here." in html
    assert Signoff.objects.count() == 0
    assert Learner.objects.get().signed_at is None


def test_the_agreements_own_page_opens_its_form_once_the_rest_is_done():
    course = CourseFactory(format="onepage")
    reader = Reader(course)
    url = f"/go/{course.public_id}/agreement"
    reader.send(hello=True, page=2, seen=[0, 1, 2])

    before = reader.client.get(url).content.decode()
    reader.send(page=3, seen=[3])
    reader.answer(PASSING)
    after = reader.client.get(url).content.decode()

    assert "Read chapter 3: Chapter title 3" in before and "Read chapter 2:" not in before
    assert f'href="/go/{course.public_id}#assessment">Pass the assessment</a>' in before
    assert "data-signoff-fields disabled" in before
    assert "Before you sign" not in after
    assert "data-signoff-fields>" in after
    assert sign(course, reader=reader).status_code == 303


def test_a_course_page_lists_all_that_comes_before_its_agreement_for_its_script_to_keep():
    # The page is the same for every reader: its form waits, disabled, and the learner's page script
    # keeps in the list what remains for them (static/courses/learner.js).
    onepage, classic = CourseFactory(format="onepage"), CourseFactory(format="classic")
    client = Client()

    onepage_html = client.get(f"/go/{onepage.public_id}").content.decode()
    closing_html = client.get(f"/go/{classic.public_id}/4").content.decode()

    for html, course in ((onepage_html, onepage), (closing_html, classic)):
        base = f"/go/{course.public_id}"
        chapters = re.findall(r'<li data-remaining-chapter="(\d)"><a href="([^"]+)">', html)
        link = "#chapter-{}" if course.format == "onepage" else base + "/{}"
        assert chapters == [(str(n), link.format(n)) for n in (1, 2, 3)]
        assert '<li data-remaining-assessment><a href="#assessment">Pass the assessment</a></li>' in html
        assert "data-signoff-fields disabled" in html
        assert re.search(r"<p data-signoff-untracked hidden>", html)


def test_record_signoff_tidies_the_name():
    course = CourseFactory()
    learner = LearnerFactory(course=course)
    signer = identity.Known(public_id=learner.public_id, personal=True)
    do_all_but_sign(course, signer)

    signoff = signoffs.record_signoff(
        course=course, name="\tGrace \n Hopper\x07 ", client_ip="203.0.113.9", learner=signer
    )

    assert signoff.name == "Grace Hopper"


def test_record_signoff_refuses_a_course_without_agreement():
    course = CourseFactory(add_ons=[])
    learner = LearnerFactory(course=course)

    with pytest.raises(signoffs.CourseHasNoAgreement):
        signoffs.record_signoff(
            course=course, name="Ada", client_ip="203.0.113.9",
            learner=identity.Known(public_id=learner.public_id, personal=True),
        )


def test_staff_see_signoffs_in_admin(admin_client):
    course = CourseFactory()
    SignoffFactory(course=course, name="Ada Lovelace")

    response = admin_client.get("/admin/learners/signoff/")

    assert response.status_code == 200
    assert "Ada Lovelace" in response.content.decode()
