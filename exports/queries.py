from django.db.models import OuterRef, Subquery

from courses.models import CourseVersion
from exports.models import Export


def export_to_download(*, public_id: str) -> Export | None:
    """
    The export with this id and its course, and `packaged_name`: the course's name in the version
    the package holds, which names the download however the course is renamed since. One query.
    """
    name_then = CourseVersion.objects.filter(course=OuterRef("course"), number=OuterRef("version"))
    return (
        Export.objects.select_related("course")
        .defer("course__content")
        .annotate(packaged_name=Subquery(name_then.values("content__name")[:1]))
        .filter(public_id=public_id)
        .first()
    )
