"""
The item-writing checker: one rule per classic multiple-choice flaw of the item-writing literature
(Haladyna, Downing and Rodriguez, 2002; the 19-flaw rubric of Moore et al., 2023), plus the rules on
objectives and lessons the report adds. Deterministic: the same document always gives the same
findings, in the same order.

Every rule has a stable code, a severity, a version (raised when what the rule flags changes) and
the part of the course it looks at. RULES_VERSION changes whenever any rule's version does.
"""

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from courses import content
from courses.quality import grammar
from courses.quality.words import (
    ABSOLUTES,
    ALL_OR_NONE,
    content_words,
    fold,
    is_negation,
    same_word,
    without_quotes,
    words,
)

SEVERITIES = ("high", "medium", "low")


@dataclass(frozen=True)
class Rule:
    code: str
    severity: str  # high: learners can pass by it; medium: a flaw to fix; low: worth a look
    part: str  # what the rule looks at: question, quiz, objective, chapter or lesson
    version: int
    summary: str  # the rule in one line (docs/how-it-works/quality.md, admin)
    language_specific: bool = False


_RULE_LIST = [
    Rule("ANSWER_ONLY_LONGEST", "low", "question", version=1,
         summary="The correct option is the only longest one (in characters)."),
    Rule("ANSWER_LENGTH_PATTERN", "high", "quiz", version=1,
         summary="The correct option is the only longest in more questions than chance gives (the sum of "
                 "1/options), and in at least two."),
    Rule("ANSWER_POSITION_PILED", "high", "quiz", version=1,
         summary="Correct answers pile up on one position: at least 3, and at least 2 more than chance gives."),
    Rule("ALL_OR_NONE_OF_THE_ABOVE", "medium", "question", version=1, language_specific=True,
         summary="An option is “all of the above”, “none of the above” or a kin of them."),
    Rule("NEAR_DUPLICATE_OPTIONS", "medium", "question", version=2,
         summary="Two options are the same words and symbols but for case, accents, spacing and the "
                 "punctuation that ends a word (symbols, like C++, [1, 2] or !=, count)."),
    Rule("OPTIONS_SAY_THE_SAME", "medium", "question", version=1, language_specific=True,
         summary="Two options are the same words (two content words at least) in another order."),
    Rule("NEGATIVE_STEM", "medium", "question", version=1, language_specific=True,
         summary="The stem is negative (not, except, never, …) and the negative word is not in capitals."),
    Rule("ABSOLUTES_IN_DISTRACTORS", "medium", "question", version=1, language_specific=True,
         summary="Absolute words (always, never, all, only, …) appear in distractors and not in the correct "
                 "option."),
    Rule("GRAMMATICAL_CUE", "medium", "question", version=1, language_specific=True,
         summary="The stem ends with an article that some options do not fit (a/an, gender, singular/plural, "
                 "elision)."),
    Rule("STEM_WORD_IN_ANSWER", "medium", "question", version=1, language_specific=True,
         summary="A content word of the stem comes back in the correct option and in no distractor."),
    Rule("UNEVEN_OPTION_LENGTHS", "medium", "question", version=1,
         summary="Options are of very uneven length: the longest is at least twice the shortest and 12 "
                 "characters longer."),
    Rule("QUESTION_WITHOUT_OBJECTIVE", "low", "question", version=1,
         summary="In a course with learning objectives, a question names none."),
    Rule("OBJECTIVE_UNTESTED", "low", "objective", version=1,
         summary="In a course with an assessment, no question tests the objective."),
    Rule("OBJECTIVE_VERB_VAGUE", "medium", "objective", version=1, language_specific=True,
         summary="The objective's verb names no observable behaviour (understand, know, learn, …)."),
    Rule("OBJECTIVE_VERB_UNLISTED", "low", "objective", version=1, language_specific=True,
         summary="The objective's verb is not in our verb table for the language, so its Bloom level is the "
                 "document's word only."),
    Rule("OBJECTIVE_LEVEL_MISMATCH", "low", "objective", version=1, language_specific=True,
         summary="The objective's Bloom level is not the level our verb table gives its verb."),
    Rule("CHAPTER_WITHOUT_OBJECTIVES", "low", "chapter", version=1,
         summary="The chapter states no learning objective."),
    Rule("LESSON_HARD_TO_READ", "medium", "lesson", version=1, language_specific=True,
         summary="The lesson's reading ease in its language is below 30 (very difficult)."),
    Rule("MATTER_IN_CHAPTER", "high", "chapter", version=1,
         summary="In a course built from documents, the chapter is their matter: its title names a licence, an index, contents, "
                 "contributors, a revision history or a bibliography."),
    Rule("MATTER_IN_LESSON", "high", "lesson", version=1,
         summary="In a course built from documents, the lesson is their matter: its title names it, or its text has the shape of an "
                 "index or contents (dot leaders, page numbers) or a list of names."),
    Rule("MATTER_IN_QUESTION", "high", "question", version=1,
         summary="In a course built from documents, the question is made of an index or contents: its stem or an option has dot "
                 "leaders (“Setup . . . . . 4”)."),
    Rule("CHAPTER_SPANS_SOURCES", "medium", "chapter", version=1,
         summary="The chapter's lessons cite more than one source: a chapter follows one document's section."),
    Rule("DUPLICATE_CHAPTER_TITLE", "medium", "chapter", version=1,
         summary="Two chapters have the same title."),
    Rule("LESSON_SCRAP", "medium", "lesson", version=2,
         summary="A lesson drawn from sources has fewer than 60 words (SCRAP_WORDS) though the sections it is drawn "
                 "from hold more: a scrap, not a lesson."),
    Rule("QUESTIONS_SHARE_SENTENCE", "medium", "question", version=1,
         summary="The question is made of the same sentence as an earlier one: their citations quote the same "
                 "words."),
    Rule("DISTRACTOR_RECURS", "medium", "quiz", version=1,
         summary="In a course built from documents, a wrong option comes back in three questions or more "
                 "(DISTRACTOR_RECURS_FROM): learners learn to skip it."),
    Rule("NUMBERED_TITLE", "low", "chapter", version=1,
         summary="In a course built from documents, a chapter's or lesson's title keeps its section number "
                 "(“2.1 Naming”): numbers of one document mean nothing in the course's order."),
    Rule("SOURCE_TITLED_BY_HEADING", "medium", "source", version=1,
         summary="A source's title is a numbered heading (“1. Introduction”), not the document's own title, so "
                 "every quote seems to come from that section."),
    Rule("THIN_COVERAGE", "medium", "source", version=1,
         summary="The course draws on fewer than 90 % (COVERAGE_MIN) of a source's body sections (its first "
                 "two heading levels): a reader of the document would miss what the course leaves out."),
]
RULES = {rule.code: rule for rule in _RULE_LIST}
# Raised with any rule's version. 2: NEAR_DUPLICATE_OPTIONS no longer takes options that differ by a
# word or a symbol ("left"/"right" table, "C"/"C++", "+"/"-") for the same. 3: the rules on a course
# built from documents (MATTER_IN_*, CHAPTER_SPANS_SOURCES, DUPLICATE_CHAPTER_TITLE, LESSON_SCRAP).
# 4: QUESTIONS_SHARE_SENTENCE, DISTRACTOR_RECURS, NUMBERED_TITLE, SOURCE_TITLED_BY_HEADING, THIN_COVERAGE;
# LESSON_SCRAP no longer flags a lesson as long as the sections it is drawn from.
RULES_VERSION = 4

# Thresholds, named once for the rules, the report and the docs (docs/how-it-works/quality.md).
UNEVEN_RATIO = 2.0
UNEVEN_CHARACTERS = 12
HARD_TO_READ_BELOW = 30.0
SCRAP_WORDS = 60
DISTRACTOR_RECURS_FROM = 3
COVERAGE_MIN = 0.9


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str
    part: str
    where: str  # a JSON Pointer into the course document: /assessment/questions/3
    message: str
    rule_version: int
    # The part at `where`, as the report names it (courses.quality.report): its id in the document
    # (objectives and sources have one) and its title.
    part_id: str | None = None
    part_title: str | None = None


def finding(code: str, where: str, message: str) -> Finding:
    rule = RULES[code]
    return Finding(
        code=code,
        severity=rule.severity,
        part=rule.part,
        where=where,
        message=message,
        rule_version=rule.version,
    )


def letter(position: int) -> str:
    return chr(ord("A") + position)


# --- one question ---------------------------------------------------------------------------------


def check_question(question: content.Question, *, language: str, where: str) -> list[Finding]:
    """The item-writing flaws of one question, in rule order."""
    found: list[Finding] = []
    options = list(question.options)
    correct = question.correct_index
    distractors = [number for number in range(len(options)) if number != correct]

    lengths = [len(option) for option in options]
    if all(lengths[correct] > lengths[number] for number in distractors):
        found.append(
            finding(
                "ANSWER_ONLY_LONGEST",
                where,
                f"The correct option ({letter(correct)}) is the only longest one: a learner who picks the "
                "longest option gets this question right without knowing the answer.",
            )
        )

    above = [number for number, option in enumerate(options) if ALL_OR_NONE[language].search(option)]
    if above:
        found.append(
            finding(
                "ALL_OR_NONE_OF_THE_ABOVE",
                where,
                f"Option {_letters(above)} is “all (none) of the above”: learners answer it from partial "
                "knowledge. Write a specific, plausible option instead.",
            )
        )

    near, same = _similar_options(options, language)
    for first, second in near:
        found.append(
            finding(
                "NEAR_DUPLICATE_OPTIONS",
                where,
                f"Options {letter(first)} and {letter(second)} are nearly the same text: make every option "
                "distinct.",
            )
        )
    for first, second in same:
        found.append(
            finding(
                "OPTIONS_SAY_THE_SAME",
                where,
                f"Options {letter(first)} and {letter(second)} say the same in other words: if one is right, "
                "so is the other. Make every option say something different.",
            )
        )

    stem = without_quotes(question.prompt)
    negations = [
        word for word in words(stem, language) if is_negation(word, language) and not _emphasised(word)
    ]
    if negations:
        found.append(
            finding(
                "NEGATIVE_STEM",
                where,
                f"The stem is negative (“{negations[0]}”) without emphasis, so learners miss it: ask "
                f"positively, or write the negative word in capitals ({negations[0].upper()}).",
            )
        )

    # An "all of the above" has its own rule: its "all" is not counted again here.
    absolute_in = [
        number
        for number in range(len(options))
        if number not in above and _absolutes(options[number], language)
    ]
    if absolute_in and correct not in absolute_in:
        first = absolute_in[0]
        found.append(
            finding(
                "ABSOLUTES_IN_DISTRACTORS",
                where,
                f"Only distractors use absolute words ({letter(first)}: “{_absolutes(options[first], language)[0]}”): "
                "test-wise learners rule them out. Use such words in the correct option too, or in none.",
            )
        )

    misfits = grammar.cues(question.prompt, options, language)
    if misfits:
        found.append(
            finding(
                "GRAMMATICAL_CUE",
                where,
                f"The end of the stem does not fit option {_letters(misfits)} grammatically, so learners can "
                "rule it out. End the stem before the article, or make every option fit it.",
            )
        )

    clues = _stem_words_only_in_answer(stem, options, correct, language)
    if clues:
        found.append(
            finding(
                "STEM_WORD_IN_ANSWER",
                where,
                f"The correct option repeats “{clues[0]}” from the stem and no distractor does: learners "
                "match the words. Reword the answer, or use the word in a distractor too.",
            )
        )

    shortest, longest = min(lengths), max(lengths)
    if longest >= UNEVEN_RATIO * shortest and longest - shortest >= UNEVEN_CHARACTERS:
        found.append(
            finding(
                "UNEVEN_OPTION_LENGTHS",
                where,
                f"Option lengths are very uneven ({shortest} to {longest} characters): keep options about as "
                "long as each other.",
            )
        )
    return found


def _letters(positions: Sequence[int]) -> str:
    return ", ".join(letter(position) for position in positions)


def _emphasised(word: str) -> bool:
    return word.isupper() and len(word) > 1


def _absolutes(option: str, language: str) -> list[str]:
    return [
        word for word in words(without_quotes(option), language) if word.casefold() in ABSOLUTES[language]
    ]


# Options are compared as their words and symbols, folded (case, accents) and whatever the spacing
# between them (f(x) and f (x), x=1 and x = 1 are one option). Sentence punctuation after a word
# is dropped ("Delete," "clause!"); every other mark is part of what an option says (C++, [1, 2],
# !done, 5!, '5').
_SENTENCE_MARK = re.compile(r"(?<=[^\W\d_])[.,;:!?…]+(?=\s|$)")
_WORD_OR_SYMBOL = re.compile(r"\w+|[^\w\s]")


def _as_compared(option: str) -> tuple[str, ...]:
    return tuple(_WORD_OR_SYMBOL.findall(_SENTENCE_MARK.sub("", fold(option))))


def _similar_options(
    options: list[str], language: str
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Pairs of options that are nearly the same text, and pairs that say the same in other words."""
    compared = [_as_compared(option) for option in options]
    # The same words in another order say the same (function words included: "after" and "before"
    # make a difference), as long as there is something to say: two content words at least.
    bags = [
        frozenset(fold(word) for word in words(option, language))
        if len(set(content_words(option, language))) >= 2
        else None
        for option in options
    ]
    near, same = [], []
    for first in range(len(options)):
        for second in range(first + 1, len(options)):
            if compared[first] == compared[second]:
                near.append((first, second))
            elif bags[first] is not None and bags[first] == bags[second]:
                same.append((first, second))
    return near, same


def _stem_words_only_in_answer(stem: str, options: list[str], correct: int, language: str) -> list[str]:
    stem_words = list(dict.fromkeys(content_words(stem, language)))
    option_words = [content_words(without_quotes(option), language) for option in options]
    clues = []
    for word in stem_words:
        in_options = [any(same_word(word, other) for other in found) for found in option_words]
        if in_options[correct] and not any(
            present for number, present in enumerate(in_options) if number != correct
        ):
            clues.append(word)
    return clues


# --- the whole quiz -------------------------------------------------------------------------------


def check_quiz(questions: Sequence[content.Question], *, language: str) -> list[Finding]:
    """Every question's flaws (each question in order), then the flaws of the quiz as a whole."""
    found: list[Finding] = []
    for number, question in enumerate(questions):
        found.extend(check_question(question, language=language, where=f"/assessment/questions/{number}"))
    for number, earlier in shared_sentences(questions):
        found.append(
            finding(
                "QUESTIONS_SHARE_SENTENCE",
                f"/assessment/questions/{number}",
                f"The question is made of the sentence question {earlier + 1} is made of: ask about another.",
            )
        )
    if not questions:
        return found

    only_longest = [number for number, question in enumerate(questions) if _correct_is_only_longest(question)]
    expected = sum(1 / len(question.options) for question in questions)
    if len(only_longest) >= 2 and len(only_longest) > expected:
        found.append(
            finding(
                "ANSWER_LENGTH_PATTERN",
                "/assessment",
                f"The correct option is the only longest in {len(only_longest)} of {len(questions)} questions "
                f"(questions {', '.join(str(number + 1) for number in only_longest)}); chance gives "
                f"{expected:.1f}. A learner who always picks the longest option scores "
                f"{round(100 * len(only_longest) / len(questions))}%.",
            )
        )

    for position, count, expected_here in _piled_positions(questions):
        found.append(
            finding(
                "ANSWER_POSITION_PILED",
                "/assessment",
                f"{count} of {len(questions)} correct answers are option {letter(position)}; chance gives "
                f"{expected_here:.1f}. A learner who always picks {letter(position)} scores "
                f"{round(100 * count / len(questions))}%.",
            )
        )
    return found


def shared_sentences(questions: Sequence[content.Question]) -> list[tuple[int, int]]:
    """(question, earlier question) of each question citing a quote an earlier question cites too."""
    first_of: dict[str, int] = {}
    shared = []
    for number, question in enumerate(questions):
        quotes = {" ".join(citation.quote.split()).casefold() for citation in question.citations}
        earlier = min((first_of[quote] for quote in quotes if quote in first_of), default=None)
        if earlier is not None:
            shared.append((number, earlier))
        for quote in quotes:
            first_of.setdefault(quote, number)
    return shared


def recurring_distractors(questions: Sequence[content.Question]) -> list[tuple[str, list[int]]]:
    """(option, questions) of each wrong option in DISTRACTOR_RECURS_FROM questions or more."""
    where: dict[str, list[int]] = {}
    shown: dict[str, str] = {}
    for number, question in enumerate(questions):
        for position, option in enumerate(question.options):
            if position != question.correct_index:
                key = fold(option)
                shown.setdefault(key, option)
                if number not in where.setdefault(key, []):
                    where[key].append(number)
    return [(shown[key], numbers) for key, numbers in where.items() if len(numbers) >= DISTRACTOR_RECURS_FROM]


def _correct_is_only_longest(question: content.Question) -> bool:
    lengths = [len(option) for option in question.options]
    answer = lengths[question.correct_index]
    return all(answer > length for number, length in enumerate(lengths) if number != question.correct_index)


def piling_threshold(expected: float) -> int:
    """How many correct answers on one position count as piled up, when chance gives `expected`."""
    return max(3, math.ceil(expected) + 2)


def _piled_positions(questions: Sequence[content.Question]) -> list[tuple[int, int, float]]:
    widest = max(len(question.options) for question in questions)
    piled = []
    for position in range(widest):
        count = sum(1 for question in questions if question.correct_index == position)
        expected = sum(
            1 / len(question.options) for question in questions if position < len(question.options)
        )
        if count >= piling_threshold(expected):
            piled.append((position, count, expected))
    return piled


# --- mending what changes no meaning --------------------------------------------------------------


_QUOTED_OR_WORD = re.compile(
    r"(“[^”]*”|„[^“]*“|«[^»]*»|\"[^\"]*\"|‹[^›]*›|‚[^‘]*‘)|([^\W\d_]+(?:[’'][^\W\d_]+)*)"
)


def emphasise_negations(stem: str, language: str) -> str:
    """The stem with every negative word outside quotations in capitals (NOT, EXCEPT)."""

    def capitalised(match: re.Match) -> str:
        if match.group(1) is not None:
            return match.group(1)
        word = match.group(2)
        if language == "en-US":
            return word.upper() if is_negation(word, language) else word
        return re.sub(
            r"[^\W\d_]+",
            lambda part: part.group(0).upper() if is_negation(part.group(0), language) else part.group(0),
            word,
        )

    return _QUOTED_OR_WORD.sub(capitalised, stem)
