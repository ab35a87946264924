"""
The measures of sources, runnable on their own:

    python -m bench.sources          # prints each measure and its target; exits 1 when one is missed
    python -m bench.sources --json   # the same as JSON, for `make bench` (python -m bench), exit 0
    python -m bench.sources --smoke  # the corpus measures of one manual only: does it run?

- Reading a 100-page PDF (with bookmarks, about 30,000 words) the way a worker does: the child
  process with its limits, the passages, the language, and storing them with their search vectors.
  Target: under 5 s (median of 3).
- A full-text query (ranked, with headlines) over 10,000 passages of 10 sources. Target: under
  20 ms (median of 60 queries of one to three words). The passages are drawn from a vocabulary of
  20,000 words with the frequencies of real text (Zipf's law), and the queries from its words of
  rank 20 to 2,000: content words, neither the commonest (which the stop words mostly are) nor rare.
- What courses built from the real manuals of build/corpus are made of (bench/corpus.py): parts
  drawn from matter, chapters spanning sources, duplicate titles, body sections covered, scraps,
  questions sharing a sentence, recurring distractors, headings nested as bookmarked.

It makes a database of its own afresh (BENCH_DATABASE_SERVER, BENCH_SOURCES_DATABASE_NAME; default
`cgs_bench_sources` on the project-local PostgreSQL) and drops it at the end.
"""

import dataclasses
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import time

import psycopg

DATABASE_SERVER = os.environ.get("BENCH_DATABASE_SERVER", "postgres://cgs@127.0.0.1:54329")
DATABASE_NAME = os.environ.get("BENCH_SOURCES_DATABASE_NAME", "cgs_bench_sources")
EXTRACTION_TARGET_S = 5.0
QUERY_TARGET_MS = 20.0
PASSAGES = 10_000
SOURCES = 10

_WORDS = (
    "access account agreement approval audit backup badge budget calendar claim client compliance contract "
    "contractor customer data deadline delivery department device document email employee equipment expense "
    "holiday incident invoice laptop leave manager meeting office password payroll permission policy privacy "
    "procedure project receipt record report request review risk safety salary schedule security server "
    "shift supplier support system team training travel vendor visitor warehouse"
).split()


@dataclasses.dataclass
class Result:
    name: str
    value: str
    target: str
    missed: bool


def measure(*, smoke: bool = False) -> list["Result"]:
    """Prepare a fresh database, take the measures (with `smoke`, of one manual of the corpus), drop it."""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"{DATABASE_SERVER}/{DATABASE_NAME}",
            "MEDIA_ROOT": tempfile.mkdtemp(prefix="cgs-bench-sources-"),
            "LOG_LEVEL": "WARNING",
            "COURSE_GENERATOR": "offline",
        }
    )
    _recreate_database()
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        from bench import corpus

        results = [_extraction(), _full_text_query(), *corpus.measure(_api_key("bench-corpus", credits=10), smoke=smoke)]
        from django.db import connections

        connections.close_all()
        return results
    finally:
        if not os.environ.get("BENCH_KEEP_DATABASE"):
            _drop_database()


def _extraction() -> Result:
    from django.core.files.base import ContentFile
    from fpdf import FPDF

    from sources import services
    from sources.models import Source

    rng = random.Random(100)
    pdf = FPDF()
    for page in range(1, 101):
        pdf.add_page()
        pdf.set_font("helvetica", "B", 16)
        pdf.start_section(f"Section {page}", level=0)
        pdf.cell(0, 10, f"Section {page}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", size=11)
        for _ in range(4):
            pdf.multi_cell(0, 5, _sentences(rng, 75), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    data = bytes(pdf.output())
    api_key = _api_key("bench-reading")
    timings = []
    for _ in range(3):
        # The row an upload makes (no task is sent: the read is timed here, as a worker runs it).
        source = Source(api_key=api_key, name="bench.pdf", media_type="application/pdf", bytes=len(data))
        source.file.save(f"{source.public_id}.pdf", ContentFile(data), save=False)
        source.save()
        started = time.perf_counter()
        services.read_source(source_id=source.pk)
        timings.append(time.perf_counter() - started)
        source.refresh_from_db()
        assert source.status == Source.Status.READY and source.pages == 100, (source.error_code, source.error_message)
    seconds = statistics.median(timings)
    return Result(
        name="reading a 100-page PDF (child process, passages, index)",
        value=f"{seconds:.2f} s",
        target=f"< {EXTRACTION_TARGET_S:g} s",
        missed=seconds >= EXTRACTION_TARGET_S,
    )


def _full_text_query() -> Result:
    from django.db import connection

    from sources import queries
    from sources.models import Passage, Source

    rng = random.Random(10_000)
    vocabulary = _vocabulary(rng, 20_000)
    weights = list(itertools.accumulate(1 / rank for rank in range(1, len(vocabulary) + 1)))
    api_key = _api_key("bench-search")
    sources = [
        Source.objects.create(api_key=api_key, name=f"Handbook {n}", status="ready", search_config="english")
        for n in range(SOURCES)
    ]
    per_source = PASSAGES // SOURCES
    for source in sources:
        offset = 0
        rows = []
        for ordinal in range(per_source):
            text = _sentences(rng, rng.randint(150, 300), vocabulary, weights)
            rows.append(
                Passage(
                    source=source, ordinal=ordinal, heading_path=[_sentences(rng, 3, vocabulary, weights)[:-1]],
                    page=ordinal // 3 + 1,
                    page_end=ordinal // 3 + 1, char_start=offset, char_end=offset + len(text), text=text,
                    words=len(text.split()),
                )
            )
            offset += len(text) + 2
        Passage.objects.bulk_create(rows, batch_size=1000)
        queries.index_passages(source_id=source.pk, config="english")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE sources_passage")
    assert Passage.objects.filter(source__in=sources).count() == PASSAGES
    questions = [" ".join(rng.sample(vocabulary[20:2000], rng.randint(1, 3))) for _ in range(60)]
    queries.search_passages(sources=sources, query="warm up")
    timings = []
    for question in questions:
        started = time.perf_counter()
        queries.search_passages(sources=sources, query=question, limit=10)
        timings.append((time.perf_counter() - started) * 1000)
    milliseconds = statistics.median(timings)
    return Result(
        name=f"full-text query over {PASSAGES:,} passages (rank and headlines, top 10)",
        value=f"{milliseconds:.1f} ms median, {max(timings):.1f} ms max",
        target=f"< {QUERY_TARGET_MS:g} ms median",
        missed=milliseconds >= QUERY_TARGET_MS,
    )


def _api_key(name: str, *, credits: int = 0):
    from accounts import services as account_services
    from accounts.models import Account, ApiKey, Plan

    plan = Plan.objects.create(
        slug=name, name=name, is_paid=True, monthly_course_credits=credits, source_storage_mb=100_000
    )
    account = Account.objects.create(email=f"{name}@example.com", plan=plan)
    plain = account_services.issue_key(account=account, name=name)
    return ApiKey.objects.get(key_hash=account_services.hash_key(plain))


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    # Made-up words of two to four syllables, the domain's own words first (the commonest).
    syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"] + ["tion", "ment", "er", "al", "ing"]
    words = list(dict.fromkeys(_WORDS))
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def _sentences(rng: random.Random, words: int, vocabulary=None, weights=None) -> str:
    if vocabulary is None:
        picked = [rng.choice(_WORDS) for _ in range(words)]
    else:
        picked = rng.choices(vocabulary, cum_weights=weights, k=words)
    out, sentence = [], []
    for word in picked:
        sentence.append(word)
        if len(sentence) >= rng.randint(8, 16):
            out.append(" ".join(sentence).capitalize() + ".")
            sentence = []
    if sentence:
        out.append(" ".join(sentence).capitalize() + ".")
    return " ".join(out)


def _recreate_database() -> None:
    with psycopg.connect(f"{DATABASE_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DATABASE_NAME}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{DATABASE_NAME}"')


def _drop_database() -> None:
    with psycopg.connect(f"{DATABASE_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DATABASE_NAME}" WITH (FORCE)')


def main() -> int:
    results = measure(smoke="--smoke" in sys.argv[1:])
    if "--json" in sys.argv[1:]:
        print(json.dumps([dataclasses.asdict(result) for result in results]))
        return 0
    for result in results:
        print(f"{result.name}: {result.value} (target {result.target}: {'MISSED' if result.missed else 'met'})")
    return 1 if any(result.missed for result in results) else 0


if __name__ == "__main__":
    sys.exit(main())
