"""
What a course built from the client's sources stands on: the sources, the place of each of their
passages in their structure, the texts of the passages a step works from, and retrieval of the
passages that match a chapter.

A Grounding is loaded and filled in the thread that runs the job (it reads the database); the
generators' worker threads only read it. Retrieval fills it too (the passages' vectors, embedded
at the first retrieval): it runs in the job's thread only.
"""

import dataclasses
import logging
import statistics

from courses import citations, content
from courses.generation.errors import GenerationFailed
from sources import embeddings
from sources import queries as source_queries
from sources.models import Passage, Source

logger = logging.getLogger(__name__)

# Passages a chapter is written from: enough for its lessons, few enough for one model request.
PASSAGES_PER_CHAPTER = 8
# With embeddings: how many of each ranking are fused at most, and reciprocal rank fusion's constant
# (the usual 60: a passage ranked first by one ranking and absent from the other still ranks high,
# but below one both rankings put near the top).
FUSED_CANDIDATES = 50
RRF_K = 60


class SourcesGone(GenerationFailed):
    message = "The sources of this course have been deleted, or hold no text to build it from."


@dataclasses.dataclass(frozen=True)
class SourceInfo:
    pk: int
    public_id: str
    name: str
    title: str
    media_type: str
    url: str
    language: str
    search_config: str
    outline: tuple[tuple[str, int, int | None], ...]  # (title, level, page) in document order

    def ref(self) -> content.SourceRef:
        return content.SourceRef(
            id=self.public_id,
            name=self.name,
            title=self.title or None,
            media_type=self.media_type,
            url=self.url or None,
        )


@dataclasses.dataclass(frozen=True)
class PassageInfo:
    """A passage's place in its source (its text is loaded separately, when a step needs it)."""

    pk: int
    public_id: str
    source: str  # the source's public id
    ordinal: int
    heading_path: tuple[str, ...]
    page: int | None
    page_end: int | None
    words: int


class Grounding:
    def __init__(
        self,
        sources: list[SourceInfo],
        passages: list[PassageInfo],
        *,
        embedder: embeddings.Embedder | None = None,
    ):
        self.sources = tuple(sources)
        self.passages = tuple(passages)
        self.source = {source.public_id: source for source in sources}
        self.passage = {passage.public_id: passage for passage in passages}
        self._texts: dict[str, citations.PassageText] = {}
        self._embedder = embedder  # None: retrieval by full-text rank only
        self._vectors = None  # passage pk → unit vector, read (or embedded) at the first retrieval
        self._similarity: dict[str, dict[int, float]] = {}  # by retrieval text: passage pk → similarity

    @classmethod
    def load(
        cls, source_pks: list[int] | tuple[int, ...], *, embedder: embeddings.Embedder | None = None
    ) -> "Grounding":
        """
        The ready sources among `source_pks` (in that order) and where their passages are. Sources
        deleted meanwhile are left out. With an `embedder`, retrieval goes by meaning too.
        :raises SourcesGone: when no source with passages is left
        """
        found = {
            source.pk: source
            for source in Source.objects.filter(pk__in=source_pks, status=Source.Status.READY).only(
                "pk",
                "public_id",
                "name",
                "title",
                "media_type",
                "url",
                "language",
                "search_config",
                "outline",
            )
        }
        sources = [
            SourceInfo(
                pk=source.pk,
                public_id=source.public_id,
                name=source.name,
                title=source.title,
                media_type=source.media_type,
                url=source.url,
                language=source.language,
                search_config=source.search_config,
                outline=tuple(
                    (entry["title"], entry["level"], entry.get("page")) for entry in source.outline
                ),
            )
            for pk in dict.fromkeys(source_pks)
            if (source := found.get(pk)) is not None
        ]
        public_of = {source.pk: source.public_id for source in sources}
        order = {source.public_id: position for position, source in enumerate(sources)}
        # The body alone: a course is never made of a document's matter (its licence, index, …).
        rows = Passage.objects.filter(source_id__in=list(public_of), matter="").values_list(
            "pk", "public_id", "source_id", "ordinal", "heading_path", "page", "page_end", "words"
        )
        passages = sorted(
            (
                PassageInfo(
                    pk=pk,
                    public_id=public_id,
                    source=public_of[source_id],
                    ordinal=ordinal,
                    heading_path=tuple(heading_path or ()),
                    page=page,
                    page_end=page_end,
                    words=words,
                )
                for pk, public_id, source_id, ordinal, heading_path, page, page_end, words in rows
            ),
            key=lambda passage: (order[passage.source], passage.ordinal),
        )
        if not passages:
            raise SourcesGone()
        return cls(sources, passages, embedder=embedder)

    def _passage_vectors(self) -> dict | None:
        # Read when first needed, so a step that retrieves nothing (a wrap-up written again, a plan
        # kept from an earlier attempt) embeds nothing; those not embedded by this model yet are now.
        if self._vectors is None and self._embedder is not None:
            try:
                self._vectors = embeddings.passage_vectors(
                    [passage.pk for passage in self.passages], embedder=self._embedder
                )
            except embeddings.EmbeddingsUnavailable as exc:
                self._without_embeddings(exc)
        return self._vectors

    def _without_embeddings(self, exc: embeddings.EmbeddingsUnavailable) -> None:
        # Full-text rank alone still finds passages: the course goes on, as it would without the setting.
        logger.warning(
            "embeddings unavailable, retrieval by full-text rank only",
            extra={"error": str(exc), "status": exc.status},
        )
        self._embedder, self._vectors = None, None

    # --- what a step works from ---------------------------------------------------------------

    def refs(self) -> list[content.SourceRef]:
        return [source.ref() for source in self.sources]

    def load_texts(self, public_ids) -> None:
        """
        Read the texts of these passages (those not read yet): one query. A passage whose text is
        gone went with its source, deleted meanwhile: that source is left out from then on, as if it
        had been deleted before the grounding was loaded.
        :raises SourcesGone: when no source is left
        """
        wanted = [
            public_id for public_id in dict.fromkeys(public_ids)
            if public_id not in self._texts and public_id in self.passage
        ]
        if not wanted:
            return
        rows = Passage.objects.filter(public_id__in=wanted).values_list(
            "public_id", "text", "page", "page_breaks"
        )
        for public_id, text, page, page_breaks in rows:
            self._texts[public_id] = citations.PassageText(
                public_id=public_id,
                source_id=self.passage[public_id].source,
                text=text,
                page=page,
                page_breaks=tuple((int(offset), int(later)) for offset, later in page_breaks or ()),
            )
        gone = {self.passage[public_id].source for public_id in wanted if public_id not in self._texts}
        if gone:
            self._leave_out(gone)

    def _leave_out(self, source_ids: set[str]) -> None:
        self.sources = tuple(source for source in self.sources if source.public_id not in source_ids)
        self.passages = tuple(passage for passage in self.passages if passage.source not in source_ids)
        self.source = {source.public_id: source for source in self.sources}
        self.passage = {passage.public_id: passage for passage in self.passages}
        if not self.passages:
            raise SourcesGone()
        kept = {passage.pk for passage in self.passages}
        if self._vectors is not None:
            self._vectors = {pk: vector for pk, vector in self._vectors.items() if pk in kept}
        self._similarity = {}

    def text(self, public_id: str) -> citations.PassageText:
        """A passage's text, read by load_texts first."""
        return self._texts[public_id]

    def texts(self, public_ids) -> dict[str, citations.PassageText]:
        return {public_id: self._texts[public_id] for public_id in public_ids if public_id in self._texts}

    def retrieve(self, text: str, *, limit: int = PASSAGES_PER_CHAPTER, exclude=()) -> list[str]:
        """
        The passages that best match `text`, best first, as public ids: by full-text rank, and with
        embeddings by meaning too, the two rankings fused (reciprocal rank fusion).
        """
        excluded = tuple(self.passage[public_id].pk for public_id in exclude if public_id in self.passage)
        sources = [Source(pk=source.pk, search_config=source.search_config) for source in self.sources]
        depth = max(limit, FUSED_CANDIDATES) if self._passage_vectors() is not None else limit
        pks = source_queries.rank_passages(sources=sources, text=text, limit=depth, exclude=excluded)
        by_meaning = self._rank_by_meaning(text, exclude=set(excluded), depth=depth)
        if by_meaning:
            pks = fused([pks, by_meaning])
        by_pk = {passage.pk: passage.public_id for passage in self.passages}
        return [by_pk[pk] for pk in pks if pk in by_pk][:limit]

    def _rank_by_meaning(self, text: str, *, exclude: set[int], depth: int) -> list[int]:
        """
        The pks of the passages close to `text` in meaning, best first: those whose similarity stands
        out, at least a standard deviation above the mean of all the passages'. Every passage has
        some similarity; only those that stand out are a match, as only passages sharing a word are
        for the full-text rank, so a chapter takes no passage of another's just to fill up.
        [] without embeddings.
        """
        if self._vectors is None:
            return []
        if text not in self._similarity:  # a chapter may ask again, without exclusions
            try:
                (query,) = self._embedder.embed([text])
            except embeddings.EmbeddingsUnavailable as exc:
                self._without_embeddings(exc)
                return []
            self._similarity[text] = {
                pk: embeddings.similarity(query, vector) for pk, vector in self._vectors.items()
            }
        similarity = self._similarity[text]
        if len(similarity) < 2:  # one passage: nothing to stand out from
            return [pk for pk in similarity if pk not in exclude]
        mean = statistics.fmean(similarity.values())
        spread = statistics.pstdev(similarity.values(), mu=mean)
        close = [
            (-value, pk)
            for pk, value in similarity.items()
            if spread > 0 and value >= mean + spread and pk not in exclude
        ]
        return [pk for _, pk in sorted(close)[:depth]]

    def passages_for(
        self, text: str, *, fallback: str = "", used=(), limit: int = PASSAGES_PER_CHAPTER
    ) -> list[str]:
        """
        The passages a chapter about `text` draws on, in document order: those that match it best,
        preferring passages no other chapter uses yet; then those matching `fallback` (the subject);
        at the least, the first passages no chapter uses.
        """
        found = self.retrieve(text, limit=limit, exclude=used)
        if len(found) < 2:
            found += [found_id for found_id in self.retrieve(text, limit=limit) if found_id not in found]
        if len(found) < 2 and fallback:
            found += [
                found_id
                for found_id in self.retrieve(f"{text} {fallback}", limit=limit)
                if found_id not in found
            ]
        if len(found) < 2:
            spare = [
                passage.public_id
                for passage in self.passages
                if passage.public_id not in set(used) | set(found)
            ]
            found += spare[: 2 - len(found)] or [passage.public_id for passage in self.passages[:2]]
        position = {passage.public_id: number for number, passage in enumerate(self.passages)}
        return sorted(dict.fromkeys(found[:limit]), key=position.__getitem__)

    def check(self, *, passage_id: str, quote: str, given) -> citations.Checked:
        """A citation of one of the passages `given` to a writer (their texts loaded)."""
        return citations.check(
            passage_id=passage_id,
            quote=quote,
            passages=self.texts(given),
            source_ids=set(self.source),
        )


def fused(rankings: list[list[int]]) -> list[int]:
    """
    Reciprocal rank fusion: each item scores 1 / (RRF_K + its rank) in each ranking it is in (rank
    from 1), and the items come best score first; ties keep the first ranking's order.
    """
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(scores, key=lambda item: -scores[item])
