"""
The course player: the whole course as one self-contained HTML page, with its stylesheet and
script, the same in every package format (a SCORM SCO, a cmi5 AU). Each format adds the runtime
script that connects the player to its kind of LMS (see the contract at the top of sco.js).

All course text is rendered here, on the server, by Django's autoescaping template engine
(Markdown through courses.markdown, which sanitises); the JavaScript only shows and hides pages and
talks to the LMS, and never turns data into markup. Nothing is loaded from outside the package, and
the page's Content-Security-Policy forbids it, so the player works offline and never calls home.
"""

import functools
import hashlib
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from django.template import Context, Engine

from courses import citation_marks, citations, markdown, phrases
from courses.content import Assessment, CourseContent, Video
from exports.player.strings import words_for

HERE = Path(__file__).resolve().parent
LAUNCH_PAGE = "index.html"
STYLESHEET = "assets/sco.css"
PLAYER_SCRIPT = "assets/sco.js"

_ENGINE = Engine(dirs=[str(HERE / "templates")], autoescape=True)


@dataclass(frozen=True)
class Runtime:
    """The script that connects the player to one kind of LMS."""

    path: str  # where the package holds it, loaded before the player's own script
    source: Path  # the file in this repository
    version: str  # handed to it as the page's config.version
    # Where it may send requests besides the package (the page's CSP connect-src); by default nowhere.
    connect_src: str = ""


@functools.cache
def _read(path: Path) -> bytes:
    return path.read_bytes()


def files(*, content: CourseContent, runtime: Runtime) -> dict[str, bytes]:
    """Every file of the player by its path in the package, the launch page first."""
    return {
        LAUNCH_PAGE: render_launch_page(content=content, runtime=runtime),
        STYLESHEET: _read(HERE / STYLESHEET),
        runtime.path: _read(runtime.source),
        PLAYER_SCRIPT: _read(HERE / PLAYER_SCRIPT),
    }


def render_launch_page(*, content: CourseContent, runtime: Runtime) -> bytes:
    words = words_for(content.language_id)
    pages = _pages(content, words)
    assessment = content.assessment
    config = {
        "version": runtime.version,
        "passPercent": assessment.passing_score_percent if assessment else None,
        "key": answer_key(assessment) if assessment else None,
        "words": {
            key: words[key]
            for key in (
                "page_of",
                "score",
                "passed",
                "failed",
                "correct",
                "incorrect",
                "answer_all",
                "assessment_needed",
                "confirmed",
                "agreement_needed",
                "finish",
                "finished",
                "finish_incomplete",
                "finished_incomplete",
                "no_lms",
                "lms_failed",
                "session_ended",
            )
        },
    }
    context = {
        "language_id": content.language_id,
        "name": content.name,
        "headline": content.headline,
        "words": words,
        "pages": pages,
        "to_do": _to_do(pages, words),
        "config": config,
        "runtime_script": runtime.path,
        "connect_src": runtime.connect_src,
        "player_script": PLAYER_SCRIPT,
        "stylesheet": STYLESHEET,
    }
    return _ENGINE.get_template("player/index.html").render(Context(context)).encode("utf-8")


def answer_key(assessment: Assessment) -> dict:
    """
    The answers, for the player to score offline (a package scored inside an LMS must carry them),
    out of plain sight: each question's right option as a digest salted per assessment, which the
    player matches the chosen options against (sco.js). Whoever reads the player's script can still
    work the answers out: a deterrent, not a lock (docs/how-it-works/export.md).
    """
    prompts = "\0".join(question.prompt for question in assessment.questions)
    salt = hashlib.sha256(prompts.encode()).hexdigest()[:16]
    return {
        "salt": salt,
        "marks": [_digest(f"{salt}:{number}:{question.correct_index}") for number, question in enumerate(assessment.questions)],
    }


def _digest(text: str) -> str:
    """FNV-1a (32 bits) of ASCII text, in hex: small enough for the player to compute in plain ES5."""
    value = 0x811C9DC5
    for byte in text.encode("ascii"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def _to_do(pages: list[dict], words: dict[str, str]) -> list[dict]:
    """What completing the course asks before its agreement, each item leading to its page (sco.js)."""
    items = []
    for index, page in enumerate(pages):
        if page["kind"] == "chapter":
            text = words["read_chapter"] % {"number": page["number"], "title": page["chapter"]["title"]}
            items.append({"page": index, "text": text})
        elif page["kind"] == "assessment":
            items.append({"page": index, "text": words["pass_assessment"]})
    return items


def _citing(content: CourseContent, words: dict[str, str]) -> citation_marks.Citing:
    open_quote, close_quote = phrases.quotation_marks(content.language_id)
    marks_words = citation_marks.Words(
        source=words["source_mark"],
        page=words["source_page"],
        slide=words["source_slide"],
        deleted=words["source_deleted"],
        open_quote=open_quote,
        close_quote=close_quote,
    )
    # The document's sources say which are deleted (exports.services marks them before packaging).
    return citation_marks.Citing(citations.References(content), marks_words)


def _pages(content: CourseContent, words: dict[str, str]) -> list[dict]:
    """
    The player's pages in reading order; the assessment and agreement gate the finish page. A page
    that cites lists its sources at its end.
    """
    citing = _citing(content, words)
    pages: list[dict] = [
        {
            "kind": "introduction",
            "title": words["introduction"],
            "introduction": markdown.render(content.introduction, top_heading=2),
        }
    ]
    for number, chapter in enumerate(content.chapters, start=1):
        citing.next_page(f"p{len(pages)}-source")
        label = words["chapter"] % {"number": number}
        pages.append(
            {
                "kind": "chapter",
                "number": number,
                "label": label,
                "title": f"{label}: {chapter.title}",
                "chapter": {
                    "title": chapter.title,
                    "summary": chapter.summary,
                    "lessons": [
                        {
                            "title": lesson.title,
                            "body": citing.markdown(lesson.body, lesson.citations, top_heading=3),
                            "exercise": lesson.exercise,
                            "exercise_marks": citing.line(lesson.exercise.citations) if lesson.exercise else "",
                            "video": _video(lesson.video, words) if lesson.video else None,
                        }
                        for lesson in chapter.lessons
                    ],
                    "article": {
                        "title": chapter.article.title,
                        "body": citing.markdown(chapter.article.body, chapter.article.citations, top_heading=3),
                    }
                    if chapter.article
                    else None,
                },
                "sources": citing.source_list(),
            }
        )
    if content.wrapup:
        citing.next_page(f"p{len(pages)}-source")
        pages.append(
            {
                "kind": "wrapup",
                "title": words["wrapup"],
                "summary": markdown.render(content.wrapup.summary, top_heading=2),
                "key_takeaways": content.wrapup.key_takeaways,
                "marks": citing.line(content.wrapup.citations),
                "sources": citing.source_list(),
            }
        )
    if content.assessment:
        citing.next_page(f"p{len(pages)}-source")
        questions = [
            {
                "label": words["question"].format(number=number),
                "prompt": question.prompt,
                "options": question.options,
                "explanation": question.explanation,
                # With the explanation, shown once the answers are in: the quote states the answer.
                "marks": citing.line(question.citations),
            }
            for number, question in enumerate(content.assessment.questions, start=1)
        ]
        pages.append(
            {
                "kind": "assessment",
                "title": words["assessment"],
                "intro": words["assessment_intro"].format(percent=content.assessment.passing_score_percent),
                "questions": questions,
                "sources": citing.source_list(),
            }
        )
    if content.agreement:
        pages.append(
            {
                "kind": "agreement",
                "title": words["agreement"],
                "statement": markdown.render(content.agreement.statement, top_heading=2),
            }
        )
    pages.append({"kind": "finish", "title": words["finish"]})
    return pages


def _video(video: Video, words: dict[str, str]) -> dict:
    # The link is built from the video id or the search query, never taken from the document's
    # url, so it can only ever point at YouTube. It is a link, not an embedded player: an embed
    # would load YouTube inside the LMS (no offline use, a call home on every page view).
    if video.kind == "youtube":
        link = "https://www.youtube.com/watch?" + urllib.parse.urlencode({"v": video.video_id})
        link_text = words["watch_video"]
    else:
        link = "https://www.youtube.com/results?" + urllib.parse.urlencode({"search_query": video.query})
        link_text = words["search_videos"]
    return {"title": video.title, "link": link, "link_text": link_text}
