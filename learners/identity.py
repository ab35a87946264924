"""
How the preview page knows a learner: a first-party cookie per course, and personal links.

- The cookie (`cgs_learner`, HttpOnly, SameSite=Lax, a year) holds a learner id, signed with
  SECRET_KEY, on the course's own path (`/go/<course id>`): each course a browser visits has a
  learner of its own. A course page gives a browser that has none a random id (no query, no
  record: a crawler or a link preview is never recorded); the first progress the page's script
  sends records the learner under that id (learners.progress). Every request of the browser names
  the same learner from the start, however fast the reader moves on.
- A personal link is the share link plus `?learner=<token>`: the learner's id signed for that
  course (Django's signing; no personal data in it). Opening it on any device puts that learner's
  id in the browser's cookie, marked as a personal learner's, without a query to the database.
"""

import dataclasses
import functools

from django.conf import settings
from django.core import signing

from learners.models import new_learner_id

COOKIE = "cgs_learner"
COOKIE_SECONDS = 365 * 24 * 60 * 60
LINK_PARAMETER = "learner"
_PERSONAL = "p:"


@dataclasses.dataclass(frozen=True)
class Known:
    """The learner a browser names: their id, and whether it came from a personal link."""

    public_id: str
    personal: bool = False


def _cookie_salt(course_public_id: str) -> str:
    return f"learners.cookie:{course_public_id}"


def _link_signer(course_public_id: str) -> signing.Signer:
    return signing.Signer(salt=f"learners.personal-link:{course_public_id}")


def cookie_path(course_public_id: str) -> str:
    return f"/go/{course_public_id}"


def learner_in(request, *, course_public_id: str) -> Known | None:
    """The learner the request's cookie names for this course, if its signature holds."""
    value = request.get_signed_cookie(COOKIE, default=None, salt=_cookie_salt(course_public_id))
    if not isinstance(value, str):
        return None
    personal = value.startswith(_PERSONAL)
    public_id = value.removeprefix(_PERSONAL)
    return Known(public_id=public_id, personal=personal) if public_id.startswith("lrn_") else None


def remember(response, *, course_public_id: str, learner: Known) -> None:
    """Have the browser name this learner in its requests under the course's path."""
    response.set_signed_cookie(
        COOKIE,
        (_PERSONAL if learner.personal else "") + learner.public_id,
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


def identify_reader(view):
    """
    Decorate a course page: a browser opening it with a personal link's valid token keeps that
    learner's id; one without a learner id for the course gets a new one. On a 200 and a 304
    alike, in the response's headers only: the page itself stays the same for every reader.
    """

    @functools.wraps(view)
    def page(request, course_id: str, *args, **kwargs):
        response = view(request, course_id, *args, **kwargs)
        if response.status_code not in (200, 304):
            return response
        token = request.GET.get(LINK_PARAMETER)
        personal = None if token is None else learner_in_link(token, course_public_id=course_id)
        if personal is not None:
            remember(response, course_public_id=course_id, learner=Known(public_id=personal, personal=True))
        elif learner_in(request, course_public_id=course_id) is None:
            remember(response, course_public_id=course_id, learner=Known(public_id=new_learner_id()))
        return response

    return page
