from django.core.exceptions import ImproperlyConfigured
from rest_framework.exceptions import APIException, MethodNotAllowed, NotAcceptable
from rest_framework.views import APIView

from accounts.authentication import ApiKeyAuthentication
from accounts.permissions import HasPaidPlan
from accounts.services import InvalidApiKey
from core import errors, ratelimit, request_bodies


class ApiView(APIView):
    """
    Base of every endpoint under /api/v1. DRF runs, in order: authentication (401), the paid plan
    (403), the rate limit of the view's `rate_limit_scope` (429), then the view's own validation
    and work. Every response carries the RateLimit headers of the bucket the request was counted
    in (or, refused before the limiter, looked at).

    Requests without a valid key count per client address, and are refused with 429 while their
    address is over that limit; a request with a valid key counts only in its key's bucket.

    A method the view does not handle is answered 405 before all of that, neither counted nor
    looked up in the limiter, so without RateLimit headers. A body over the size limit (413) and an
    `Accept` header that rules out JSON (406) are answered after the limiter, counted and with
    headers, like any other refusal of the request itself; neither body is read.
    """

    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [HasPaidPlan]
    # No OPTIONS: the API serves no browsers' preflights, and DRF's answer to it (the view's own
    # description) would have counted in the bucket of the view's writes. It is a 405 like any
    # other method an endpoint lacks.
    http_method_names = [name for name in APIView.http_method_names if name != "options"]
    # A body over its limit is answered here, after the limiter (core.middleware lets it through).
    answers_body_limits = True
    rate_limit_scope: str | None = None  # one of ratelimit.SCOPES
    # Where methods of one view count in different buckets: {"GET": "poll", "POST": "sources"}.
    rate_limit_scopes: dict[str, str] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for scope in [cls.rate_limit_scope, *cls.rate_limit_scopes.values()]:
            if scope is not None and scope not in ratelimit.SCOPES:
                raise ImproperlyConfigured(
                    f"{cls.__name__}'s rate limit scopes must be among {ratelimit.SCOPES}, not {scope!r}"
                )

    def initial(self, request, *args, **kwargs):
        self.rate_limit = None
        self.refused_media_type = None
        # A method the view has no handler for is answered before the key and the limiter: such a
        # request does no work, so it costs no slot (and, no bucket looked at, carries no RateLimit
        # headers). DRF itself would look for the handler only after both.
        if not self._has_handler(request.method):
            raise MethodNotAllowed(request.method)
        method = "GET" if request.method == "HEAD" else request.method
        self.rate_limit_scope = self.rate_limit_scopes.get(method, type(self).rate_limit_scope)
        if self.rate_limit_scope is None:
            raise ImproperlyConfigured(f"{type(self).__name__} declares no rate_limit_scope for {method}")
        super().initial(request, *args, **kwargs)
        if self.refused_media_type is not None:
            raise self.refused_media_type
        limit = request_bodies.body_limit_exceeded(request)
        if limit is not None:
            raise request_bodies.PayloadTooLarge(limit.message)

    def perform_content_negotiation(self, request, force=False):
        # DRF negotiates before the key and the limiter; a 406 waits until after them (see initial),
        # so that it carries RateLimit headers like every other answer.
        try:
            return super().perform_content_negotiation(request, force=force)
        except NotAcceptable as exc:
            self.refused_media_type = exc
            return super().perform_content_negotiation(request, force=True)

    def _has_handler(self, method: str) -> bool:
        name = method.lower()
        return name in self.http_method_names and hasattr(self, name)

    def perform_authentication(self, request):
        try:
            super().perform_authentication(request)
        except InvalidApiKey:
            # Bad keys count per client address (the load they make is bounded); valid keys never do.
            self.rate_limit = ratelimit.check_address(
                scope=self.rate_limit_scope, address=ratelimit.client_address(request)
            )
            if not self.rate_limit.allowed:
                raise ratelimit.RateLimitExceeded(self.rate_limit) from None
            raise

    def check_permissions(self, request):
        # The plan check runs first but answers after the limiter: a request refused for its plan
        # is not counted, yet it still gets headers. One limiter call either way.
        try:
            super().check_permissions(request)
            refusal = None
        except (errors.AppError, APIException) as exc:
            refusal = exc
        self.rate_limit = ratelimit.check_key(
            scope=self.rate_limit_scope,
            api_key=request.auth,
            counted=refusal is None,
        )
        if not self.rate_limit.allowed:
            raise ratelimit.RateLimitExceeded(self.rate_limit)
        if refusal is not None:
            raise refusal

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if getattr(self, "rate_limit", None) is not None:
            for name, value in self.rate_limit.headers().items():
                response[name] = value
        return response
