"""The OpenAI-compatible model server (settings: OPENAI_*): the course writer's, and the embeddings'."""

import openai
from django.conf import settings


def client() -> openai.OpenAI:
    """A client of the server, with the SDK's retries and per-attempt timeout; close it after use."""
    return openai.OpenAI(
        base_url=settings.OPENAI_BASE_URL,
        # Local servers (Ollama, vLLM, llama.cpp) need no key, but the SDK insists on one.
        api_key=settings.OPENAI_API_KEY or "unused",
        max_retries=settings.OPENAI_MAX_RETRIES,
        timeout=settings.OPENAI_TIMEOUT_S,
    )
