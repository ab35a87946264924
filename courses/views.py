from rest_framework.response import Response

from config.api import ApiView
from courses import queries, serializers, services


class CreateJobView(ApiView):
    rate_limit_scope = "create"

    def post(self, request):
        data = serializers.CreateJobInput(data=request.data)
        data.is_valid(raise_exception=True)
        job = services.create_job(
            api_key=request.auth,
            idempotency_key=idempotency_key_of(request),
            **data.validated_data,
        )
        body = serializers.JobAccepted(job).data
        return Response(body, status=202, headers={"Location": body["pollUrl"]})


class PollJobView(ApiView):
    rate_limit_scope = "poll"

    def get(self, request, job_id: str):
        job = queries.job_visible_to(api_key=request.auth, public_id=job_id)
        if job is None:
            raise services.JobNotFound()
        headers = {} if job.is_finished else {"Retry-After": "5"}
        return Response(serializers.job_output(job), headers=headers)


def idempotency_key_of(request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not (1 <= len(key) <= 255 and key.isascii() and key.isprintable()):
        raise services.InvalidIdempotencyKey()
    return key
