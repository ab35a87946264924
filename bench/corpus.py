"""
What courses built from real documents are made of: the manuals of build/corpus (`make corpus`),
each read as a worker reads it and made into a course by the offline generator, with every add-on,
then the two MIME and ASN.1 manuals into one course. Counted over all of them; each measure's goal
is the one tests/courses/test_courses_from_real_documents.py asserts.

Runs inside bench/sources.py's process, on its database.
"""

import collections
import pathlib

from bench.sources import Result

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "build" / "corpus"
DOCUMENTS = ["shared-mime-info-spec.pdf", "libtasn1.pdf", "bash.pdf", "bash.html"]
ADD_ONS = ["practical-exercises", "wrapup", "assessment", "articles"]


def measure(api_key, *, smoke: bool = False) -> list[Result]:
    """The corpus measures, each over every course made from the corpus (with `smoke`, from one manual)."""
    from courses import queries
    from courses.quality import coverage, report, rules

    sources = {name: _read(api_key, name) for name in (DOCUMENTS[1:2] if smoke else DOCUMENTS)}
    courses = {name: _course(api_key, [source]) for name, source in sources.items()}
    if not smoke:
        courses["two manuals"] = _course(api_key, [sources["shared-mime-info-spec.pdf"], sources["libtasn1.pdf"]])

    counts: collections.Counter = collections.Counter()
    parts = from_matter = 0
    lowest = (2.0, "")
    for name, course in courses.items():
        sections = queries.source_sections(course.model_dump(mode="json", by_alias=True, exclude_none=True))
        counts.update(item.code for item in report.report_for(course, sections=sections).findings)
        drawn, matter = _drawn_from_matter(course)
        parts, from_matter = parts + drawn, from_matter + matter
        for measured in coverage.coverage(course, sections):
            lowest = min(lowest, (measured.share, name))
        counts["questions"] += len(course.assessment.questions)
        counts["lessons"] += sum(len(chapter.lessons) for chapter in course.chapters)
        counts["chapters"] += len(course.chapters)
    share, where = lowest
    nested, bookmarks = _nested_as_bookmarked(sources)
    return [
        _count("corpus: chapters, lessons and questions drawn from matter", from_matter, f"of {parts}"),
        _count("corpus: chapters spanning sources", counts["CHAPTER_SPANS_SOURCES"], f"of {counts['chapters']}"),
        _count("corpus: duplicate chapter titles", counts["DUPLICATE_CHAPTER_TITLE"], f"of {counts['chapters']}"),
        Result(
            name="corpus: body sections covered by a lesson (the least covered document)",
            value=f"{share:.0%} ({where})",
            target=f">= {rules.COVERAGE_MIN:.0%}",
            missed=share < rules.COVERAGE_MIN,
        ),
        _count("corpus: lessons under 60 words whose sections are longer", counts["LESSON_SCRAP"], f"of {counts['lessons']}"),
        _count("corpus: questions sharing a sentence", counts["QUESTIONS_SHARE_SENTENCE"], f"of {counts['questions']}"),
        _count("corpus: distractors recurring in three questions", counts["DISTRACTOR_RECURS"], ""),
        Result(
            name="corpus: headings nested as the bookmarks say (PDFs with bookmarks)",
            value=f"{nested / bookmarks:.0%} of {bookmarks}",
            target="100%",
            missed=nested < bookmarks,
        ),
    ]


def _count(name: str, count: int, out_of: str) -> Result:
    return Result(name=name, value=f"{count} {out_of}".strip(), target="0", missed=count > 0)


def _read(api_key, name: str):
    from django.core.files.base import ContentFile

    from sources import services
    from sources.extraction import sniff
    from sources.models import Source

    data = (CORPUS / name).read_bytes()
    source = Source(api_key=api_key, name=name, media_type=sniff.sniff(str(CORPUS / name)), bytes=len(data))
    source.file.save(f"{source.public_id}{pathlib.Path(name).suffix}", ContentFile(data), save=False)
    source.save()
    services.read_source(source_id=source.pk)
    source.refresh_from_db()
    assert source.status == Source.Status.READY, (name, source.error_code, source.error_message)
    return source


def _course(api_key, sources):
    from courses import content, jobs

    job = jobs.create_job(
        api_key=api_key, subject="The manual", format="onepage", language_id="en-US", outline=[],
        add_ons=ADD_ONS, sources=[source.public_id for source in sources],
    )
    jobs.run_job(job_id=job.pk)
    job.refresh_from_db()
    assert job.course is not None, (job.error_code, job.error_message)
    return content.read_stored(job.course.content)


def _drawn_from_matter(course) -> tuple[int, int]:
    """(chapters, lessons and questions, those citing a passage of matter)."""
    from sources.models import Passage

    parts = [
        [citation.passage_id for lesson in chapter.lessons for citation in lesson.citations] for chapter in course.chapters
    ]
    parts += [[citation.passage_id for citation in lesson.citations] for chapter in course.chapters for lesson in chapter.lessons]
    parts += [[citation.passage_id for citation in question.citations] for question in course.assessment.questions]
    matter = set(
        Passage.objects.filter(public_id__in={passage for part in parts for passage in part})
        .exclude(matter="")
        .values_list("public_id", flat=True)
    )
    return len(parts), sum(1 for part in parts if matter & set(part))


def _nested_as_bookmarked(sources) -> tuple[int, int]:
    """(bookmarks that are a heading of their level on their page, in order; bookmarks), over the PDFs."""
    import pypdfium2

    nested = total = 0
    for name, source in sources.items():
        if not name.endswith(".pdf"):
            continue
        pdf = pypdfium2.PdfDocument(CORPUS / name)
        try:
            bookmarks = [(bookmark.level + 1, bookmark.get_dest().get_index() + 1) for bookmark in pdf.get_toc()]
        finally:
            pdf.close()
        headings = [(entry["level"], entry["page"]) for entry in source.outline]
        total += len(bookmarks)
        if len(headings) == len(bookmarks):
            nested += sum(1 for heading, bookmark in zip(headings, bookmarks, strict=True) if heading == bookmark)
    return nested, total
