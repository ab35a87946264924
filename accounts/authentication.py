from collections.abc import Callable

from rest_framework.authentication import BaseAuthentication

from accounts import services
from accounts.models import ApiKey


class ApiKeyAuthentication(BaseAuthentication):
    """
    `Authorization: Bearer <key>`, the scheme case-insensitive and followed by one space or more (RFC
    9110). Every way of getting it wrong (no header, another scheme, no token, extra parts, unknown
    or revoked key) is the same 401.
    `find_key(key_hash=...)` looks the key up: by default the key alone, or with a view's own row.
    """

    def __init__(self, find_key: Callable[..., ApiKey | None]):
        self.find_key = find_key

    def authenticate(self, request):
        scheme, _, key = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
        key = key.lstrip(" ")
        if scheme.lower() != "bearer" or not key or " " in key:
            raise services.InvalidApiKey()
        api_key = services.authenticate_key(plain_key=key, find_key=self.find_key)
        return api_key.account, api_key

    def authenticate_header(self, request):
        return "Bearer"
