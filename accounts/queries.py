from accounts.models import ApiKey
from core.lookups import one_or_none


def live_key(*, key_hash: str) -> ApiKey | None:
    """
    The key with this SHA-256 that is not revoked, with its account and plan (which the plan check
    and the rate limiter need straight after): one query.
    """
    keys = ApiKey.objects.select_related("account__plan").filter(key_hash=key_hash, revoked_at__isnull=True)
    return one_or_none(keys)
