"""
The public preview page of a course, `/go/<course_id>`: no key, no login, in the course's language.

`onepage` courses are one scrolling page. `classic` courses are an overview at `/go/<id>`, one page
per chapter at `/go/<id>/<n>`, and, when the course has a wrap-up, an assessment or an agreement,
a last page after the chapters. Every generated string is escaped by the templates; Markdown goes
through courses.markdown. Pages are rendered once and stored (see Stored pages): a view costs one
query, two when it renders, three to record a sign-off. A page holds no quiz answers: its script has
the service check them (check_answers).
"""

import functools
import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import etag, require_http_methods, require_POST, require_safe

from core import error_pages, ratelimit, redis_client
from core.ids import looks_like_public_id
from core.lookups import one_or_none
from courses import citation_marks, citations, deletion, markdown, phrases
from courses import content as course_content
from courses.content import CourseContent
from courses.models import Course, Format, RemovedLink
from learners import completion, identity, progress, signoffs
from learners.models import Signoff

_ROOT = Path(settings.BASE_DIR)


# Views ----------------------------------------------------------------------------------------


class CourseGone(Exception):
    """The course of the address was deleted (courses.deletion)."""

    def __init__(self, removed: RemovedLink):
        self.removed = removed


def gone_when_deleted(view):
    """A deleted course's pages answer 410 Gone: a plain page in its language, nothing of the course."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except CourseGone as gone:
            return error_pages.gone_page(
                request,
                language_id=gone.removed.language_id,
                title=_("This course has been removed"),
                text=_("Whoever published it has taken it down. If you still need it, ask them for a new link."),
            )

    return wrapper


def _etag(request, course_id: str, **_kwargs) -> str:
    course = _course(request, course_id)
    digest = hashlib.sha256()
    for part in (
        course.public_id,
        course.content_digest,
        ",".join(course.deleted_source_ids),
        str(course.version),
        course.language_id,
        str(settings.PREVIEW_ALLOW_INDEXING),
        settings.PUBLIC_BASE_URL,  # the page's canonical address
        settings.STATIC_URL,
        settings.CSRF_COOKIE_NAME,  # which cookie the page's script reads the CSRF token from
        page_version(),
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:40]


@gone_when_deleted
@identity.identify_reader
@require_safe
@etag(_etag)
def course_page(request, course_id: str):
    course = _course(request, course_id)
    page = _stored_page(request, course, number=0)
    if page is not None:
        return _respond(request, page)
    course, content = _course_with_document(request, course)
    if course.format == Format.CLASSIC:
        html = _render_classic(course, content, number=0)
    else:
        html = _render_onepage(course, content)
    return _with_etag(request, _respond(request, _store_page(request, course, number=0, html=html)), course)


@gone_when_deleted
@identity.identify_reader
@require_safe
@etag(_etag)
def chapter_page(request, course_id: str, number: int):
    course = _course(request, course_id)
    page = _stored_page(request, course, number=number) if course.format == Format.CLASSIC else None
    if page is not None:
        return _respond(request, page)
    course, content = _course_with_document(request, course)
    if course.format == Format.ONEPAGE:
        if not 1 <= number <= len(content.chapters):
            raise Http404("No such chapter.")
        return HttpResponseRedirect(f"{_course_url(course)}#chapter-{number}")
    if not 1 <= number < len(_classic_pages(course, content)):
        raise Http404("No such chapter.")
    html = _render_classic(course, content, number=number)
    return _with_etag(request, _respond(request, _store_page(request, course, number=number, html=html)), course)


@gone_when_deleted
@require_http_methods(["GET", "HEAD", "POST"])
def sign_agreement(request, course_id: str):
    """
    GET: the agreement on a page of its own, with its form, open once the reader has done the rest
    of the course and until then saying what remains (for a browser that runs no script: the
    course's stored pages leave their form to the script, which gives it the CSRF token). POST:
    record a learner's sign-off of the course's agreement, then show the confirmation; 409 with the
    agreement's page again when the rest is not done (learners.completion).
    """
    course = _course(request, course_id)
    if request.method != "POST":
        course, content = _course_with_document(request, course)
        if content.agreement is None:
            raise Http404("This course has no agreement.")
        signer = _signer(request, course)
        remaining = progress.remaining_for(course_id=course.pk, document=course.content, learner=signer)
        return _agreement_page(
            request, course, content, form=SignoffForm(), remaining=remaining, tracked=signer is not None, status=200
        )
    if _too_many_signoffs(request):
        return _render_message(
            request,
            course,
            title=_("Too many attempts"),
            text=_("Please wait a minute, then try again."),
            status=429,
        )
    course, content = _course_with_document(request, course)
    if content.agreement is None:
        raise Http404("This course has no agreement.")
    form = SignoffForm(request.POST)
    signer = _signer(request, course)
    if form.is_valid():
        try:
            signoff = signoffs.record_signoff(
                course=course,
                name=form.cleaned_data["name"],
                client_ip=ratelimit.client_address(request),
                learner=signer,
            )
        except signoffs.InvalidSignoffName:
            form.add_error("name", SignoffForm.base_fields["name"].error_messages["required"])
        except completion.SignoffTooEarly as early:
            # The form opens only once the rest is done; this one was sent around it.
            return _agreement_page(
                request, course, content, form=form, remaining=early.remaining, tracked=signer is not None,
                status=409,
            )
        except signoffs.CourseDeleted:
            _gone(course.public_id)
        else:
            response = HttpResponseRedirect(reverse("course-signed", args=[course.public_id, signoff.public_id]))
            response.status_code = 303  # See Other: reloading the confirmation never posts again
            return response
    remaining = progress.remaining_for(course_id=course.pk, document=course.content, learner=signer)
    return _agreement_page(
        request, course, content, form=form, remaining=remaining, tracked=signer is not None, status=400
    )


@gone_when_deleted
@require_safe
def signed_page(request, course_id: str, token: str):
    """The confirmation of a sign-off; `token` is its opaque id, which only its signer was sent to."""
    signoff = None
    if looks_like_public_id(token, "sig_"):
        signoffs = Signoff.objects.select_related("course")
        signoff = signoffs.filter(public_id=token, course__public_id=course_id).first()
    if signoff is None:
        _course(request, course_id)  # a deleted course's confirmation is gone too
        raise Http404("No such sign-off.")
    return _respond(request, _render(signoff.course, "preview/signed.html", {"signoff": signoff}))


def _agreement_page(
    request, course: Course, content: CourseContent, *, form, remaining: completion.Remaining, tracked: bool,
    status: int,
) -> HttpResponse:
    # Rendered for this reader, never stored: its form carries the reader's CSRF token, and says
    # what the reader has left to do before it opens.
    context = {
        "agreement": _agreement(course, content, form=form, remaining=remaining, tracked=tracked, on_its_own=True),
        "csrf_token": get_token(request),
    }
    return _respond(request, _render(course, "preview/agreement.html", context), status=status)


def _signer(request, course: Course) -> identity.Known | None:
    """
    The learner who signs: the one the browser names. A browser that keeps no cookies, or a request
    that names a crawler or no User-Agent (never a learner, as with progress), names none, and
    nothing of theirs is recorded that a sign-off could follow.
    """
    if not progress.is_a_learner(request.headers.get("User-Agent", "")):
        return None
    return identity.learner_in(request, course_public_id=course.public_id)


class SignoffForm(forms.Form):
    name = forms.CharField(
        max_length=200,
        error_messages={
            "required": _("Please type your name."),
            "max_length": _("Please use at most 200 characters."),
        },
    )
    confirm = forms.BooleanField(error_messages={"required": _("Please tick the box to confirm.")})


# Stored pages ---------------------------------------------------------------------------------
# A course's pages are rendered once and kept in Redis under their ETag, which changes with the
# content, the language, the settings that shape a page and every template, style, script and
# translation: a change never serves an old page, and old renderings simply expire. Rendering a
# 9-chapter course takes tens of milliseconds; serving the stored page takes one cache read. Nothing
# of the reader ever goes into a page: the CSRF token its forms and script send comes from the CSRF
# cookie each view sets (static/courses/learner.js reads it), as Django documents for scripts.


def _stored_page(request, course: Course, *, number: int) -> bytes | None:
    return redis_client.stored(_stored_page_key(request, course, number))


def _store_page(request, course: Course, *, number: int, html: str) -> bytes:
    page = html.encode()
    redis_client.store(
        _stored_page_key(request, course, number), page, course=course.public_id, version=course.version
    )
    return page


def _stored_page_key(request, course: Course, number: int) -> str:
    return redis_client.rendering_key(
        "coursepage", course=course.public_id, variant=f"{_etag(request, course.public_id)}:{number}"
    )


# Rendering ------------------------------------------------------------------------------------


def _render(course: Course, template: str, context: dict) -> str:
    """The page's HTML, in the course's language: the same for every reader."""
    with translation.override(course.language_id):
        return render_to_string(
            template,
            {
                "course": course,
                "html_lang": course.language_id,
                "og_locale": course.language_id.replace("-", "_"),
                "course_url": _course_url(course),
                "share_url": course.share_url,
                "allow_indexing": settings.PREVIEW_ALLOW_INDEXING,
                "csrf_cookie_name": settings.CSRF_COOKIE_NAME,
                "progress_url": reverse("course-progress", args=[course.public_id]),
                **context,
            },
        )


def _respond(request, page: str | bytes, status: int = 200) -> HttpResponse:
    get_token(request)  # the CSRF cookie the page's forms and script send their token from
    response = HttpResponse(page, status=status)
    if not settings.PREVIEW_ALLOW_INDEXING:
        response["X-Robots-Tag"] = "noindex, nofollow"
    # Private: a course page sets the reader's CSRF cookie. no-cache: browsers check back on every
    # visit, and get a 304 while nothing changed.
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _render_message(request, course: Course, *, title, text, status: int):
    context = {"title": title, "text": text}
    return _respond(request, _render(course, "preview/message.html", context), status=status)


def _citing(course: Course, content: CourseContent) -> citation_marks.Citing:
    """The citation marks of a page, in the course's language."""
    return _citing_for(content, course.deleted_source_ids, language_id=course.language_id)


def _citing_for(
    content: CourseContent, deleted_source_ids, *, language_id: str | None = None, ids: str = "cite"
) -> citation_marks.Citing:
    language_id = language_id or content.language_id
    with translation.override(language_id):
        open_quote, close_quote = phrases.quotation_marks(language_id)
        words = citation_marks.Words(
            source=str(_("Source {number}")),
            page=str(_("page {page}")),
            slide=str(_("slide {page}")),
            deleted=str(_("source deleted")),
            open_quote=open_quote,
            close_quote=close_quote,
        )
    return citation_marks.Citing(citations.References(content, deleted_source_ids), words, ids=ids)


def _render_onepage(course: Course, content: CourseContent) -> str:
    citing = _citing(course, content)
    context = {
        "doc": _document(content, lesson_level=3, citing=citing),
        "sections": _onepage_sections(content, citing=citing),
        "introduction": markdown.render(content.introduction, top_heading=3),
        **_closing(course, content, citing=citing),
    }
    context["sources"] = citing.source_list()
    return _render(course, "preview/onepage.html", context)


@dataclass
class ClassicPage:
    number: int
    title: str
    url: str
    kind: str  # "overview", "chapter" or "closing"


def _render_classic(course: Course, content: CourseContent, *, number: int) -> str:
    pages = _classic_pages(course, content)
    page = pages[number]
    citing = _citing(course, content)
    context = {
        "pages": pages,
        "page": page,
        "previous_page": pages[number - 1] if number > 0 else None,
        "next_page": pages[number + 1] if number + 1 < len(pages) else None,
        "position": number + 1,
        "page_count": len(pages),
        "page_url": f"{settings.PUBLIC_BASE_URL}{page.url}",
    }
    if page.kind == "overview":
        context["introduction"] = markdown.render(content.introduction, top_heading=3)
        context["outline"] = [
            {"url": item.url, "number": item.number, "title": item.title, "summary": chapter.summary}
            for item, chapter in zip(pages[1:], content.chapters, strict=False)  # then the closing page
        ]
    elif page.kind == "chapter":
        context["chapter"] = _chapter(number, content.chapters[number - 1], lesson_level=2, citing=citing)
        context["doc"] = {"lesson_level": 2, "detail_level": 3}
    else:
        context.update(_closing(course, content, citing=citing))
    context["sources"] = citing.source_list()
    return _render(course, "preview/classic.html", context)


def _classic_pages(course: Course, content: CourseContent) -> list[ClassicPage]:
    """The overview, one page per chapter, and the closing page when there is something to close with."""
    base = _course_url(course)
    pages = [ClassicPage(number=0, title=_("Introduction"), url=base, kind="overview")]
    for number, chapter in enumerate(content.chapters, start=1):
        pages.append(ClassicPage(number=number, title=chapter.title, url=f"{base}/{number}", kind="chapter"))
    if content.wrapup or content.assessment or content.agreement:
        last = len(pages)
        pages.append(ClassicPage(number=last, title=_("Final steps"), url=f"{base}/{last}", kind="closing"))
    return pages


def _onepage_sections(content: CourseContent, *, citing: citation_marks.Citing) -> list[dict]:
    sections = [{"anchor": "introduction", "title": _("Introduction")}]
    for number, chapter in enumerate(content.chapters, start=1):
        sections.append({"anchor": f"chapter-{number}", "title": chapter.title, "number": number})
    if content.wrapup:
        sections.append({"anchor": "wrap-up", "title": _("Wrap-up")})
    if content.assessment:
        sections.append({"anchor": "assessment", "title": _("Assessment")})
    if content.agreement:
        sections.append({"anchor": "agreement", "title": _("Agreement")})
    if citing.references:
        sections.append({"anchor": "sources", "title": _("Sources")})
    return sections


def _document(content: CourseContent, *, lesson_level: int, citing: citation_marks.Citing) -> dict:
    """Every chapter with its Markdown rendered, for headings that start at `lesson_level`."""
    return {
        "chapters": [
            _chapter(number, chapter, lesson_level=lesson_level, citing=citing)
            for number, chapter in enumerate(content.chapters, start=1)
        ],
        "lesson_level": lesson_level,
        "detail_level": lesson_level + 1,
    }


def _chapter(c: int, chapter, *, lesson_level: int, citing: citation_marks.Citing) -> dict:
    lessons = [
        {
            "number": f"{c}.{n}",
            "anchor": f"lesson-{c}-{n}",
            "title": lesson.title,
            "body": citing.markdown(lesson.body, lesson.citations, top_heading=lesson_level + 1),
            "exercise": lesson.exercise,
            "exercise_marks": citing.line(lesson.exercise.citations) if lesson.exercise else "",
            "video": _video(lesson.video) if lesson.video else None,
        }
        for n, lesson in enumerate(chapter.lessons, start=1)
    ]
    article = None
    if chapter.article:
        article = {
            "anchor": f"article-{c}",
            "title": chapter.article.title,
            "body": citing.markdown(chapter.article.body, chapter.article.citations, top_heading=lesson_level + 1),
        }
    return {
        "number": c,
        "anchor": f"chapter-{c}",
        "title": chapter.title,
        "summary": chapter.summary,
        "lessons": lessons,
        "article": article,
    }


def _video(video) -> dict:
    if video.kind == "youtube":
        return {
            "kind": "youtube",
            "title": video.title,
            "embed_url": f"https://www.youtube-nocookie.com/embed/{video.video_id}",
            "url": f"https://www.youtube.com/watch?{urlencode({'v': video.video_id})}",
        }
    # Only a YouTube search link is ever followed from a suggestion; anything else is rebuilt.
    url = video.url
    if not url.startswith("https://www.youtube.com/results?"):
        url = f"https://www.youtube.com/results?{urlencode({'search_query': video.query})}"
    return {"kind": "search", "title": video.title, "url": url}


def _closing(course: Course, content: CourseContent, *, citing: citation_marks.Citing) -> dict:
    # The closing sections are one page of the course (learners.progress numbers them so).
    closing = {"wrapup": None, "assessment": None, "agreement": None, "closing_page": len(content.chapters) + 1}
    if content.wrapup:
        closing["wrapup"] = {
            "summary": markdown.render(content.wrapup.summary, top_heading=3),
            "key_takeaways": content.wrapup.key_takeaways,
            "marks": citing.line(content.wrapup.citations),
        }
    if content.assessment:
        # The prompts and options only: the answers, the explanations and the citations (whose
        # quotes state the answers) come from the service once it has scored an attempt.
        questions = [{"prompt": question.prompt, "options": question.options} for question in content.assessment.questions]
        closing["assessment"] = {
            "questions": questions,
            "needed": math.ceil(len(questions) * content.assessment.passing_score_percent / 100),
            "total": len(questions),
            "check_url": reverse("course-quiz", args=[course.public_id]),
        }
    if content.agreement:
        closing["agreement"] = _agreement(course, content, form=SignoffForm())
    return closing


def _agreement(
    course: Course, content: CourseContent, *, form: SignoffForm, remaining: completion.Remaining | None = None,
    tracked: bool = True, on_its_own: bool = False,
) -> dict:
    """
    The agreement and its form, which opens once the rest of the course is done
    (learners.completion). A course page, the same for every reader, lists all that comes before
    the agreement, and its script strikes what the reader has done (static/courses/learner.js); the
    agreement's own page (`on_its_own`) lists what `remaining` says for its reader.
    """
    base = _course_url(course)
    on_one_page = course.format == Format.ONEPAGE and not on_its_own
    chapters = [
        {"number": number, "title": chapter.title, "url": f"#chapter-{number}" if on_one_page else f"{base}/{number}"}
        for number, chapter in enumerate(content.chapters, start=1)
        if remaining is None or number in remaining.chapters
    ]
    assessment_url = None
    if content.assessment is not None and (remaining is None or remaining.assessment):
        if not on_its_own:
            assessment_url = "#assessment"  # on the same page
        elif course.format == Format.ONEPAGE:
            assessment_url = f"{base}#assessment"
        else:
            assessment_url = f"{base}/{len(content.chapters) + 1}#assessment"  # the closing page
    return {
        "statement": markdown.render(content.agreement.statement, top_heading=3),
        "form": form,
        "action": reverse("course-sign", args=[course.public_id]),
        "chapters": chapters,
        "assessment_url": assessment_url,
        "open": remaining is not None and remaining.may_sign and tracked,
        "tracked": tracked,
    }


# Progress, from the page's script ---------------------------------------------------------------------


@require_POST
def record_progress(request, course_id: str):
    """
    A batch of progress from the preview page's script (CSRF-protected, form-encoded, so that the
    `pagehide` beacon can send it too), for the learner the browser's cookie names. 204, or 200 with
    where to resume, when the learner signed and what remains of the course for the first batch of
    a page; 429 with Retry-After when the learner sent too much.
    """
    if not progress.is_a_learner(request.headers.get("User-Agent", "")):
        return _no_store(HttpResponse(status=204))  # crawlers and link previews make no learners
    known = identity.learner_in(request, course_public_id=course_id)
    try:
        batch = progress.parse_batch(request.POST.get("batch"))
        recorded = progress.record(
            course_public_id=course_id,
            learner=known,
            batch=batch,
            client_address=ratelimit.client_address(request),
        )
    except (progress.TooManyRequests, progress.InvalidBatch, progress.CourseNotFound) as exc:
        return _refused(exc)
    if recorded is None:  # a browser that keeps no cookies: its batches could not be told apart
        return _no_store(HttpResponse(status=204))
    if batch.hello:
        response = JsonResponse(
            {"resume": recorded.resume, "signedAt": recorded.signed_at, "remaining": recorded.remaining.as_json()}
        )
    else:
        response = HttpResponse(status=204)
    if recorded.learner != known:
        identity.remember(response, course_public_id=course_id, learner=recorded.learner)
    return _no_store(response)


@require_POST
def check_answers(request, course_id: str):
    """
    A quiz attempt from the preview page's script (CSRF-protected, form-encoded, as progress is):
    scored by the service against the assessment of the version the page showed, recorded for the
    learner the browser's cookie names, and answered with the verdict, each question's answer and
    explanation, and what remains of the course. The page holds no answer key; a browser whose
    progress is not recorded is answered all the same. 429 with Retry-After when too many came.
    """
    known = None
    if progress.is_a_learner(request.headers.get("User-Agent", "")):
        known = identity.learner_in(request, course_public_id=course_id)
    try:
        scored, recorded = progress.check_attempt(
            course_public_id=course_id,
            learner=known,
            attempt=progress.parse_attempt(request.POST.get("attempt")),
            client_address=ratelimit.client_address(request),
        )
    except (progress.TooManyRequests, progress.InvalidAttempt, progress.CourseNotFound) as exc:
        return _refused(exc)
    response = JsonResponse(
        {
            "score": scored.score,
            "correct": scored.correct,
            "questions": scored.questions,
            "needed": scored.needed,
            "passed": scored.passed,
            "recorded": recorded is not None,
            "remaining": None if recorded is None else recorded.remaining.as_json(),
            "results": _answers(scored),
        }
    )
    if recorded is not None and recorded.learner != known:
        identity.remember(response, course_public_id=course_id, learner=recorded.learner)
    return _no_store(response)


def _answers(scored: progress.Scored) -> list[dict]:
    """Each question's verdict, its right option and its explanation as HTML, with its citation marks."""
    content = course_content.read_stored(scored.document)
    citing = _citing_for(content, scored.deleted_source_ids, ids="answer-cite")  # beside the page's own marks
    return [
        {
            "right": right,
            "answer": question.correct_index,
            "explanationHtml": str(format_html("{}{}", question.explanation, citing.line(question.citations))),
        }
        for question, right in zip(content.assessment.questions, scored.right, strict=True)
    ]


def _refused(error) -> JsonResponse:
    """What the page's script is answered when a batch or an attempt is refused, never kept by a cache."""
    response = JsonResponse({"message": error.message, "code": error.code}, status=error.status)
    if isinstance(error, progress.TooManyRequests):
        response["Retry-After"] = str(error.retry_after_seconds)
    return _no_store(response)


def _no_store(response):
    response["Cache-Control"] = "no-store"
    return response


# Helpers --------------------------------------------------------------------------------------


def _course(request, course_id: str) -> Course:
    """The course of this request, loaded once (the ETag and the view share it)."""
    cached = getattr(request, "_preview_course", None)
    if cached is not None and cached.public_id == course_id:
        return cached
    course = None
    if looks_like_public_id(course_id, "cou_"):
        course = one_or_none(Course.objects.defer("content").filter(public_id=course_id))
    if course is None:
        _gone(course_id)
    request._preview_course = course
    return course


def _course_with_document(request, course: Course) -> tuple[Course, CourseContent]:
    """
    The course read again, whole, with its document: the page is rendered from what the course is
    now. An edit committed since it was looked up (for the ETag) then makes a page with its own
    ETag and key, never a newer document under the older ETag.
    :raises CourseGone, Http404: for a course deleted meanwhile
    """
    fresh = one_or_none(Course.objects.filter(pk=course.pk))
    if fresh is None:
        _gone(course.public_id)
    request._preview_course = fresh  # the ETag and the stored page's key follow it
    return fresh, course_content.read_stored(fresh.content)


def _with_etag(request, response: HttpResponse, course: Course) -> HttpResponse:
    # A page just made carries the ETag of the course it was made from, which an edit committed
    # since the lookup changed; @etag sets the one it looked up only where the view set none.
    # A stored page was found under the looked-up ETag: it needs nothing.
    response["ETag"] = f'"{_etag(request, course.public_id)}"'
    return response


def _gone(course_id: str) -> NoReturn:
    """:raises CourseGone: for a deleted course (410), or Http404 for one that never was"""
    removed = deletion.is_removed(course_id) if looks_like_public_id(course_id, "cou_") else None
    if removed is not None:
        raise CourseGone(removed)
    raise Http404("No such course.")


def _course_url(course: Course) -> str:
    return reverse("course-page", args=[course.public_id])


def _too_many_signoffs(request) -> bool:
    # Fails open: a sign-off matters more than its rate limit, so with the cache down, take it.
    return ratelimit.too_many_from_address(
        request, group="courses.signoff", rate=settings.PREVIEW_SIGNOFF_RATE
    )


@functools.cache
def page_version() -> str:
    """
    A digest of everything besides the course that shapes the page (templates, static files,
    translations, and the code of the apps that render it: Markdown, citation marks, the texts
    generated per language), so a deploy that changes any of them changes every ETag.
    """
    digest = hashlib.sha256()
    files = [
        *sorted((_ROOT / "templates").rglob("*.html")),
        *sorted((_ROOT / "static").rglob("*")),
        *sorted((_ROOT / "locale").rglob("*.mo")),
        *sorted(path for app in ("core", "courses", "learners", "preview") for path in (_ROOT / app).rglob("*.py")
                if "migrations" not in path.parts),
    ]
    for path in files:
        if path.is_file():
            digest.update(str(path.relative_to(_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


