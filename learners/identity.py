"""
How the preview page knows a learner: a first-party cookie per course, and personal links.

- The cookie (`cgs_learner`, HttpOnly, SameSite=Lax, a year) holds the learner's id, signed with
  SECRET_KEY, on the course's own path (`/go/<course id>`): each course a browser visits has a
  learner of its own. It is set by the first progress the page sends (a visitor whose browser runs
  no script, a crawler, a link preview never gets one), or by opening a personal link.
- A personal link is the share link plus `?learner=<token>`: the learner's id signed for that
  course (Django's signing; no personal data in it). Opening it on any device makes that browser
  the learner's, without a query to the database.
"""

import functools

from django.conf import settings
from django.core import signing

COOKIE = "cgs_learner"
COOKIE_SECONDS = 365 * 24 * 60 * 60
LINK_PARAMETER = "learner"


def _cookie_salt(course_public_id: str) -> str:
    return f"learners.cookie:{course_public_id}"


def _link_signer(course_public_id: str) -> signing.Signer:
    return signing.Signer(salt=f"learners.personal-link:{course_public_id}")


def cookie_path(course_public_id: str) -> str:
    return f"/go/{course_public_id}"


def learner_in(request, *, course_public_id: str) -> str | None:
    """The learner id the request's cookie names for this course, if its signature holds."""
    value = request.get_signed_cookie(COOKIE, default=None, salt=_cookie_salt(course_public_id))
    return value if isinstance(value, str) and value.startswith("lrn_") else None


def remember(response, *, course_public_id: str, learner_public_id: str) -> None:
    """Have the browser send this learner's id with its requests under the course's path."""
    response.set_signed_cookie(
        COOKIE,
        learner_public_id,
        salt=_cookie_salt(course_public_id),
        max_age=COOKIE_SECONDS,
        path=cookie_path(course_public_id),
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )


def link_token(*, course_public_id: str, learner_public_id: str) -> str:
    return _link_signer(course_public_id).sign(learner_public_id)


def learner_in_link(token: str, *, course_public_id: str) -> str | None:
    """The learner id a personal link's token names for this course, if its signature holds."""
    if not isinstance(token, str) or len(token) > 200:
        return None
    try:
        value = _link_signer(course_public_id).unsign(token)
    except signing.BadSignature:
        return None
    return value if value.startswith("lrn_") else None


def personal_link(*, share_url: str, course_public_id: str, learner_public_id: str) -> str:
    token = link_token(course_public_id=course_public_id, learner_public_id=learner_public_id)
    return f"{share_url}?{LINK_PARAMETER}={token}"


def adopt_personal_link(view):
    """
    Decorate a course page: when it is opened with a personal link's valid token, the browser
    keeps the learner's cookie (on a 200 and a 304 alike). The page itself stays the same for
    every reader.
    """

    @functools.wraps(view)
    def page(request, course_id: str, *args, **kwargs):
        response = view(request, course_id, *args, **kwargs)
        token = request.GET.get(LINK_PARAMETER)
        if token is not None and response.status_code in (200, 304):
            learner = learner_in_link(token, course_public_id=course_id)
            if learner is not None:
                remember(response, course_public_id=course_id, learner_public_id=learner)
        return response

    return page
