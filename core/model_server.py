"""The OpenAI-compatible model server (settings: OPENAI_*): the course writer's, and the embeddings'."""

import time

import httpx2
import openai
from django.conf import settings

from core import metrics

# The largest answer read, before it is parsed: a batch of 64 embeddings of 3,072 numbers as JSON
# is about 3 MB, and a course step's answer far less.
ANSWER_MAX_BYTES = 16 * 1024 * 1024


def client() -> openai.OpenAI:
    """
    A client of the server, with the SDK's retries and a time limit on each attempt that its body
    is held to as a whole (the HTTP client's own timeouts apply to each read only, so an answer sent
    a byte at a time ran on); close it after use. An answer is never compressed (so none inflates
    past the size read), and a redirect is an error, not followed to wherever it points. Proxies
    set in the environment (HTTPS_PROXY, NO_PROXY) are used as the SDK uses them.
    """
    http = _CountedClient(
        follow_redirects=False,
        event_hooks={"request": [_set_deadline], "response": [_bound_answer]},
    )
    return openai.OpenAI(
        base_url=settings.OPENAI_BASE_URL,
        # Local servers (Ollama, vLLM, llama.cpp) need no key, but the SDK insists on one.
        api_key=settings.OPENAI_API_KEY or "unused",
        max_retries=settings.OPENAI_MAX_RETRIES,
        timeout=settings.OPENAI_TIMEOUT_S,
        default_headers={"Accept-Encoding": "identity"},
        http_client=http,
    )


class _CountedClient(openai.DefaultHttpxClient):
    """Counts each request sent, retries included, by its outcome (cgs_model_requests)."""

    def send(self, request, **kwargs):
        try:
            response = super().send(request, **kwargs)
        except httpx2.TimeoutException:
            metrics.MODEL_REQUESTS.labels(outcome="timeout").inc()
            raise
        except Exception:
            metrics.MODEL_REQUESTS.labels(outcome="error").inc()
            raise
        metrics.MODEL_REQUESTS.labels(outcome=_outcome(response.status_code)).inc()
        return response


def _outcome(status: int) -> str:
    if status < 300:
        return "ok"
    if status == 429:
        return "rate_limited"
    return "refused" if status < 500 else "server_error"


def count_tokens(usage) -> None:
    """Add an answer's `usage` (the SDK's; None when the server sent none) to cgs_model_tokens."""
    if usage is None:
        return
    for kind in ("prompt", "completion"):
        tokens = getattr(usage, f"{kind}_tokens", None)
        if isinstance(tokens, int) and tokens > 0:
            metrics.MODEL_TOKENS.labels(kind=kind).inc(tokens)


_DEADLINE = "answer_deadline"  # a request's extension, read by this module only


def _set_deadline(request: httpx2.Request) -> None:
    limit = (request.extensions.get("timeout") or {}).get("read") or settings.OPENAI_TIMEOUT_S
    request.extensions[_DEADLINE] = time.monotonic() + limit


def _bound_answer(response: httpx2.Response) -> None:
    """Called once the answer's headers are in, before its body is read."""
    deadline = response.request.extensions[_DEADLINE]
    if time.monotonic() > deadline:
        raise httpx2.ReadTimeout("The answer took longer than the time allowed for it.")
    encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
    if encoding not in ("", "identity"):
        raise httpx2.DecodingError(f"The answer is compressed ({encoding}), though none was accepted.")
    response.stream = _BoundedStream(response.stream, deadline=deadline)


class _BoundedStream(httpx2.SyncByteStream):
    """A body held to ANSWER_MAX_BYTES and to its deadline (checked as each part of it arrives)."""

    def __init__(self, stream, *, deadline: float):
        self._stream = stream
        self._deadline = deadline

    def __iter__(self):
        size = 0
        for chunk in self._stream:
            size += len(chunk)
            if size > ANSWER_MAX_BYTES:
                raise httpx2.ReadError(f"The answer is larger than {ANSWER_MAX_BYTES} bytes.")
            if time.monotonic() > self._deadline:
                raise httpx2.ReadTimeout("The answer took longer than the time allowed for it.")
            yield chunk

    def close(self) -> None:
        self._stream.close()
