import json
import logging

from django.http import HttpResponse
from django.utils.http import parse_etags
from rest_framework.response import Response

from api.parsers import MergePatchParser, StrictJSONParser
from api.views import ApiView
from core import redis_client
from courses import (
    course_settings,
    deletion,
    idempotency,
    jobs,
    quality,
    queries,
    schemas,
    serializers,
    versions,
)
from courses.models import Course

logger = logging.getLogger(__name__)


class CourseReadView(ApiView):
    """Base of the endpoints that read a course named in the path (`course_id`)."""

    def course(self) -> Course:
        """
        The course the path names, without its document (which `course_with_document` reads), read
        once per request.
        :raises CourseNotFound: unless the request's key created it
        """
        if not hasattr(self, "_course"):
            self._course = queries.course_summary_visible_to(api_key=self.request.auth, public_id=self.kwargs["course_id"])
        if self._course is None:
            raise versions.CourseNotFound()
        return self._course

    def course_with_document(self) -> Course:
        """
        The course with its document, read whole in one query.
        :raises CourseNotFound: unless the request's key created it
        """
        course = queries.course_visible_to(api_key=self.request.auth, public_id=self.kwargs["course_id"])
        if course is None:
            raise versions.CourseNotFound()
        return course


class CoursesView(ApiView):
    """POST: a new course (a job to poll). GET: the key's courses."""

    rate_limit_scope = "create"
    rate_limit_scopes = {"GET": "read"}

    @schemas.list_courses
    def get(self, request):
        # A plain dict: an empty value is then refused, not taken for an absent one.
        data = serializers.ListCoursesInput(data=request.query_params.dict())
        data.is_valid(raise_exception=True)
        page = queries.courses_of(api_key=request.auth, **data.validated_data)
        return Response(serializers.CourseList({"courses": page.rows, "nextCursor": page.next_cursor}).data)

    @schemas.create_course
    def post(self, request):
        data = serializers.CreateJobInput(data=request.data)
        data.is_valid(raise_exception=True)
        job = jobs.create_job(
            api_key=request.auth,
            idempotency_key=idempotency.key_of(request),
            **data.validated_data,
        )
        return Response(
            serializers.JobAccepted(job).data, status=202, headers={"Location": serializers.poll_path(job)}
        )


class JobsView(ApiView):
    rate_limit_scope = "poll"

    @schemas.list_jobs
    def get(self, request):
        data = serializers.ListJobsInput(data=request.query_params.dict())
        data.is_valid(raise_exception=True)
        page = queries.jobs_of(api_key=request.auth, **data.validated_data)
        return Response(serializers.JobList({"jobs": page.rows, "nextCursor": page.next_cursor}).data)


class PollJobView(ApiView):
    rate_limit_scope = "poll"

    @schemas.poll_job
    def get(self, request, job_id: str):
        job = queries.job_visible_to(api_key=request.auth, public_id=job_id)
        if job is None:
            raise jobs.JobNotFound()
        headers = {} if job.is_finished else {"Retry-After": "5"}
        return Response(serializers.JobOutput(job).data, headers=headers)


class CourseView(CourseReadView):
    """
    GET: the course with its latest version's document (the ETag is the version). PATCH: the
    course's settings, which are not part of its document: they make no version and leave the
    ETag as it is. The document itself is edited at …/content. DELETE: the course, for good.
    """

    rate_limit_scope = "read"
    rate_limit_scopes = {"PATCH": "edit", "DELETE": "edit"}
    parser_classes = [StrictJSONParser, MergePatchParser]

    @schemas.read_course
    def get(self, request, course_id: str):
        course = self.course()
        etag = version_etag(course.version)
        # A source deleted since marks the document (`deleted: true`) without a new version, and the
        # ETag is the version: so a course with a deleted source is sent whole, never a 304, and no
        # client keeps a copy without the mark.
        if not course.deleted_source_ids and names_etag(request.headers.get("If-None-Match", ""), etag):
            return Response(status=304, headers={"ETag": etag})
        body = redis_client.stored(_stored_json_key(course))
        if body is None:
            course = self.course_with_document()
            etag = version_etag(course.version)
            body = json.dumps(serializers.CourseDetailOutput(course).data, ensure_ascii=False).encode()
            redis_client.store(_stored_json_key(course), body, course=course.public_id, version=course.version)
        return HttpResponse(body, content_type="application/json", headers={"ETag": etag})

    @schemas.update_course
    def patch(self, request, course_id: str):
        data = serializers.UpdateCourseInput(data=request.data)
        data.is_valid(raise_exception=True)
        changes = data.validated_data
        if "learner_callback_url" in changes:
            changes["learner_callback_url"] = changes["learner_callback_url"] or ""
        course = course_settings.update_course(api_key=request.auth, course_public_id=course_id, **changes)
        return Response(serializers.CourseSettingsOutput(course).data)

    @schemas.delete_course
    def delete(self, request, course_id: str):
        deletion.delete_course_of(api_key=request.auth, course_public_id=course_id)
        return Response(status=204)


class ListVersionsView(CourseReadView):
    rate_limit_scope = "read"

    @schemas.list_course_versions
    def get(self, request, course_id: str):
        course = self.course()
        listed = {"course": course, "versions": versions.versions_of(course)}
        return Response(serializers.VersionListOutput(listed).data)


class ReadVersionView(CourseReadView):
    rate_limit_scope = "read"

    @schemas.read_course_version
    def get(self, request, course_id: str, number: int):
        version = versions.version_of(self.course(), number=number)
        return Response(serializers.VersionDetailOutput(version).data)


class EditContentView(ApiView):
    rate_limit_scope = "edit"
    parser_classes = [StrictJSONParser, MergePatchParser]

    @schemas.replace_course_content
    def put(self, request, course_id: str):
        course = versions.replace_content(
            api_key=request.auth, course_public_id=course_id, if_match=request.headers.get("If-Match"),
            document=request.data,
        )
        return Response(serializers.CourseDetailOutput(course).data, headers={"ETag": version_etag(course.version)})

    @schemas.patch_course_content
    def patch(self, request, course_id: str):
        course = versions.patch_content(
            api_key=request.auth, course_public_id=course_id, if_match=request.headers.get("If-Match"),
            patch=request.data,
        )
        return Response(serializers.CourseDetailOutput(course).data, headers={"ETag": version_etag(course.version)})


class RegenerateView(ApiView):
    rate_limit_scope = "create"

    @schemas.regenerate_course_part
    def post(self, request, course_id: str):
        data = serializers.RegenerateInput(data=request.data)
        data.is_valid(raise_exception=True)
        job = jobs.create_regeneration_job(
            api_key=request.auth,
            course_public_id=course_id,
            idempotency_key=idempotency.key_of(request),
            **data.validated_data,
        )
        return Response(
            serializers.JobAccepted(job).data, status=202, headers={"Location": serializers.poll_path(job)}
        )


def version_etag(version: int) -> str:
    return f'"{version}"'


def _stored_json_key(course) -> str:
    # A version never changes (only the sources deleted since, which are only ever added to): its
    # JSON is rendered once and stored.
    return redis_client.rendering_key(
        "coursejson", course=course.public_id, variant=f"{course.version}:{len(course.deleted_source_ids)}"
    )


def names_etag(if_none_match: str, etag: str) -> bool:
    """Whether an If-None-Match header matches `etag`: `*`, or the tag by weak comparison (RFC 9110)."""
    tags = parse_etags(if_none_match)
    return tags == ["*"] or etag in {tag.removeprefix("W/") for tag in tags}


class CourseQualityView(CourseReadView):
    rate_limit_scope = "read"

    @schemas.get_course_quality
    def get(self, request, course_id: str):
        version = serializers.QualityInput(data=request.query_params.dict())  # `?version=` is no version
        version.is_valid(raise_exception=True)
        number = version.validated_data.get("version")
        if number is None:
            course = self.course_with_document()
            document = course.content
        else:
            course = self.course()
            document = versions.version_of(course, number=number).content
        report = quality.report_for_document(document, sections=queries.source_sections(document))
        return Response(serializers.quality_output(course, report))


