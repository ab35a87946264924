from rest_framework.authentication import BaseAuthentication

from accounts import services


class ApiKeyAuthentication(BaseAuthentication):
    """
    `Authorization: Bearer <key>`, the scheme case-insensitive and followed by one space or more (RFC
    9110). Every way of getting it wrong (no header, another scheme, no token, extra parts, unknown
    or revoked key) is the same 401.
    """

    def authenticate(self, request):
        scheme, _, key = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
        key = key.lstrip(" ")
        if scheme.lower() != "bearer" or not key or " " in key:
            raise services.InvalidApiKey()
        api_key = services.authenticate_key(plain_key=key)
        return api_key.account, api_key

    def authenticate_header(self, request):
        return "Bearer"
