from accounts.models import ApiKey
from config.ids import looks_like_public_id
from courses.models import Course, GenerationJob


def job_visible_to(*, api_key: ApiKey, public_id: str) -> GenerationJob | None:
    """The job with this id if this key created it, with its course: one query."""
    if not looks_like_public_id(public_id, "job_"):
        return None
    return GenerationJob.objects.select_related("course").filter(api_key=api_key, public_id=public_id).first()


def course_visible_to(*, api_key: ApiKey, public_id: str) -> Course | None:
    """The course with this id if this key created it."""
    if not looks_like_public_id(public_id, "cou_"):
        return None
    return Course.objects.filter(api_key=api_key, public_id=public_id).first()
