"""
The offline generator for a course built from the client's sources: no model and no network,
deterministic, and every lesson, exercise, article, wrap-up and quiz question cited.

- Chapters follow each document's own top-level sections, one document at a time: a section with
  many parts is split at its subsections, one too small for two lessons joins its neighbour, and
  with more than nine chapters the neighbours smallest together are joined. With an outline, each
  chapter takes the passages that match its title best (full-text rank).
- Lessons are a chapter's parts (its sections at the finest heading level that gives five at most),
  each drawn from its own sentences in the sources' words and order: how it opens, the most central
  sentence of each of its sections, then the most central others (TextRank: a sentence is central
  when it shares words with many other central sentences) until about half its words; a list or
  table comes whole. Each lesson cites the passages its sentences come from.
- Exercises have the learner restate a cited passage with its key terms; articles give a chapter's
  most central passage in full; the wrap-up gives each chapter's most central sentence.
- Quiz questions blank a key term out of a central sentence that reads as prose (key terms: words a
  source uses often in few of its sentences, tf-idf); the distractors are other key terms of the
  same source and kind, of a length close to the answer's, none used twice in the quiz. The quote
  cited is the sentence itself, so it states the answer.

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
from courses.generation import structure
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

# A lesson takes about this share of its section's words, at least structure.LESSON_WORDS_MIN (or the whole
# section, when shorter) and at most LESSON_WORDS_MAX; a list or table longer than LIST_ROWS_MAX
# rows is quoted by the rows chosen, not whole.
LESSON_SHARE = 0.5
LESSON_WORDS_MAX = 450
LIST_ROWS_MAX = 12
# Key sentences the wrap-up gives of each chapter at most.
SENTENCES_MAX = 8
# TextRank compares every pair of the sentences it ranks: beyond this many (a checklist or a long
# table is a sentence a line), an even spread of them is ranked, and the others score the base.
RANKED_MAX = 300
# A sentence a quiz question is made from: long enough to say something, short enough to quote whole.
QUESTION_WORDS = (6, 60)
# The share of a question's sentence that must be plain words (the rest: numbers, names of code, …).
PROSE_SHARE = 0.8
BLANK = "_____"
# Source languages (ISO 639-1) whose function words we know, by course language.
_LANGUAGE_OF_CODE = {"en": "en-US", "pt": "pt-BR", "es": "es-ES", "fr": "fr-FR", "de": "de-DE"}

# A line that ends a sentence or leads into what follows it.
_LINE_END = re.compile(r"[.!?…:;][\"'”’»)\]]*$")
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
    block: int = 0  # the paragraph of its passage it is in (paragraphs are parted by a blank line)
    row: bool = False  # a whole line of a paragraph of several lines: a list item or a table row

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
                for title, passages in structure.chapters_from_structure(grounding, grounded=grounded)
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
        groups = structure.lesson_groups(
            grounding, planned.passages, chapter_title=planned.title, grounded=grounded
        )
        for title, passage_ids, part in groups:
            chosen = reader.key_sentences(passage_ids, part=part, extra=request.variant)
            lesson = {
                "title": clip(title),
                "body": _paragraphs(chosen),
                "citations": _citations_of(grounding, reader.best_per_passage(chosen))
                or _citations_of(grounding, reader.ranked_among(chosen)),
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
            cited = [
                sentence
                for sentence in reader.ranked()
                if sentence.word_count >= 4 and reader.citable(sentence)
            ] or reader.ranked()
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
        per_chapter: list[list[_Cloze]] = []
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
        stopwords = _stopwords(grounding, request.language_id)
        # Terms recur across questions, and then sentences that do not read as prose are asked about
        # and a question may hold another's answer, only when the quiz could not have three questions
        # without.
        for strict in (2, 1, 0):
            asked = _cloze_questions(grounding, chapters, per_chapter, stopwords, strict=strict)
            if len(asked) >= 3:
                break
        else:
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


def _cloze_questions(
    grounding,
    chapters: list[content.Chapter],
    per_chapter: list[list["_Cloze"]],
    stopwords: set[str],
    *,
    strict: int,
) -> list[tuple]:
    """
    (chapter, objective, sentence, answer, distractors) of each question: one per objective,
    chapter by chapter in turn, at most 20, never two of one sentence. Strict 2: no term is an
    answer or a distractor twice in the quiz, nor twice in its sentence; 1 or 2: only sentences that
    read as prose, and no question holds another's answer.
    """
    fresh, apart = strict >= 2, strict >= 1
    wanted = [max(1, len(chapter.objectives)) for chapter in chapters]
    taken = [0] * len(chapters)
    used_sentences: set[str] = set()
    used_terms: set[str] = set()
    asked: list[tuple] = []
    answers: list[str] = []
    round_ = 0
    while len(asked) < 20:
        progressed = False
        for index, candidates in enumerate(per_chapter):
            if (round_ >= wanted[index] and len(asked) >= 3) or len(asked) >= 20:
                continue
            while taken[index] < len(candidates):
                cloze = candidates[taken[index]]
                taken[index] += 1
                said = " ".join(cloze.sentence.text.split()).casefold()
                if said in used_sentences or (apart and not cloze.prose):
                    continue
                # No question gives another's answer away: its sentence holds no earlier answer, and
                # its answer is in no earlier sentence.
                if apart and any(_occurs(cloze.sentence.text, answer) for answer in answers):
                    continue
                made = _cloze_question(
                    grounding,
                    cloze,
                    stopwords,
                    avoid=used_terms if fresh else set(),
                    least=3 if fresh else 1,
                    unsaid_in=[sentence.text for _, _, sentence, _, _ in asked] if apart else [],
                    once=fresh,
                )
                if made is None:
                    continue
                answer, distractors = made
                answers.append(answer)
                used_sentences.add(said)
                used_terms.update(term.casefold() for term in (answer, *distractors))
                asked.append((index, round_ % wanted[index], cloze.sentence, answer, distractors))
                progressed = True
                break
        round_ += 1
        if not progressed or (round_ >= max(wanted) and len(asked) >= 3):
            break
    return asked


def _cloze_question(
    grounding,
    cloze: "_Cloze",
    stopwords: set[str],
    *,
    avoid: set[str],
    least: int,
    unsaid_in: list[str],
    once: bool,
):
    """
    (answer, distractors) of a question blanking a term out of the sentence, as the source writes
    them: the first of its answers with `least` distractors or more (see _distractors), in none of
    the sentences `unsaid_in` (those of earlier questions) and, with `once`, in the sentence once
    only; or None.
    """
    document = document_terms(grounding, cloze.source, stopwords)
    for answer in cloze.answers:
        if answer in avoid or any(_occurs(text, answer) for text in unsaid_in):
            continue
        if once and _occurrences(cloze.sentence.text, answer) > 1:
            continue
        distractors = _distractors(answer, document, cloze.sentence, avoid=avoid)
        if len(distractors) >= least:
            return document.surfaces[answer], [document.surfaces[term] for term in distractors]
    return None


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
    """
    (start, end) of each sentence of the passage: each line (a list item, a table row) at least one,
    except that a line ending without punctuation goes on into a next one that opens in lower case
    (a sentence a page broke across lines or paragraphs).
    """
    return [span for line in _lines(passage.text) for span in _sentences_in(passage.text, *line)]


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line of the text, a sentence broken across lines taken as one."""
    lines: list[tuple[int, int]] = []
    offset = 0
    for line in text.split("\n"):
        start, end = offset, offset + len(line)
        offset = end + 1
        if not line.strip():
            continue
        if lines:
            before = text[lines[-1][0] : lines[-1][1]].rstrip()
            if not _LINE_END.search(before) and line.lstrip()[:1].islower():
                lines[-1] = (lines[-1][0], end)
                continue
        lines.append((start, end))
    return lines


def _sentences_in(text: str, start: int, end: int) -> list[tuple[int, int]]:
    line = text[start:end]
    spans = []
    cursor = 0
    for match in list(_SENTENCE_END.finditer(line)) + [None]:
        stop = match.start() if match else len(line)
        piece = line[cursor:stop]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.append((start + cursor + lead, start + cursor + len(piece.rstrip())))
        if match:
            cursor = match.end()
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
            lines = _lines(passage.text)
            blocks = [passage.text.count("\n\n", 0, start) for start, _ in lines]
            lines_in_block = collections.Counter(blocks)
            for (line_start, line_end), block in zip(lines, blocks, strict=True):
                spans = _sentences_in(passage.text, line_start, line_end)
                for start, end in spans:
                    text = passage.text[start:end]
                    self.sentences.append(
                        Sentence(
                            passage=public_id,
                            start=start,
                            end=end,
                            text=text,
                            words=frozenset(_content_words(text, self.stopwords)),
                            position=len(self.sentences),
                            block=block,
                            row=lines_in_block[block] > 1 and len(spans) == 1,
                        )
                    )
        ranked = structure.spread(self.sentences, RANKED_MAX)
        self.score = dict.fromkeys(self.sentences, BASE_SCORE)
        self.score.update(zip(ranked, centrality(ranked), strict=True))
        self._terms: dict | None = None
        self._citable: dict[Sentence, bool] = {}
        self.surfaces: dict[str, str] = {}  # a key term as its source most often writes it

    def ranked(self) -> list[Sentence]:
        return sorted(self.sentences, key=lambda sentence: (-self.score[sentence], sentence.position))

    def ranked_among(self, sentences: list[Sentence]) -> list[Sentence]:
        return sorted(sentences, key=lambda sentence: (-self.score[sentence], sentence.position))

    def best(self, sentences: list[Sentence]) -> Sentence:
        citable = [sentence for sentence in sentences if self.citable(sentence)] or sentences
        return min(citable, key=lambda sentence: (-self.score[sentence], sentence.position))

    def citable(self, sentence: Sentence) -> bool:
        """Whether the sentence's quote checks (see _citations_of)."""
        if sentence not in self._citable:
            self._citable[sentence] = bool(_citations_of(self.grounding, [sentence]))
        return self._citable[sentence]

    def key_sentences(self, passage_ids, *, part: tuple[int, int] | None, extra: int = 0) -> list[Sentence]:
        """
        A lesson's sentences from these passages, in their order: the one they open with (the
        overview), then the most central ones until about half their words are taken (at least
        structure.LESSON_WORDS_MIN, at most LESSON_WORDS_MAX); a list or table a chosen row is in comes whole,
        with the line that leads into it.
        """
        wanted = set(passage_ids)
        pool = [sentence for sentence in self.sentences if sentence.passage in wanted]
        if part is not None:
            number, count = part
            size = math.ceil(len(pool) / count)
            pool = pool[number * size : (number + 1) * size] or pool[-1:]
        eligible = [
            sentence for sentence in pool if sentence.word_count >= 4 and self.citable(sentence)
        ] or pool
        total = sum(sentence.word_count for sentence in pool)
        target = (
            min(total, max(structure.LESSON_WORDS_MIN, round(total * LESSON_SHARE)), LESSON_WORDS_MAX)
            + extra % 3 * 10
        )
        chosen: dict[Sentence, None] = {}
        # How the part opens and the best sentence of each of its sections (however many: every
        # section a lesson is drawn from is in it), then the most central ones up to the target.
        ranked = self.ranked_among(eligible)
        best_of_section: dict[tuple, Sentence] = {}
        for sentence in ranked:
            best_of_section.setdefault(self.section_of(sentence), sentence)
        for sentence in [
            eligible[0],
            *sorted(best_of_section.values(), key=lambda sentence: sentence.position),
        ]:
            chosen.setdefault(sentence)
        for sentence in ranked:
            if sum(taken.word_count for taken in chosen) >= target:
                break
            for taken in self._with_its_list(sentence, pool):
                chosen.setdefault(taken)
        return sorted(chosen, key=lambda sentence: sentence.position)

    def _with_its_list(self, sentence: Sentence, pool: list[Sentence]) -> list[Sentence]:
        if not sentence.row:
            return [sentence]
        rows = [
            other for other in pool if other.passage == sentence.passage and other.block == sentence.block
        ]
        if len(rows) > LIST_ROWS_MAX or sum(row.word_count for row in rows) > LESSON_WORDS_MAX // 2:
            return [sentence]
        at = pool.index(rows[0])
        lead = pool[at - 1 : at] if at and pool[at - 1].text.rstrip().endswith(":") else []
        return lead + rows

    def best_per_passage(self, chosen: list[Sentence]) -> list[Sentence]:
        """
        The most central of the chosen sentences of each passage, in order; at most CITATIONS_MAX, of
        which first one of each section the chosen sentences are in.
        """
        by_passage: dict[str, Sentence] = {}
        for sentence in self.ranked_among(chosen):
            by_passage.setdefault(sentence.passage, sentence)
        sections: set[tuple] = set()
        first_of_section = []
        for sentence in sorted(by_passage.values(), key=lambda sentence: sentence.position):
            first_of_section.append(self.section_of(sentence) not in sections)
            sections.add(self.section_of(sentence))
        ordered = sorted(by_passage.values(), key=lambda sentence: sentence.position)
        kept = sorted(range(len(ordered)), key=lambda at: (not first_of_section[at], at))[
            : content.CITATIONS_MAX
        ]
        return [ordered[at] for at in sorted(kept)]

    def section_of(self, sentence: Sentence) -> tuple:
        passage = self.grounding.passage[sentence.passage]
        return (passage.source, passage.heading_path)

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

    def cloze_candidates(self) -> list["_Cloze"]:
        """
        Central sentences, each with the key terms of its source it holds (the answers it could
        blank, weightiest first; those it holds once before those it holds twice), most central first.
        """
        terms = self.key_terms()
        found = []
        for sentence in self.ranked():
            low, high = QUESTION_WORDS
            if not low <= sentence.word_count <= high or len(sentence.text) > content.QUOTE_MAX:
                continue
            if not self.citable(sentence):
                continue
            source = self.grounding.passage[sentence.passage].source
            weights = terms.get(source, {})
            answers = sorted(
                (word for word in sentence.words if word in weights),
                key=lambda word: (_occurrences(sentence.text, word) > 1, -weights[word], word),
            )
            if answers:
                found.append(_Cloze(sentence, source, tuple(answers), prose=_reads_as_prose(sentence.text)))
        return found


@dataclasses.dataclass(frozen=True)
class _Cloze:
    sentence: Sentence
    source: str  # its source's public id
    answers: tuple[str, ...]  # key terms (case-folded) it could blank, the best first
    prose: bool  # whether it reads as prose (see _reads_as_prose)


# What a sentence a question is made of must not hold: a web or e-mail address, code or markup.
_NOT_PROSE = re.compile(r"https?://|www\.|\S@\S|::=|[{}<>\[\]|=]")


def _reads_as_prose(text: str) -> bool:
    """Whether the text is a sentence of words, not a reference entry, a command's usage or code."""
    if _NOT_PROSE.search(text):
        return False
    tokens = text.split()
    words_ = [
        token
        for token in tokens
        if re.fullmatch(r"[\"'“‘(]*[^\W\d_]+(?:[-’'][^\W\d_]+)*[\"'”’).,;:!?]*", token)
    ]
    return len(words_) >= PROSE_SHARE * len(tokens)


def _occurrences(text: str, word: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text, flags=re.IGNORECASE))


def _occurs(text: str, word: str) -> bool:
    return _occurrences(text, word) > 0


def _blank(text: str, word: str) -> str:
    return re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", BLANK, text, flags=re.IGNORECASE)


def _kind(surface: str) -> str:
    """What a term looks like, which a distractor shares with its answer: a name in capitals, a
    capitalised word, a plain one."""
    if surface.isupper():
        return "capitals"
    return "capitalised" if surface[:1].isupper() else "plain"


def _distractors(
    answer: str,
    document: "DocumentTerms",
    sentence: Sentence,
    *,
    avoid: set[str] = frozenset(),
    count: int = 3,
) -> list[str]:
    """
    `count` other key terms of the answer's source (case-folded), of the answer's kind and as long
    as it as can be, none in the sentence, none in `avoid` (the terms other questions use), none
    sharing its first five letters with the answer or another; fewer when there are not enough.
    """
    chosen: list[str] = []
    kind = _kind(document.surfaces[answer])
    weights = document.weight
    ranked = sorted(weights, key=lambda term: (abs(len(term) - len(answer)), -weights[term], term))
    for term in ranked:
        if term == answer or term in avoid or _kind(document.surfaces[term]) != kind:
            continue
        if (
            _occurs(sentence.text, term)
            or term[:5] == answer[:5]
            or any(term[:5] == other[:5] for other in chosen)
        ):
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
    """
    The sentences as Markdown, exactly as written: those of one paragraph of the source together,
    the rows of a list or table as a list.
    """
    blocks: list[list[Sentence]] = []
    for sentence in chosen:
        if blocks and (blocks[-1][-1].passage, blocks[-1][-1].block) == (sentence.passage, sentence.block):
            blocks[-1].append(sentence)
        else:
            blocks.append([sentence])
    rendered = []
    for block in blocks:
        lines = [markdown_literal(sentence.text) for sentence in block]
        if len(block) > 1 and all(sentence.row for sentence in block):
            rendered.append("\n".join(f"- {line}" for line in lines))
        else:
            rendered.append(" ".join(lines))
    return clip_markdown("\n\n".join(rendered))


def clip_markdown(text: str) -> str:
    if len(text) <= content.MARKDOWN_MAX:
        return text
    cut = text[: content.MARKDOWN_MAX - 1]
    return cut[: cut.rfind("\n\n")] if "\n\n" in cut else cut.rstrip() + "…"


def _citations_of(grounding, sentences: list[Sentence]) -> list[dict]:
    """
    A citation of each sentence (its passage and the sentence as quote), once each; a sentence whose
    quote would not check (too short to show where it comes from, or ending in an ellipsis that
    checking reads as a cut) is not cited.
    """
    found: dict[tuple, dict] = {}
    for sentence in sentences:
        passage = grounding.text(sentence.passage)
        citation = citations.cite(passage, sentence.start, sentence.end)
        checked = citations.check(
            passage_id=passage.public_id,
            quote=citation.quote,
            passages={passage.public_id: passage},
            source_ids={passage.source_id},
        )
        if checked.citation is not None and checked.citation.quote == citation.quote:
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
