"""
The offline generator for a course built from the client's sources: no model and no network,
deterministic, and every lesson, exercise, article, wrap-up and quiz question cited.

- Chapters follow the sources' headings: the first heading level that divides the sources into at
  least three sections gives the chapters; more than nine are narrowed to the sections that match
  the subject (when at least three do), then neighbours are joined. With an outline, each chapter
  takes the passages that match its title best (full-text rank).
- Lessons are the sections one level down (or, without them, the chapter's passages in two to five
  parts), each made of its key sentences in the sources' own words: the sentences most central to
  the section, by TextRank (a sentence is central when it shares words with many other central
  sentences), kept in the order of the source. Each lesson cites the passages its sentences come from.
- Exercises have the learner restate a cited passage with its key terms; articles give a chapter's
  most central passage in full; the wrap-up gives each chapter's most central sentence.
- Quiz questions blank a key term out of a central sentence (key terms: words a source uses often in
  few of its sentences, tf-idf); the distractors are other key terms of the same source, of a length
  close to the answer's. The quote cited is the sentence itself, so it states the answer.

What it does not do: explain, paraphrase, add examples or connect ideas across sections; it cannot
tell a central sentence that is true from one the source later corrects; sentences are cut at
punctuation, so an abbreviation followed by a capital ("Dr. Smith") may end one early. The words it
adds (titles of parts, instructions, question stems) are in the course's language; the sentences
are in the sources' own.
"""

import collections
import dataclasses
import math
import operator
import re

from courses import citations, content
from courses.generation import texts as templates
from courses.generation.base import (
    ChapterDraft,
    ChapterPlan,
    CoursePlan,
    balance_answer_positions,
    clip,
    markdown_literal,
    one_line,
)
from courses.generation.errors import GenerationFailed
from courses.generation.offline import OfflineGenerator
from courses.quality import bloom, rules, words
from sources.extraction.document import without_section_number

MAX_CHAPTERS = 9
MAX_LESSONS = 5
# Passages a lesson is made from at most, spread over its section.
PASSAGES_PER_LESSON = 3
# Key sentences of a lesson: about two in five of its sentences, between these bounds.
SENTENCES_MIN, SENTENCES_MAX = 2, 8
# TextRank compares every pair of the sentences it ranks: beyond this many (a checklist or a long
# table is a sentence a line), an even spread of them is ranked, and the others score the base.
RANKED_MAX = 300
# A sentence a quiz question is made from: long enough to say something, short enough to quote whole.
QUESTION_WORDS = (6, 60)
BLANK = "_____"
# Source languages (ISO 639-1) whose function words we know, by course language.
_LANGUAGE_OF_CODE = {"en": "en-US", "pt": "pt-BR", "es": "es-ES", "fr": "fr-FR", "de": "de-DE"}

_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'”’»)\]]*\s+(?=[\"'“‘«(\[]?[A-ZÀ-ÖØ-Þ0-9])")
_WORD = re.compile(r"\w+")


class TooLittleText(GenerationFailed):
    message = "The sources hold too little text to build this course from."


@dataclasses.dataclass(frozen=True)
class Sentence:
    passage: str  # public id
    start: int
    end: int
    text: str
    words: frozenset[str]  # content words, case-folded
    position: int  # in the passage sequence of the course

    @property
    def word_count(self) -> int:
        return len(self.text.split())


class ExtractiveGenerator(OfflineGenerator):
    """The offline generator's steps for a course whose request carries a grounding."""

    def plan(self, *, request) -> CoursePlan:
        grounding = request.grounding
        texts = templates.in_language(request.language_id)
        grounded = texts["grounded"]
        quote = _Quoter(texts)
        if request.outline:
            chapters = []
            used: list[str] = []
            for title in request.outline:
                passages = grounding.passages_for(title, fallback=request.subject, used=used, limit=6)
                used += passages
                summary = grounded["chapter_summary_outline"].format(t=quote.plain(title))
                chapters.append(ChapterPlan(title=title, summary=clip(summary), passages=tuple(passages)))
        else:
            chapters = [
                ChapterPlan(
                    title=clip(title),
                    summary=clip(
                        grounded["chapter_summary"].format(
                            source=quote.plain(_source_name(grounding, passages[0])), t=quote.plain(title)
                        )
                    ),
                    passages=tuple(passages),
                )
                for title, passages in _chapters_from_structure(grounding, subject=request.subject)
            ]
        plan = CoursePlan(
            name=clip(request.subject, content.NAME_MAX),
            headline=clip(grounded["headline"].format(s=quote.plain(request.subject))),
            introduction="",
            chapters=tuple(chapters),
        )
        return dataclasses.replace(plan, introduction=self.introduction(request=request, plan=plan))

    def introduction(self, *, request, plan: CoursePlan) -> str:
        texts = templates.in_language(request.language_id)
        grounded = texts["grounded"]
        quote = _Quoter(texts)
        names = ", ".join(quote.markdown(source.name) for source in request.grounding.sources)
        chapters = "\n".join(
            f"{number}. {markdown_literal(chapter.title)}" for number, chapter in enumerate(plan.chapters, 1)
        )
        paragraphs = [
            texts["intro_opening"].format(s=quote.markdown(request.subject)),
            grounded["intro_sources"].format(sources=names, chapters=chapters),
            grounded["intro_method"],
            grounded["intro_note"],
        ]
        if request.variant % 2:
            paragraphs[2], paragraphs[3] = paragraphs[3], paragraphs[2]
        return "\n\n".join(paragraphs)

    def chapter(self, *, request, plan: CoursePlan, index: int) -> ChapterDraft:
        grounding = request.grounding
        texts = templates.in_language(request.language_id)
        grounded = texts["grounded"]
        quote = _Quoter(texts)
        planned = plan.chapters[index]
        reader = _Reader(grounding, planned.passages, language_id=request.language_id)
        if not reader.sentences:
            raise TooLittleText()
        lessons = []
        groups = _lesson_groups(grounding, planned.passages, chapter_title=planned.title, grounded=grounded)
        for title, passage_ids, part in groups:
            chosen = reader.key_sentences(passage_ids, part=part, extra=request.variant)
            lesson = {
                "title": clip(title),
                "body": _paragraphs(chosen),
                "citations": _citations_of(grounding, reader.best_per_passage(chosen)),
            }
            if "practical-exercises" in request.add_ons:
                lesson["exercise"] = self._exercise(
                    reader, chosen, topic=planned.title, grounded=grounded, quote=quote
                )
            lessons.append(lesson)
        chapter = {
            "title": planned.title,
            "summary": planned.summary,
            "lessons": lessons,
            "objectives": [
                objective.model_dump()
                for objective in self._objectives(request=request, plan=plan, index=index)
            ],
        }
        if "articles" in request.add_ons:
            chapter["article"] = self._article(reader, planned, grounded=grounded, quote=quote)
        video = texts["lessons"]["what_it_is"]["video"]
        queries = tuple(
            video.format(topic=one_line(f"{request.subject} {lesson['title']}")) for lesson in lessons
        )
        return ChapterDraft(chapter=content.Chapter.model_validate(chapter), video_queries=queries)

    def _exercise(
        self, reader: "_Reader", chosen: list[Sentence], *, topic: str, grounded: dict, quote: "_Quoter"
    ) -> dict:
        lead = reader.best(chosen)
        terms = reader.terms_in(chosen, count=3) or [reader.fallback_term(chosen)]
        terms_text = ", ".join(terms)
        exercise = grounded["exercise"]
        return {
            "task": clip(exercise["task"].format(t=quote.plain(topic))),
            "steps": [
                clip(step.format(quote=quote.plain(clip(lead.text, 240)), terms=terms_text))
                for step in exercise["steps"]
            ],
            "expectedResult": clip(exercise["expected_result"].format(terms=terms_text)),
            "citations": _citations_of(reader.grounding, [lead]),
        }

    def _article(self, reader: "_Reader", planned: ChapterPlan, *, grounded: dict, quote: "_Quoter") -> dict:
        passage_id = reader.central_passage(planned.passages)
        passage = reader.grounding.text(passage_id)
        info = reader.grounding.passage[passage_id]
        source = reader.grounding.source[info.source]
        page = ""
        if info.page is not None:
            kind = "slide" if source.media_type.endswith("presentation") else "page"
            page = grounded[kind].format(page=info.page)
        lead = grounded["article_lead"].format(source=quote.markdown(source.name), page=page)
        lines = [markdown_literal(line) for line in passage.text.split("\n") if line.strip()]
        body = lead + "\n\n" + "\n>\n".join(f"> {line}" for line in lines)
        sentences = [sentence for sentence in reader.sentences if sentence.passage == passage_id]
        return {
            "title": clip(grounded["article_title"].format(chapter=one_line(planned.title))),
            "body": clip_markdown(body),
            "citations": _citations_of(reader.grounding, [reader.best(sentences)]),
        }

    def wrapup(self, *, request, plan: CoursePlan, chapters: list[content.Chapter]) -> content.Wrapup:
        grounding = request.grounding
        texts = templates.in_language(request.language_id)
        quote = _Quoter(texts)
        ranked_per_chapter = []
        for chapter in chapters:
            passage_ids = [citation.passage_id for lesson in chapter.lessons for citation in lesson.citations]
            reader = _Reader(grounding, passage_ids, language_id=request.language_id)
            cited = [sentence for sentence in reader.ranked() if sentence.word_count >= 4] or reader.ranked()
            ranked_per_chapter.append(cited)
        picked: list[Sentence] = []
        seen: set[tuple[str, int]] = set()
        for round_ in range(SENTENCES_MAX):
            for ranked in ranked_per_chapter:
                if round_ < len(ranked) and (round_ == 0 or len(picked) < 3) and len(picked) < 10:
                    sentence = ranked[round_]
                    if (sentence.passage, sentence.start) not in seen:
                        seen.add((sentence.passage, sentence.start))
                        picked.append(sentence)
            if len(picked) >= 3:
                break
        if len(picked) < 3:
            raise TooLittleText()
        turn = request.variant % len(picked)
        picked = picked[turn:] + picked[:turn]
        lines = "\n".join(
            f"- **{markdown_literal(chapter.title)}**: {markdown_literal(ranked[0].text)}"
            for chapter, ranked in zip(chapters, ranked_per_chapter, strict=True)
            if ranked
        )
        summary = texts["grounded"]["wrapup_summary"].format(
            s=quote.markdown(request.subject), chapters=lines
        )
        return content.Wrapup(
            summary=clip_markdown(summary),
            key_takeaways=[clip(sentence.text) for sentence in picked],
            citations=_citations_of(grounding, picked)[: content.CITATIONS_MAX],
        )

    def assessment(self, *, request, plan: CoursePlan, chapters: list[content.Chapter]) -> content.Assessment:
        grounding = request.grounding
        texts = templates.in_language(request.language_id)
        grounded = texts["grounded"]
        quote = _Quoter(texts)
        per_chapter: list[list[tuple[Sentence, str, list[str]]]] = []
        for index, chapter in enumerate(chapters):
            passage_ids = list(
                dict.fromkeys(
                    citation.passage_id for lesson in chapter.lessons for citation in lesson.citations
                )
            )
            passage_ids = [public_id for public_id in passage_ids if public_id in grounding.passage]
            if not passage_ids and index < len(plan.chapters):
                passage_ids = list(plan.chapters[index].passages)
            candidates = _Reader(grounding, passage_ids, language_id=request.language_id).cloze_candidates()
            turn = request.variant % len(candidates) if candidates else 0
            per_chapter.append(candidates[turn:] + candidates[:turn])
        # One question per objective, chapter by chapter in turn; at least three in all.
        wanted = [max(1, len(chapter.objectives)) for chapter in chapters]
        taken = [0] * len(chapters)
        used: set[tuple[str, int]] = set()
        asked: list[tuple] = []  # (chapter, objective, sentence, answer, distractors)
        round_ = 0
        while len(asked) < 20:
            progressed = False
            for index, candidates in enumerate(per_chapter):
                if (round_ >= wanted[index] and len(asked) >= 3) or len(asked) >= 20:
                    continue
                while taken[index] < len(candidates):
                    sentence, answer, distractors = candidates[taken[index]]
                    taken[index] += 1
                    if (sentence.passage, sentence.start) not in used:
                        used.add((sentence.passage, sentence.start))
                        asked.append((index, round_ % wanted[index], sentence, answer, distractors))
                        progressed = True
                        break
            round_ += 1
            if not progressed or (round_ >= max(wanted) and len(asked) >= 3):
                break
        if len(asked) < 3:
            raise TooLittleText()
        questions = []
        for index, objective, sentence, answer, distractors in asked:
            blanked = _blank(sentence.text, answer)
            objectives = chapters[index].objectives
            questions.append(
                content.Question(
                    prompt=clip(
                        rules.emphasise_negations(
                            grounded["question"].format(sentence=quote.plain(blanked)), request.language_id
                        )
                    ),
                    options=[answer, *distractors],
                    correct_index=0,
                    explanation=clip(grounded["explanation"].format(sentence=quote.plain(sentence.text))),
                    objective_id=objectives[objective].id if objective < len(objectives) else None,
                    citations=_citations_of(grounding, [sentence]),
                )
            )
        return content.Assessment(questions=balance_answer_positions(questions), passing_score_percent=80)

    def _objectives(self, *, request, plan: CoursePlan, index: int) -> list[content.Objective]:
        texts = templates.in_language(request.language_id)
        quote = _Quoter(texts)
        topic = quote.plain(plan.chapters[index].title)
        return [
            content.Objective(
                id=f"{index + 1}.{number}",
                verb=objective["verb"],
                object=clip(objective["object"].format(t=topic)),
                bloom_level=bloom.level_of(objective["verb"], request.language_id),
            )
            for number, objective in enumerate(texts["grounded"]["objectives"], 1)
        ]


# Chapters and lessons from the sources' structure -------------------------------------------------


@dataclasses.dataclass
class _Run:
    """Consecutive passages under the same headings (down to a depth)."""

    key: tuple  # (source public id, heading path to the depth)
    passages: list

    @property
    def headings(self) -> tuple[str, ...]:
        return self.key[1]


def _runs(passages, depth: int) -> list[_Run]:
    runs: list[_Run] = []
    for passage in passages:
        key = (passage.source, tuple(passage.heading_path[:depth]))
        if runs and runs[-1].key == key:
            runs[-1].passages.append(passage)
        else:
            runs.append(_Run(key=key, passages=[passage]))
    return runs


def _chapters_from_structure(grounding, *, subject: str) -> list[tuple[str, list[str]]]:
    """(title, passage ids) of each chapter, following the sources' headings."""
    passages = list(grounding.passages)
    deepest = max((len(passage.heading_path) for passage in passages), default=0)
    depth, runs = deepest, _runs(passages, deepest)
    for candidate in range(1, deepest + 1):
        candidate_runs = _runs(passages, candidate)
        if len(candidate_runs) >= 3:
            depth, runs = candidate, candidate_runs
            break
    while len(runs) < 3:  # few headings: halve the longest sections
        longest = max(runs, key=lambda run: len(run.passages))
        if len(longest.passages) < 4:
            break
        at = runs.index(longest)
        half = len(longest.passages) // 2
        runs[at : at + 1] = [
            _Run(key=(*longest.key, 1), passages=longest.passages[:half]),
            _Run(key=(*longest.key, 2), passages=longest.passages[half:]),
        ]
    if len(runs) > MAX_CHAPTERS:
        relevant = set(grounding.retrieve(subject, limit=200))
        matching = [run for run in runs if any(passage.public_id in relevant for passage in run.passages)]
        if len(matching) >= 3:
            runs = matching
    chapters = []
    for group in _chapter_groups(runs):
        titles = [_run_title(grounding, run) for run in group]
        title = titles[0] if len(set(titles)) == 1 else f"{titles[0]} – {titles[-1]}"
        passages = []
        for lesson_runs in _even_chunks(_lesson_runs(group, depth), MAX_LESSONS):
            if len(lesson_runs) == 1:
                passages += _spread(lesson_runs[0].passages, PASSAGES_PER_LESSON)
            else:
                passages += [run.passages[0] for run in _spread(lesson_runs, PASSAGES_PER_LESSON)]
        chapters.append((title, [passage.public_id for passage in passages]))
    return _unique_titles(chapters, grounding)


def _chapter_groups(runs: list[_Run]) -> list[list[_Run]]:
    """
    The runs in at most MAX_CHAPTERS groups of consecutive runs, one source at a time: a chapter
    never spans two documents. Each source gets chapters in proportion to its runs, at least one;
    with more sources than chapters, those with the fewest runs are left out.
    """
    by_source: dict[str, list[_Run]] = {}
    for run in runs:
        by_source.setdefault(run.key[0], []).append(run)
    kept = sorted(by_source, key=lambda source: -len(by_source[source]))[:MAX_CHAPTERS]
    sources = [source for source in by_source if source in kept]
    total = sum(len(by_source[source]) for source in sources)
    quota = {source: max(1, round(MAX_CHAPTERS * len(by_source[source]) / total)) for source in sources}
    while sum(quota.values()) > MAX_CHAPTERS:
        largest = max((source for source in sources if quota[source] > 1), key=lambda source: quota[source])
        quota[largest] -= 1
    return [group for source in sources for group in _even_chunks(by_source[source], quota[source])]


def _unique_titles(chapters: list[tuple[str, list[str]]], grounding) -> list[tuple[str, list[str]]]:
    """Chapter titles told apart: a title two chapters share names the document of each ("Introduction
    (Libtasn1)"), and one still shared then is numbered."""
    counts = collections.Counter(title for title, _ in chapters)
    named = []
    for title, passages in chapters:
        if counts[title] > 1 and passages:
            source = grounding.source[grounding.passage[passages[0]].source]
            title = f"{title} ({source.title or source.name})"
        named.append((title, passages))
    counts, seen = collections.Counter(title for title, _ in named), collections.Counter()
    unique = []
    for title, passages in named:
        seen[title] += 1
        unique.append((f"{title} ({seen[title]})" if counts[title] > 1 else title, passages))
    return unique


def _lesson_runs(group: list[_Run], depth: int) -> list[_Run]:
    """The runs that become lessons of a chapter made of `group` (at heading depth `depth`)."""
    if len(group) >= 2:
        return group
    passages = group[0].passages
    deepest = max((len(passage.heading_path) for passage in passages), default=0)
    for candidate in range(depth + 1, deepest + 1):
        runs = _runs(passages, candidate)
        if len(runs) >= 2:
            return runs
    return [
        _Run(key=(*group[0].key, number), passages=chunk)
        for number, chunk in enumerate(_even_chunks(passages, MAX_LESSONS))
    ]


def _lesson_groups(
    grounding, passage_ids, *, chapter_title: str, grounded: dict
) -> list[tuple[str, list[str], tuple[int, int] | None]]:
    """
    (title, passage ids, part) of each lesson of a chapter written from these passages: the first
    heading level that divides them, else parts of them; `part` (i, n) takes the i-th of n parts of
    a single passage's sentences.
    """
    passages = [grounding.passage[public_id] for public_id in passage_ids if public_id in grounding.passage]
    common = _common_prefix([passage.heading_path for passage in passages])
    deepest = max((len(passage.heading_path) for passage in passages), default=0)
    runs = None
    for depth in range(len(common) + 1, deepest + 1):
        candidate = _runs(passages, depth)
        if len(candidate) >= 2:
            runs = candidate
            break
    if runs is None and len(passages) >= 2:
        runs = [_Run(key=("", ()), passages=chunk) for chunk in _even_chunks(passages, MAX_LESSONS)]
    if runs is None:
        count = 2
        return [
            (
                grounded["lesson_part"].format(chapter=one_line(chapter_title), number=number, count=count),
                [passages[0].public_id],
                (number - 1, count),
            )
            for number in range(1, count + 1)
        ]
    groups = _even_chunks(runs, MAX_LESSONS)
    lessons = []
    for number, group in enumerate(groups, 1):
        titles = [without_section_number(run.headings[-1]) for run in group if len(run.headings) > len(common)]
        title = titles[0] if len(set(titles)) == 1 else f"{titles[0]} – {titles[-1]}" if titles else ""
        if not title or title == chapter_title:
            title = grounded["lesson_part"].format(
                chapter=one_line(chapter_title), number=number, count=len(groups)
            )
        lessons.append((title, [passage.public_id for run in group for passage in run.passages], None))
    return lessons


def _run_title(grounding, run: _Run) -> str:
    headings = [heading for heading in run.headings if isinstance(heading, str)]
    if headings:
        return without_section_number(headings[-1])
    source = grounding.source[run.key[0]]
    return source.title or source.name


def _common_prefix(paths) -> tuple[str, ...]:
    paths = [tuple(path) for path in paths]
    if not paths:
        return ()
    prefix = paths[0]
    for path in paths[1:]:
        while path[: len(prefix)] != prefix:
            prefix = prefix[:-1]
    return prefix


def _even_chunks(items: list, most: int) -> list[list]:
    """The items in at most `most` consecutive chunks of near-equal size (each item alone when few)."""
    if len(items) <= most:
        return [[item] for item in items]
    size, extra = divmod(len(items), most)
    chunks, at = [], 0
    for number in range(most):
        take = size + (1 if number < extra else 0)
        chunks.append(items[at : at + take])
        at += take
    return chunks


def _spread(items: list, count: int) -> list:
    """`count` items spread evenly from first to last (all of them when there are fewer)."""
    if len(items) <= count:
        return list(items)
    if count == 1:
        return [items[0]]
    return [items[round(number * (len(items) - 1) / (count - 1))] for number in range(count)]


def _source_name(grounding, passage_id: str) -> str:
    return grounding.source[grounding.passage[passage_id].source].name


# Reading the passages -----------------------------------------------------------------------------


# Frequent words that name nothing, beyond the function words courses.quality lists: never key terms.
_PLAIN_WORDS = {
    "en-US": set(
        """because every everyone everything always never least whenever although however therefore thus
        also already another again against around often still until unless whether which while within
        without something someone anything nothing there their these those where after before about
        above below under other others should would could might being having doing going keeps keep
        takes take makes gives give comes come needs need small large great little first second third""".split()
    ),
    "pt-BR": set(
        """porque cada todos todas sempre nunca quando embora porém portanto também ainda outra outro outros
        outras antes depois sobre entre durante contra mesmo mesma menos muito muita muitos muitas pouco
        deve devem pode podem isso isto aquilo onde""".split()
    ),
    "es-ES": set(
        """porque cada todos todas siempre nunca cuando aunque pero también todavía otra otro otros otras
        antes después sobre entre durante contra mismo misma menos mucho mucha muchos muchas poco debe deben
        puede pueden donde""".split()
    ),
    "fr-FR": set(
        """parce chaque toujours jamais quand lorsque cependant pourtant aussi encore autre autres avant
        après entre pendant contre même moins beaucoup doivent peuvent toutes""".split()
    ),
    "de-DE": set(
        """weil jeder jede jedes immer niemals wenn obwohl jedoch deshalb auch noch andere anderen anderer
        vorher nachher zwischen während gegen gleich weniger viele vielen müssen können sollen werden
        wurde worden""".split()
    ),
}


def _stopwords(grounding, language_id: str) -> set[str]:
    languages = {language_id} | {
        _LANGUAGE_OF_CODE[source.language]
        for source in grounding.sources
        if source.language in _LANGUAGE_OF_CODE
    }
    found: set[str] = set()
    for language in languages:
        found |= words.STOPWORDS[language] | words.ABSOLUTES[language] | words.NEGATIONS[language]
        found |= _PLAIN_WORDS[language]
    return found


def split_sentences(passage: citations.PassageText) -> list[tuple[int, int]]:
    """(start, end) of each sentence of the passage: each line (a list item, a table row) at least one."""
    spans = []
    offset = 0
    for line in passage.text.split("\n"):
        cursor = 0
        for match in list(_SENTENCE_END.finditer(line)) + [None]:
            end = match.start() if match else len(line)
            piece = line[cursor:end]
            if piece.strip():
                lead = len(piece) - len(piece.lstrip())
                spans.append((offset + cursor + lead, offset + cursor + len(piece.rstrip())))
            if match:
                cursor = match.end()
        offset += len(line) + 1
    return spans


class _Reader:
    """The sentences of some passages, with how central each is and the key terms of their sources."""

    def __init__(self, grounding, passage_ids, *, language_id: str):
        self.grounding = grounding
        self.language_id = language_id
        self.stopwords = _stopwords(grounding, language_id)
        self.sentences: list[Sentence] = []
        for public_id in dict.fromkeys(passage_ids):
            if public_id not in grounding.passage:
                continue
            passage = grounding.text(public_id)
            for start, end in split_sentences(passage):
                text = passage.text[start:end]
                self.sentences.append(
                    Sentence(
                        passage=public_id,
                        start=start,
                        end=end,
                        text=text,
                        words=frozenset(_content_words(text, self.stopwords)),
                        position=len(self.sentences),
                    )
                )
        ranked = _spread(self.sentences, RANKED_MAX)
        self.score = dict.fromkeys(self.sentences, BASE_SCORE)
        self.score.update(zip(ranked, centrality(ranked), strict=True))
        self._terms: dict | None = None
        self.surfaces: dict[str, str] = {}  # a key term as its source most often writes it

    def ranked(self) -> list[Sentence]:
        return sorted(self.sentences, key=lambda sentence: (-self.score[sentence], sentence.position))

    def best(self, sentences: list[Sentence]) -> Sentence:
        return min(sentences, key=lambda sentence: (-self.score[sentence], sentence.position))

    def key_sentences(self, passage_ids, *, part: tuple[int, int] | None, extra: int = 0) -> list[Sentence]:
        """The central sentences of these passages, in their order: about two in five of them."""
        wanted = set(passage_ids)
        pool = [sentence for sentence in self.sentences if sentence.passage in wanted]
        if part is not None:
            number, count = part
            size = math.ceil(len(pool) / count)
            pool = pool[number * size : (number + 1) * size] or pool[-1:]
        eligible = [sentence for sentence in pool if sentence.word_count >= 4] or pool
        count = min(
            len(eligible), max(SENTENCES_MIN, min(SENTENCES_MAX, math.ceil(len(eligible) * 0.4))) + extra % 3
        )
        chosen = sorted(eligible, key=lambda sentence: (-self.score[sentence], sentence.position))[:count]
        return sorted(chosen, key=lambda sentence: sentence.position)

    def best_per_passage(self, chosen: list[Sentence]) -> list[Sentence]:
        by_passage: dict[str, Sentence] = {}
        for sentence in sorted(chosen, key=lambda sentence: (-self.score[sentence], sentence.position)):
            by_passage.setdefault(sentence.passage, sentence)
        return sorted(by_passage.values(), key=lambda sentence: sentence.position)

    def central_passage(self, passage_ids) -> str:
        totals: collections.Counter = collections.Counter()
        for sentence in self.sentences:
            totals[sentence.passage] += self.score[sentence]
        present = [public_id for public_id in passage_ids if public_id in totals]
        return max(present, key=lambda public_id: (totals[public_id], -present.index(public_id)))

    def key_terms(self) -> dict[str, dict[str, float]]:
        """
        Per source: the key terms of these passages (case-folded) and their weight: how often the
        passages use the source's terms, times how particular each is to a part of the source.
        """
        if self._terms is None:
            self._terms = {}
            for sentence in self.sentences:
                source = self.grounding.passage[sentence.passage].source
                terms = document_terms(self.grounding, source, self.stopwords)
                weights = self._terms.setdefault(source, {})
                for word in _term_words(sentence.text, self.stopwords):
                    if word.casefold() in terms.idf:
                        folded = word.casefold()
                        weights[folded] = weights.get(folded, 0.0) + terms.idf[folded]
                        self.surfaces[folded] = terms.surfaces[folded]
        return self._terms

    def terms_in(self, chosen: list[Sentence], *, count: int) -> list[str]:
        terms = self.key_terms()
        found: dict[str, float] = {}
        for sentence in chosen:
            source = self.grounding.passage[sentence.passage].source
            for word in sentence.words:
                weight = terms.get(source, {}).get(word)
                if weight:
                    found[word] = max(found.get(word, 0), weight)
        return [
            self.surfaces[term]
            for term, _ in sorted(found.items(), key=lambda item: (-item[1], item[0]))[:count]
        ]

    def fallback_term(self, chosen: list[Sentence]) -> str:
        counts = collections.Counter(word for sentence in chosen for word in sentence.words)
        return (
            min(counts, key=lambda word: (-counts[word], word)) if counts else one_line(chosen[0].text)[:40]
        )

    def cloze_candidates(self) -> list[tuple[Sentence, str, list[str]]]:
        """(sentence, answer, distractors) for central sentences with a key term, most central first."""
        terms = self.key_terms()
        found = []
        for sentence in self.ranked():
            low, high = QUESTION_WORDS
            if not low <= sentence.word_count <= high or len(sentence.text) > content.QUOTE_MAX:
                continue
            source = self.grounding.passage[sentence.passage].source
            weights = terms.get(source, {})
            document = document_terms(self.grounding, source, self.stopwords)
            present = sorted(
                (word for word in sentence.words if word in weights), key=lambda word: (-weights[word], word)
            )
            for answer in present:
                distractors = _distractors(answer, document.weight, sentence)
                if distractors:
                    found.append(
                        (
                            sentence,
                            document.surfaces[answer],
                            [document.surfaces[term] for term in distractors],
                        )
                    )
                    break
        return found


def _occurs(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, flags=re.IGNORECASE) is not None


def _blank(text: str, word: str) -> str:
    return re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", BLANK, text, flags=re.IGNORECASE)


def _distractors(answer: str, weights: dict[str, float], sentence: Sentence, count: int = 3) -> list[str]:
    """Other key terms of the source, as long as the answer as possible, none in the sentence."""
    chosen: list[str] = []
    ranked = sorted(weights, key=lambda term: (abs(len(term) - len(answer)), -weights[term], term))
    for term in ranked:
        if term == answer or _occurs(sentence.text, term) or term[:5] == answer[:5]:
            continue
        if any(term[:5] == other[:5] for other in chosen):
            continue
        chosen.append(term)
        if len(chosen) == count:
            break
    return chosen


def _content_words(text: str, stopwords: set[str]) -> list[str]:
    return [
        word
        for word in (match.casefold() for match in _WORD.findall(text))
        if len(word) >= 3 and not word.isdigit() and word not in stopwords
    ]


@dataclasses.dataclass(frozen=True)
class DocumentTerms:
    idf: dict[str, float]  # a key term (case-folded): log(sentences / sentences with it)
    weight: dict[str, float]  # its weight in the whole source (tf-idf)
    surfaces: dict[str, str]  # how the source most often writes it


def _term_words(text: str, stopwords: set[str]) -> list[str]:
    return [
        word
        for word in _WORD.findall(text)
        if len(word) >= 5 and word.isalpha() and word.casefold() not in stopwords
    ]


def document_terms(grounding, source: str, stopwords: set[str]) -> DocumentTerms:
    """
    The key terms of a source, from the passages of it read so far: words of five letters or more
    that recur, in at most a fifth of its sentences (so they are particular to a part of it), with
    their tf-idf. Worked out once per grounding and source.
    """
    cache = grounding.__dict__.setdefault("_document_terms", {})
    if source in cache:
        return cache[source]
    frequency: collections.Counter = collections.Counter()
    spread: collections.Counter = collections.Counter()
    written: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    total = 0
    ids = [passage.public_id for passage in grounding.passages if passage.source == source]
    for passage in grounding.texts(ids).values():
        for start, end in split_sentences(passage):
            total += 1
            found = _term_words(passage.text[start:end], stopwords)
            for word in found:
                written[word.casefold()][word] += 1
            folded = [word.casefold() for word in found]
            frequency.update(folded)
            spread.update(set(folded))
    recurs = 2 if total >= 20 else 1
    idf = {
        word: math.log(total / spread[word])
        for word in frequency
        if frequency[word] >= recurs and spread[word] <= max(1, total // 5)
    }
    weight = {word: frequency[word] * idf[word] for word in idf}
    best = sorted(weight, key=lambda word: (-weight[word], word))[:60]
    terms = DocumentTerms(
        idf={word: idf[word] for word in best},
        weight={word: weight[word] for word in best},
        surfaces={word: min(written[word], key=lambda form: (-written[word][form], form)) for word in best},
    )
    cache[source] = terms
    return terms


DAMPING = 0.85
BASE_SCORE = 1 - DAMPING


def centrality(sentences: list[Sentence], *, damping: float = DAMPING, rounds: int = 30) -> list[float]:
    """
    TextRank (Mihalcea and Tarau, 2004): each sentence's score is fed by the sentences it shares
    words with, in proportion to their overlap (normalised by the sentences' lengths) and to their
    own scores. Deterministic; a sentence alone, or sharing nothing, scores the base 1 - damping.
    """
    count = len(sentences)
    neighbours: list[list[tuple[int, float]]] = [[] for _ in range(count)]
    for i in range(count):
        for j in range(i + 1, count):
            a, b = sentences[i].words, sentences[j].words
            shared = len(a & b) if a and b else 0
            if shared:
                weight = shared / (math.log(len(a) + 1) + math.log(len(b) + 1))
                neighbours[i].append((j, weight))
                neighbours[j].append((i, weight))
    totals = [sum(weight for _, weight in row) for row in neighbours]
    # Per sentence, once: its neighbours' scores as one lookup, and the share of each neighbour's
    # links it gets. Every round then adds up the same products in the same order as one sum.
    rows = [(_picker([j for j, _ in row]), [weight / totals[j] for j, weight in row]) for row in neighbours]
    scores = [1.0] * count
    for _ in range(rounds):
        scores = [
            (1 - damping) + damping * sum(map(operator.mul, shares, pick(scores))) for pick, shares in rows
        ]
    return scores


def _picker(indexes: list[int]):
    """A function of a list giving its items at these indexes, as a tuple."""
    if len(indexes) > 1:
        return operator.itemgetter(*indexes)
    return lambda items: tuple(items[index] for index in indexes)


def _paragraphs(chosen: list[Sentence]) -> str:
    """The sentences as Markdown, one paragraph per passage, each shown exactly as written."""
    paragraphs: list[list[str]] = []
    last = None
    for sentence in chosen:
        if sentence.passage != last:
            paragraphs.append([])
            last = sentence.passage
        paragraphs[-1].append(markdown_literal(sentence.text))
    return clip_markdown("\n\n".join(" ".join(sentences) for sentences in paragraphs))


def clip_markdown(text: str) -> str:
    if len(text) <= content.MARKDOWN_MAX:
        return text
    cut = text[: content.MARKDOWN_MAX - 1]
    return cut[: cut.rfind("\n\n")] if "\n\n" in cut else cut.rstrip() + "…"


def _citations_of(grounding, sentences: list[Sentence]) -> list[dict]:
    """A citation of each sentence (its passage and the sentence as quote), once each."""
    found: dict[tuple, dict] = {}
    for sentence in sentences:
        citation = citations.cite(grounding.text(sentence.passage), sentence.start, sentence.end)
        found.setdefault((citation.passage_id, citation.quote), citation.model_dump())
    return list(found.values())[: content.CITATIONS_MAX]


class _Quoter:
    """Text in the course language's quotation marks, plain or escaped for Markdown."""

    def __init__(self, texts: dict):
        self._open, self._close = texts["quotes"]

    def plain(self, text: str) -> str:
        return f"{self._open}{one_line(text)}{self._close}"

    def markdown(self, text: str) -> str:
        return f"{self._open}{markdown_literal(text)}{self._close}"
