"""
How much of its sources' body a course built from documents draws on: a section of a source (its
first two heading levels) is covered when a lesson, an exercise or an article cites one of its
passages. The sections are read from the database by courses.queries.source_sections.
"""

from dataclasses import dataclass

from courses import content

DEPTH = 2


@dataclass(frozen=True)
class Section:
    source_id: str
    title: str  # its innermost heading, as the document prints it ("" before the first heading)
    passage_ids: frozenset[str]
    words: int


@dataclass(frozen=True)
class Coverage:
    source_id: str
    sections: int
    covered: int
    missing: tuple[str, ...]  # titles of the sections not covered, in document order

    @property
    def share(self) -> float:
        return self.covered / self.sections if self.sections else 1.0


def words_drawn_on(passage_ids, sections: tuple[Section, ...]) -> int | None:
    """The words of the sections these passages are in, or None when none of them is known."""
    ids = set(passage_ids)
    touched = [section for section in sections if section.passage_ids & ids]
    return sum(section.words for section in touched) if touched else None


def coverage(course: content.CourseContent, sections: tuple[Section, ...]) -> list[Coverage]:
    """Per source with sections, in the course's order of sources: how many of them the course draws on."""
    taught = {
        citation.passage_id
        for where, citations in course.cited_parts()
        if "/lessons/" in where or where.endswith("/article")
        for citation in citations
    }
    found = []
    for source in course.sources:
        own = [section for section in sections if section.source_id == source.id]
        if own:
            missing = tuple(section.title for section in own if not section.passage_ids & taught)
            found.append(
                Coverage(
                    source_id=source.id, sections=len(own), covered=len(own) - len(missing), missing=missing
                )
            )
    return found
