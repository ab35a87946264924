"""
A video for every lesson: with settings.YOUTUBE_API_KEY, the best match from the YouTube Data API
v3 search endpoint; without it, or when YouTube fails, a suggested search query and a link to the
YouTube results page. Looking up videos never fails a course.
"""

import html
import http.client
import json
import logging
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.utils.translation import gettext_noop as _

from courses import content, phrases
from courses.generation.base import clip

log = logging.getLogger(__name__)

# Searches in flight at once for one course.
CONCURRENCY = 4
# Candidates asked for per lesson, so neighbouring lessons can get different videos.
CANDIDATES_PER_SEARCH = 5
QUERY_MAX = 100
SEARCH_PAGE = "https://www.youtube.com/results?search_query="
WATCH_PAGE = "https://www.youtube.com/watch?v="
_VIDEO_ID = re.compile(r"^[A-Za-z0-9_-]{6,20}$")

SEARCH_TITLE = _("YouTube search: {query}")


def videos_for_lessons(*, queries: list[str], language_id: str, deadline: float) -> list[content.Video]:
    """One video per query, in order: found on YouTube when a key is set, else a search link."""
    if not settings.YOUTUBE_API_KEY or not queries:
        return [search_video(query=query, language_id=language_id) for query in queries]
    giving_up = threading.Event()
    with ThreadPoolExecutor(max_workers=CONCURRENCY, thread_name_prefix="youtube") as executor:
        candidates = list(
            executor.map(
                lambda query: _candidates(
                    query=query, language_id=language_id, deadline=deadline, giving_up=giving_up
                ),
                queries,
            )
        )
    used: set[str] = set()
    found = []
    for query, options in zip(queries, candidates, strict=True):
        fresh = next(((video_id, title) for video_id, title in options if video_id not in used), None)
        if fresh is None:
            found.append(search_video(query=query, language_id=language_id))
            continue
        video_id, title = fresh
        used.add(video_id)
        found.append(
            content.Video(
                kind="youtube",
                title=title,
                query=clip(query, QUERY_MAX),
                url=WATCH_PAGE + video_id,
                video_id=video_id,
            )
        )
    return found


def search_video(*, query: str, language_id: str) -> content.Video:
    """A suggested search: the query and a link to YouTube's results for it."""
    query = clip(query, QUERY_MAX)
    # Non-Latin text grows up to 12-fold when percent-encoded: shorten until the link fits.
    while len(search_url(query)) > content.TEXT_MAX:
        query = clip(query, len(query) - 5)
    return content.Video(
        kind="search",
        title=clip(phrases.translated(SEARCH_TITLE, language_id).format(query=query)),
        query=query,
        url=search_url(query),
    )


def search_url(query: str) -> str:
    return SEARCH_PAGE + urllib.parse.quote_plus(query)


def _candidates(
    *, query: str, language_id: str, deadline: float, giving_up: threading.Event
) -> list[tuple[str, str]]:
    """(video_id, title) pairs YouTube finds for the query; empty when it cannot be asked or fails."""
    timeout = min(settings.YOUTUBE_TIMEOUT_S, deadline - time.monotonic())
    if giving_up.is_set() or timeout <= 0:
        return []
    parameters = {
        "part": "snippet",
        "type": "video",
        "videoEmbeddable": "true",
        "safeSearch": "strict",
        "maxResults": CANDIDATES_PER_SEARCH,
        "q": clip(query, QUERY_MAX),
        "relevanceLanguage": language_id.split("-")[0],
        "key": settings.YOUTUBE_API_KEY,
    }
    url = f"{settings.YOUTUBE_API_BASE_URL}/search?{urllib.parse.urlencode(parameters)}"
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers={"Accept": "application/json"}), timeout=timeout
        ) as response:
            answer = json.loads(response.read(2_000_000))
        return [
            (item["id"]["videoId"], clip(html.unescape(item["snippet"]["title"])) or clip(query))
            for item in answer.get("items", [])
            if _VIDEO_ID.match(str(item.get("id", {}).get("videoId", "")))
        ]
    except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError, AttributeError) as exc:
        # A quota, key or outage problem fails every search alike: stop asking for this course
        # (the URL holds the key, so it is never logged).
        giving_up.set()
        log.warning(
            "videos.youtube_search_failed",
            extra={"status": getattr(exc, "code", None), "error": type(exc).__name__},
        )
        return []
