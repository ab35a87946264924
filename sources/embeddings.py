"""
Embeddings of passages, for retrieval by meaning beside the full-text rank (OPENAI_EMBEDDINGS_MODEL,
from the same OpenAI-compatible server as the course writer, OPENAI_BASE_URL).

A passage is embedded the first time a course retrieves from its source with the setting on, and
its vector is kept with the name of the model that made it: later courses reuse it, and a change
of model embeds it again. Vectors are kept at unit length as float32 bytes, so similarity is a dot
product. They are compared in the worker, not in the database: a course has at most ten sources,
a few thousand passages at most, and PostgreSQL here has no vector extension.
"""

import array
import math
import operator
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

import openai
from django.conf import settings

from core import model_server
from sources.models import Passage

# Texts per request: well under what OpenAI and local servers take in one.
BATCH = 64
# What of a passage is embedded: its headings and its opening (models read a few hundred words).
_PASSAGE_CHARS = 2000


class EmbeddingsUnavailable(Exception):
    """
    The embeddings server failed or answered nonsense (after the SDK's retries). The message is ours,
    or the type of the SDK's error, with the HTTP status in `status` when the server answered one:
    never the server's answer, whose text may hold part of the key (OpenAI's, for a wrong one) or of
    the passages sent.
    """

    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.status = status


def enabled() -> bool:
    return bool(settings.OPENAI_EMBEDDINGS_MODEL)


class Embedder:
    """Embeds texts with the configured model, within the job's `deadline` (time.monotonic())."""

    def __init__(self, *, deadline: float):
        self.model = settings.OPENAI_EMBEDDINGS_MODEL
        self._deadline = deadline

    def embed(self, texts: list[str]) -> list[array.array]:
        """
        One unit vector per text, in order.
        :raises EmbeddingsUnavailable: the server failed, ran past the deadline, or answered badly
        """
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise EmbeddingsUnavailable("the job's time is up")
        # A client (and its connections) per call, closed after it: a job embeds a few times at most.
        # The requests run on a thread of their own, waited for until the deadline: the SDK's retries
        # sleep as long as a server's Retry-After asks, which no timeout of a request bounds.
        client = model_server.client()
        runner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embeddings")
        try:
            return runner.submit(self._embed_all, client, texts).result(timeout=remaining)
        except FutureTimeout:
            raise EmbeddingsUnavailable("the job's time ran out while embedding") from None
        finally:
            runner.shutdown(wait=False, cancel_futures=True)
            client.close()  # a request still in flight fails, and its thread ends

    def _embed_all(self, client: openai.OpenAI, texts: list[str]) -> list[array.array]:
        vectors: list[array.array] = []
        for start in range(0, len(texts), BATCH):
            vectors.extend(self._embed_batch(client, texts[start : start + BATCH]))
        return vectors

    def _embed_batch(self, client: openai.OpenAI, texts: list[str]) -> list[array.array]:
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise EmbeddingsUnavailable("the job's time is up")
        try:
            answer = client.embeddings.create(
                model=self.model,
                input=texts,
                encoding_format="float",  # what every compatible server speaks; base64 not all
                timeout=min(settings.OPENAI_TIMEOUT_S, remaining),
            )
            model_server.count_tokens(getattr(answer, "usage", None))
            by_index = {item.index: item.embedding for item in answer.data}
            vectors = [_unit(by_index[index]) for index in range(len(texts))]
        except (openai.OpenAIError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise EmbeddingsUnavailable(type(exc).__name__, status=getattr(exc, "status_code", None)) from exc
        if any(vector is None or len(vector) != len(vectors[0]) for vector in vectors):
            raise EmbeddingsUnavailable("the server answered vectors of different sizes, or empty ones")
        return vectors


def passage_vectors(passage_pks: list[int], *, embedder: Embedder) -> dict[int, array.array]:
    """
    The vectors of these passages by the embedder's model: those kept, and the others embedded now
    and kept.
    :raises EmbeddingsUnavailable: when the missing ones cannot be embedded
    """
    kept = Passage.objects.filter(pk__in=passage_pks, embedding_model=embedder.model).values_list(
        "pk", "embedding"
    )
    vectors = {pk: _from_bytes(data) for pk, data in kept}
    missing = list(
        Passage.objects.filter(pk__in=[pk for pk in passage_pks if pk not in vectors])
        .order_by("pk")
        .values_list("pk", "heading_path", "text")
    )
    for start in range(0, len(missing), BATCH):
        batch = missing[start : start + BATCH]
        embedded = embedder.embed([_passage_text(heading_path, text) for _, heading_path, text in batch])
        Passage.objects.bulk_update(
            [
                Passage(pk=pk, embedding=vector.tobytes(), embedding_model=embedder.model)
                for (pk, _, _), vector in zip(batch, embedded, strict=True)
            ],
            ["embedding", "embedding_model"],
        )
        vectors.update((pk, vector) for (pk, _, _), vector in zip(batch, embedded, strict=True))
    return vectors


def similarity(a: array.array, b: array.array) -> float:
    """Cosine similarity of two unit vectors (0 for vectors of different models' sizes)."""
    if len(a) != len(b):
        return 0.0
    return sum(map(operator.mul, a, b))


def _passage_text(heading_path, text: str) -> str:
    headings = " › ".join(heading_path or ())
    return f"{headings}\n\n{text[:_PASSAGE_CHARS]}" if headings else text[:_PASSAGE_CHARS]


def _unit(values) -> array.array | None:
    vector = array.array("f", (float(value) for value in values))
    norm = math.sqrt(sum(value * value for value in vector))
    if not vector or not math.isfinite(norm) or norm == 0:
        return None
    return array.array("f", (value / norm for value in vector))


def _from_bytes(data) -> array.array:
    vector = array.array("f")
    vector.frombytes(bytes(data))
    return vector
