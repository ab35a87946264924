"""The OpenAI-compatible model server (settings: OPENAI_*): the course writer's, and the embeddings'."""

import time

import httpx2
import openai
from django.conf import settings

# The largest answer read, before it is parsed: a batch of 64 embeddings of 3,072 numbers as JSON
# is about 3 MB, and a course step's answer far less.
ANSWER_MAX_BYTES = 16 * 1024 * 1024


def client() -> openai.OpenAI:
    """
    A client of the server, with the SDK's retries and a time limit on each attempt, the whole
    answer included; close it after use. An answer is never compressed (so none inflates past the
    size read), and a redirect is an error, not followed to wherever it points.
    """
    return openai.OpenAI(
        base_url=settings.OPENAI_BASE_URL,
        # Local servers (Ollama, vLLM, llama.cpp) need no key, but the SDK insists on one.
        api_key=settings.OPENAI_API_KEY or "unused",
        max_retries=settings.OPENAI_MAX_RETRIES,
        timeout=settings.OPENAI_TIMEOUT_S,
        default_headers={"Accept-Encoding": "identity"},
        http_client=openai.DefaultHttpxClient(follow_redirects=False, transport=_BoundedTransport()),
    )


class _BoundedTransport(httpx2.BaseTransport):
    """
    HTTP whose answers are bounded as a whole: in time (the request's read timeout, which the
    client's own timeouts apply to each read only, so an answer sent a byte at a time ran on) and in
    size (ANSWER_MAX_BYTES). A compressed answer, sent though none was accepted, is refused.
    """

    def __init__(self):
        self._http = httpx2.HTTPTransport()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        limit = (request.extensions.get("timeout") or {}).get("read") or settings.OPENAI_TIMEOUT_S
        deadline = time.monotonic() + limit
        response = self._http.handle_request(request)
        encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            response.close()
            raise httpx2.DecodingError(f"The answer is compressed ({encoding}), though none was accepted.")
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_BoundedStream(response.stream, deadline=deadline),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self._http.close()


class _BoundedStream(httpx2.SyncByteStream):
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
