"""Reads of sources and passages: visibility by key, pages of the list, and full-text search."""

import dataclasses
import re

from django.contrib.postgres.search import SearchHeadline, SearchQuery, SearchRank, SearchVector
from django.db.models import F, Value

from accounts.models import ApiKey
from api import pagination
from core import metrics
from core.ids import looks_like_public_id
from sources.models import Passage, Source

# The columns a source's JSON needs; the whole text stays in the database.
_LISTED = ("id", "public_id", "api_key_id", "name", "url", "media_type", "bytes", "status", "error_code",
           "error_message", "title", "pages", "outline", "matter", "language", "created_at")


def source_visible_to(*, api_key: ApiKey, public_id: str, for_update: bool = False) -> Source | None:
    """The source with this id if this key created it (its text not loaded)."""
    if not looks_like_public_id(public_id, "src_"):
        return None
    sources = Source.objects.filter(api_key=api_key, public_id=public_id).defer("text")
    if for_update:
        sources = sources.select_for_update()
    return sources.first()


def sources_of_key(*, api_key: ApiKey, public_ids: list[str], held: bool = False) -> dict[str, Source]:
    """
    This key's sources among these ids (their texts not loaded), by id: one query. `held`: kept
    from being deleted until the transaction ends (a row lock that a deletion waits for), for rows
    about to point at them; a source deleted meanwhile is not found.
    """
    wanted = [public_id for public_id in public_ids if looks_like_public_id(public_id, "src_")]
    if not wanted:
        return {}
    sources = Source.objects.filter(api_key=api_key, public_id__in=wanted).defer("text")
    if held:
        sources = sources.select_for_update(no_key=True).order_by("pk")  # every job locks in this order
    return {source.public_id: source for source in sources}


@dataclasses.dataclass(frozen=True)
class SourcePage:
    sources: list[Source]
    next_cursor: str | None


def sources_of(*, api_key: ApiKey, cursor: str | None = None, limit: int = 20) -> SourcePage:
    """The key's sources, newest first, `limit` at a time, after `cursor` (api/pagination.py): one query."""
    page = pagination.newest_first(
        Source.objects.filter(api_key=api_key).only(*_LISTED), cursor=cursor, limit=limit
    )
    return SourcePage(sources=page.rows, next_cursor=page.next_cursor)


def index_passages(*, source_id: int, config: str) -> None:
    """Compute the search vectors of a source's passages: headings (weight A) and text (weight B)."""
    heading_text = F("heading_path")  # a JSON array: to_tsvector reads its strings
    Passage.objects.filter(source_id=source_id).update(
        search_vector=SearchVector(heading_text, config=Value(config), weight="A")
        + SearchVector("text", config=Value(config), weight="B")
    )


def search_passages(*, sources: list[Source], query: str, limit: int = 10) -> list[Passage]:
    """
    The passages of `sources` that best match `query` (web search syntax: words, "phrases", -not,
    or), best first, each with `rank` and `headline` (the matching words in <b>…</b>, from the
    passage's text: escape it before showing). Each source is searched in its own language.
    """
    by_config: dict[str, list[int]] = {}
    for source in sources:
        by_config.setdefault(source.search_config, []).append(source.pk)
    found: list[Passage] = []
    for config, source_ids in by_config.items():
        search = SearchQuery(query, search_type="websearch", config=config)
        found.extend(
            Passage.objects.filter(source_id__in=source_ids, search_vector=search)
            .defer("search_vector", "embedding")
            .annotate(rank=SearchRank(F("search_vector"), search))
            .order_by("-rank", "source_id", "ordinal")[:limit]
        )
    best = sorted(found, key=lambda passage: (-passage.rank, passage.source_id, passage.ordinal))[:limit]
    return _with_headlines(best, sources=sources, query=query)


def _with_headlines(passages: list[Passage], *, sources: list[Source], query: str) -> list[Passage]:
    if not passages:
        return passages
    config_of = {source.pk: source.search_config for source in sources}
    for config in {config_of[passage.source_id] for passage in passages}:
        ids = [passage.pk for passage in passages if config_of[passage.source_id] == config]
        search = SearchQuery(query, search_type="websearch", config=config)
        headlines = dict(
            Passage.objects.filter(pk__in=ids)
            .annotate(headline=SearchHeadline("text", search, config=config, max_words=40, min_words=15))
            .values_list("pk", "headline")
        )
        for passage in passages:
            if passage.pk in headlines:
                passage.headline = headlines[passage.pk]
    return passages


_WORD = re.compile(r"\w+")
# Words of a retrieval text that count: the first few dozen say what it is about.
_RETRIEVAL_WORDS = 40


def rank_passages(*, sources: list[Source], text: str, limit: int, exclude: tuple[int, ...] = ()) -> list[int]:
    """
    Ids of the body passages of `sources` (never matter) that best match `text` (a chapter's title and
    summary, say), best first: any of its words counts, rarer and heading words more (full-text rank, each source in its
    own language). Nothing of `text` is query syntax. Passages in `exclude` are left out.
    """
    # "or" is the one word websearch syntax reads as an operator.
    words = [word for word in _WORD.findall(text.casefold()) if len(word) > 1 and word != "or"]
    words = list(dict.fromkeys(words))
    if not words:
        return []
    query = " or ".join(words[:_RETRIEVAL_WORDS])
    by_config: dict[str, list[int]] = {}
    for source in sources:
        by_config.setdefault(source.search_config, []).append(source.pk)
    found: list[tuple[float, int, int, int]] = []
    for config, source_ids in by_config.items():
        search = SearchQuery(query, search_type="websearch", config=config)
        ranked = (
            Passage.objects.filter(source_id__in=source_ids, search_vector=search, matter="")
            .exclude(pk__in=exclude)
            .annotate(rank=SearchRank(F("search_vector"), search))
            .order_by("-rank", "source_id", "ordinal")
            .values_list("rank", "source_id", "ordinal", "pk")[:limit]
        )
        found.extend((-rank, source_id, ordinal, pk) for rank, source_id, ordinal, pk in ranked)
    return [pk for *_, pk in sorted(found)[:limit]]


def sources_by_status() -> dict[str, int]:
    """How many sources there are in each status, for /metrics: one query."""
    return metrics.counted_by(Source.objects, "status", Source.Status.values)
