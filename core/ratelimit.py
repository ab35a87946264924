"""
Per-endpoint rate limits of the API over an exact sliding 60-second window, counted in Redis.

Each bucket (an endpoint scope with an API key, or with a client address for requests without a
valid key) is a sorted set of the accepted requests' timestamps. One Lua script trims what has
aged out, counts, and records the request only if it fits, atomically: in no 60-second span does a
bucket accept more than its limit, however many web processes race for the last slot, and refused
requests are not recorded. One Redis round trip per request.

If Redis is unreachable the limiter fails open: the request is served and an error is logged.

Per-address limits outside the API (the admin login, the preview page's sign-off) use
django-ratelimit's fixed windows in the cache through `too_many_from_address`, with the same client
address rule and the same failing open; the admin login is also limited per account
(`limited_login`).
"""

import functools
import hashlib
import ipaddress
import logging
import math
import secrets
import time
import unicodedata
from dataclasses import dataclass

import redis
from django.conf import settings
from django_ratelimit.core import get_usage, is_ratelimited
from django_ratelimit.exceptions import Ratelimited

from core import errors, redis_client

logger = logging.getLogger(__name__)

WINDOW_SECONDS = 60
SCOPES = ("create", "export", "poll", "read", "edit", "sources", "learners", "results")
_SETTING_FOR_SCOPE = {scope: f"RATE_LIMIT_{scope.upper()}" for scope in SCOPES}

# KEYS[1]: the bucket to count in.
# ARGV: now (ms), window (ms), limit, record (1: record the request if it fits, 0: only look and
#       never refuse), member (unique per request).
# Returns {allowed, requests in the window, ms until the oldest ages out (0: empty)}.
# The clock comes from the caller, not Redis TIME, so one function (`clock`) is the time source
# for the limiter and tests can move it; exactness holds even when callers' clocks disagree by a
# little, because a bucket never holds more than `limit` entries inside any window of their stamps.
_SLIDING_WINDOW = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])

local function count(key)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  return redis.call('ZCARD', key)
end

-- ms until the request at `rank` (0: the oldest) ages out; 0 when there is none
local function reset_ms(key, rank)
  local entry = redis.call('ZRANGE', key, rank, rank, 'WITHSCORES')
  if entry[2] == nil then return 0 end
  return tonumber(entry[2]) + window - now
end

local used = count(KEYS[1])
local limit = tonumber(ARGV[3])
if ARGV[4] ~= '1' then
  return {1, used, reset_ms(KEYS[1], 0)}
end
if used >= limit then
  -- A slot frees once all but limit - 1 have aged out: more than the oldest one when the limit
  -- was lowered below what the window holds.
  return {0, used, reset_ms(KEYS[1], used - limit)}
end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], window)
return {1, used + 1, reset_ms(KEYS[1], 0)}
"""
_SLIDING_WINDOW_SHA = hashlib.sha1(_SLIDING_WINDOW.encode()).hexdigest()


@dataclass(frozen=True)
class Decision:
    """The limiter's answer for one request, with what the RateLimit headers report."""

    allowed: bool
    limit: int
    remaining: int
    # Until the oldest request in the window ages out (refused: until a slot is free); 0 when none will.
    reset_seconds: int

    @property
    def retry_after_seconds(self) -> int:
        # With a limit of 0 nothing is ever in the window, so no entry ageing out will help.
        return max(self.reset_seconds, 1) if self.limit > 0 else WINDOW_SECONDS

    def headers(self) -> dict[str, str]:
        headers = {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_seconds),
        }
        if not self.allowed:
            headers["Retry-After"] = str(self.retry_after_seconds)
        return headers


class RateLimitExceeded(errors.AppError):
    status, code = 429, "RATE_LIMIT_EXCEEDED"

    def __init__(self, decision: Decision):
        super().__init__(
            f"Too many requests: at most {decision.limit} per {WINDOW_SECONDS} seconds on this endpoint. "
            f"Retry in {decision.retry_after_seconds} seconds."
        )


def clock() -> float:
    """The limiter's time source, in seconds since the epoch."""
    return time.time()


def limit_for(*, scope: str, plan=None) -> int:
    """Requests per window for the scope: the plan's override if it has one, else the setting."""
    override = getattr(plan, f"rate_limit_{scope}", None) if plan is not None else None
    return override if override is not None else getattr(settings, _SETTING_FOR_SCOPE[scope])


def check_key(*, scope: str, api_key, counted: bool = True) -> Decision:
    """
    Count a request made with a valid API key (`counted=False`: only look, for a request refused
    before the limiter, such as 403). Refused only when the key's own bucket is full: what other
    requests from the same address do never refuses it (see `check_address`).
    """
    return hit(
        bucket=_bucket(scope, f"key:{api_key.pk}"),
        limit=limit_for(scope=scope, plan=api_key.account.plan),
        counted=counted,
    )


def check_address(*, scope: str, address: str) -> Decision:
    """
    Count a request without a valid API key against its client address. This bounds the load bad
    keys can put on the key lookup; it is not what protects keys, whose 238 random bits no guessing
    can reach. So a request with a valid key is never refused for its address: one machine sending
    bad keys behind a company's NAT must not lock out everyone else behind it.
    """
    return hit(bucket=_bucket(scope, f"addr:{address}"), limit=limit_for(scope=scope))


def hit(*, bucket: str, limit: int, counted: bool = True) -> Decision:
    """
    Record one request in the bucket if it fits the sliding window (one Redis round trip) and
    return the decision. Fails open: if Redis cannot be reached, allow the request and log an error.
    """
    now_ms = int(clock() * 1000)
    window_ms = WINDOW_SECONDS * 1000
    member = f"{now_ms}:{secrets.token_hex(8)}"
    try:
        allowed, used, reset_ms = _run_script([bucket], [now_ms, window_ms, limit, int(counted), member])
    except redis.RedisError:
        logger.error("rate limiter unavailable, request allowed", extra={"bucket": bucket}, exc_info=True)
        return Decision(allowed=True, limit=limit, remaining=limit, reset_seconds=0)
    return Decision(
        allowed=bool(allowed),
        limit=limit,
        remaining=max(limit - used, 0),
        reset_seconds=math.ceil(reset_ms / 1000),
    )


def client_address(request) -> str:
    """
    The client's IP address: REMOTE_ADDR, or with TRUSTED_PROXY_COUNT = n proxies in front, the
    n-th address from the right of X-Forwarded-For (what the outermost trusted proxy saw; anything
    further left was written by the client and is ignored). IPv6 clients are grouped by /64, the
    block one subscriber usually holds.
    """
    address = request.META.get("REMOTE_ADDR", "")
    hops = settings.TRUSTED_PROXY_COUNT
    if hops > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [part for part in forwarded if part]
        if len(forwarded) >= hops:
            address = forwarded[-hops]
    return _normalized_address(address)


def too_many_from_address(request, *, group: str, rate: str, method: str = "POST") -> bool:
    """
    Count the request in django-ratelimit's fixed window `group` for its client address (the one
    `client_address` rule) and return whether it is over `rate` (such as "10/m"). Requests of
    other methods are neither counted nor refused. For per-address limits outside the API, where
    fixed windows are fine.

    Fails open like the API limiter: if the cache cannot be reached, log an error and return False.
    """
    try:
        return is_ratelimited(
            request,
            group=group,
            key=lambda _group, req: client_address(req),
            rate=rate,
            method=method,
            increment=True,
        )
    except redis.RedisError:
        logger.error(
            "per-address rate limit unavailable, request allowed", extra={"group": group}, exc_info=True
        )
        return False


def limited_login(view, *, group: str, per_address: str, per_account: str):
    """
    A login view slowed two ways (403 when over either): every attempt counts per client address,
    and every failed attempt counts per user name, from wherever it comes, so that guessing one
    staff password from many addresses is slowed as much as from one. An answer of 200 is the form
    shown again, a failed attempt; a success redirects and is not counted. Fixed windows in the
    cache, failing open like `too_many_from_address`.
    """

    @functools.wraps(view)
    def limited_view(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        if too_many_from_address(request, group=group, rate=per_address):
            raise Ratelimited()
        # As Django's login form reads the name (NFKC), so that look-alike spellings of one name,
        # which all log in as it, count as that name.
        account = unicodedata.normalize("NFKC", request.POST.get("username", "")).strip().casefold()[:150]
        if _too_many_for(request, group=f"{group}.account", who=account, rate=per_account, increment=False):
            raise Ratelimited()
        response = view(request, *args, **kwargs)
        if response.status_code == 200:
            _too_many_for(request, group=f"{group}.account", who=account, rate=per_account, increment=True)
        return response

    return limited_view


def _too_many_for(request, *, group: str, who: str, rate: str, increment: bool) -> bool:
    """Count one (with `increment`) for `who` in the fixed window `group`; whether it is full."""
    try:
        usage = get_usage(
            request, group=group, key=lambda _group, _request: who, rate=rate, method="POST", increment=increment
        )
    except redis.RedisError:
        logger.error("per-account rate limit unavailable, request allowed", extra={"group": group}, exc_info=True)
        return False
    return usage is not None and usage["count"] >= usage["limit"]


def _normalized_address(raw: str) -> str:
    candidate = raw.strip()
    if candidate.startswith("[") and "]" in candidate:  # [v6]:port
        candidate = candidate[1 : candidate.index("]")]
    elif candidate.count(":") == 1:  # v4:port
        candidate = candidate.split(":")[0]
    try:
        ip = ipaddress.ip_address(candidate)
    except ValueError:
        return raw[:64] or "unknown"
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _bucket(scope: str, who: str) -> str:
    return f"{settings.RATE_LIMIT_KEY_PREFIX}:{scope}:{who}"


def _run_script(keys: list[str], args: list) -> list[int]:
    client = redis_client.client()
    try:
        return client.evalsha(_SLIDING_WINDOW_SHA, len(keys), *keys, *args)
    except redis.exceptions.NoScriptError:
        # Redis lost its script cache (a restart): EVAL runs the script and caches it again, so
        # this request costs two round trips and the following ones one.
        return client.eval(_SLIDING_WINDOW, len(keys), *keys, *args)
