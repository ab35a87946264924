import hashlib
import json
import time
import urllib.parse

import pytest
from werkzeug import Response

from courses.generation import videos
from tests.support.fake_openai import closed_port_url
from tests.support.generation import generate
from tests.support.samples import ALL_ADD_ONS
from tests.support.walk import assert_complete


def video_id_for(query: str) -> str:
    return "v" + hashlib.sha256(query.encode()).hexdigest()[:10]


def youtube_search(request):
    """The YouTube Data API v3 search endpoint: one different video per query."""
    query = request.args["q"]
    answer = {
        "kind": "youtube#searchListResponse",
        "items": [
            {
                "kind": "youtube#searchResult",
                "id": {"kind": "youtube#video", "videoId": video_id_for(query)},
                "snippet": {"title": f"Learn it &amp; love it: {query}", "channelTitle": "Teacher"},
            }
        ],
    }
    return Response(json.dumps(answer), content_type="application/json")


@pytest.fixture
def youtube(httpserver, settings):
    settings.YOUTUBE_API_KEY = "yt-test-key"
    settings.YOUTUBE_API_BASE_URL = httpserver.url_for("/youtube/v3")
    return httpserver


def test_with_a_youtube_key_every_lesson_gets_a_video_found_by_search(youtube):
    youtube.expect_request("/youtube/v3/search", method="GET").respond_with_handler(youtube_search)

    course = generate(language_id="pt-BR", outline=["Junções"], add_ons=["videos"])

    lessons = course.chapters[0].lessons
    assert [lesson.video.kind for lesson in lessons] == ["youtube"] * 3
    first = lessons[0].video
    assert first.query == "Intro to SQL Junções explicação"
    assert first.video_id == video_id_for(first.query)
    assert first.url == f"https://www.youtube.com/watch?v={first.video_id}"
    assert first.title == "Learn it & love it: Intro to SQL Junções explicação"
    searches = [request.args for request, _ in youtube.log]
    assert len(searches) == 3
    assert searches[0]["key"] == "yt-test-key"
    assert (searches[0]["part"], searches[0]["type"], searches[0]["relevanceLanguage"]) == (
        "snippet",
        "video",
        "pt",
    )
    assert sorted(args["q"] for args in searches) == sorted(lesson.video.query for lesson in lessons)


def test_lessons_do_not_repeat_a_video(youtube):
    same_video = {"items": [{"id": {"videoId": "dQw4w9WgXcQ"}, "snippet": {"title": "The one video"}}]}
    youtube.expect_request("/youtube/v3/search").respond_with_json(same_video)

    course = generate(outline=["Joins"], add_ons=["videos"])

    kinds = [lesson.video.kind for lesson in course.chapters[0].lessons]
    assert kinds == ["youtube", "search", "search"]


def test_youtube_refusing_degrades_to_search_links_and_stops_asking(youtube):
    quota = {"error": {"code": 403, "message": "quotaExceeded", "errors": [{"reason": "quotaExceeded"}]}}
    youtube.expect_request("/youtube/v3/search").respond_with_json(quota, status=403)

    course = generate(add_ons=ALL_ADD_ONS)

    assert_complete(course, language_id="en-US", format="onepage", add_ons=ALL_ADD_ONS)
    lessons = [lesson for chapter in course.chapters for lesson in chapter.lessons]
    assert {lesson.video.kind for lesson in lessons} == {"search"}
    assert len(youtube.log) <= videos.CONCURRENCY < len(lessons)


@pytest.mark.parametrize("answer", ["not json", json.dumps({"items": [{"id": {"videoId": "bad id!"}}]})])
def test_unusable_youtube_answer_degrades_to_search_links(youtube, answer):
    youtube.expect_request("/youtube/v3/search").respond_with_data(answer, content_type="application/json")

    course = generate(add_ons=["videos"])

    assert {lesson.video.kind for chapter in course.chapters for lesson in chapter.lessons} == {"search"}


def test_unreachable_youtube_degrades_to_search_links(settings):
    settings.YOUTUBE_API_KEY = "yt-test-key"
    settings.YOUTUBE_API_BASE_URL = closed_port_url()

    course = generate(add_ons=["videos"])

    assert {lesson.video.kind for chapter in course.chapters for lesson in chapter.lessons} == {"search"}


def test_without_a_youtube_key_youtube_is_never_asked(httpserver, settings):
    settings.YOUTUBE_API_BASE_URL = httpserver.url_for("/youtube/v3")

    course = generate(add_ons=["videos"])

    assert {lesson.video.kind for chapter in course.chapters for lesson in chapter.lessons} == {"search"}
    assert httpserver.log == []


def test_openai_course_searches_youtube_with_the_queries_the_model_wrote(openai_generator, youtube):
    youtube.expect_request("/youtube/v3/search").respond_with_handler(youtube_search)

    course = generate(language_id="de-DE", add_ons=["videos"])

    lessons = [lesson for chapter in course.chapters for lesson in chapter.lessons]
    assert {lesson.video.kind for lesson in lessons} == {"youtube"}
    assert {args["q"] for args in (request.args for request, _ in youtube.log)} == {
        lesson.video.query for lesson in lessons
    }
    assert all(lesson.video.query.startswith("Diese Lektion") for lesson in lessons)


def test_search_link_for_a_long_non_latin_query_stays_within_the_schema():
    video = videos.search_video(query="日本語の文法と会話 🚀 " * 30, language_id="fr-FR")

    assert len(video.url) <= 500
    assert video.url.startswith("https://www.youtube.com/results?search_query=")
    assert urllib.parse.unquote_plus(video.url.split("=", 1)[1]) == video.query
    assert video.title.startswith("Recherche YouTube\u00a0: ")


def test_video_lookup_past_the_deadline_gives_search_links_without_asking(youtube):
    youtube.expect_request("/youtube/v3/search").respond_with_handler(youtube_search)

    found = videos.videos_for_lessons(
        queries=["sql joins", "sql indexes"], language_id="en-US", deadline=time.monotonic() - 1
    )

    assert [video.kind for video in found] == ["search", "search"]
    assert youtube.log == []
