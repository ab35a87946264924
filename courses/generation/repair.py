"""
Model output that breaks our rules: what can be mended without changing its meaning is mended
here, deterministically; what cannot is described, so the model can be asked again with the
reasons (courses.generation.openai_generator).

Mended: control characters and unpaired surrogates in texts (dropped, or replaced by `?`),
spaces around texts, texts over their length limit (cut at a word boundary), empty items
in lists of texts, repeated options of a quiz question (the answer index moves with them), quiz
questions that cannot be asked (their answer is not among the options) and questions beyond the
quiz's limit. Everything else (too few lessons, a chapter count that differs from the outline, a
text left empty, too few usable questions) goes back to the model.

A valid quiz is then reviewed against the item-writing rules (courses.quality.rules): answer
positions are balanced over the quiz and negative words of stems written in capitals, which
changes no meaning; a question naming an objective the course lacks names none; the flaws that
remain are described for the model.
"""

import re
from dataclasses import dataclass

import pydantic

from courses import content
from courses.content import CONTROL_CHARACTERS, option_key
from courses.generation.base import balance_answer_positions, clip_words
from courses.quality import rules

_CONTROL = re.compile(f"[{CONTROL_CHARACTERS}]")


def mend(data, schema: dict, *, keep_empty_items: bool = False):
    """Return `data` (parsed JSON) mended where the reply's JSON schema allows it."""
    kind = schema.get("type")
    if kind == "string" and isinstance(data, str):
        text = _CONTROL.sub("", data).encode("utf-8", "replace").decode("utf-8").strip()
        limit = schema.get("maxLength")
        return clip_words(text, limit) if limit is not None else text
    if kind == "object" and isinstance(data, dict):
        properties = schema.get("properties", {})
        question = _is_question(schema)
        mended = {
            # A question's empty options are dropped with the answer index in view, below.
            name: mend(value, properties[name], keep_empty_items=question and name == "options")
            if name in properties
            else value
            for name, value in data.items()
        }
        return _mend_question(mended) if question else mended
    if kind == "array" and isinstance(data, list):
        items = schema.get("items", {})
        mended = [mend(item, items) for item in data]
        if items.get("type") == "string" and not keep_empty_items:
            mended = [item for item in mended if item != ""]
        if _is_question(items):
            mended = [question for question in mended if question is not None]
            if "maxItems" in schema:
                mended = mended[: schema["maxItems"]]
        return mended
    return data


def problems(error: pydantic.ValidationError) -> list[str]:
    """The rules a reply broke, one line each with where (`chapters/2/lessons`), for the model to read."""
    lines = []
    for item in error.errors(include_url=False, include_input=False):
        where = "/".join(str(part) for part in item["loc"]) or "the answer"
        lines.append(f"{where}: {item['msg']}")
    return lines


def _is_question(schema: dict) -> bool:
    return {"options", "correctIndex"} <= set(schema.get("properties", {}))


def _mend_question(question: dict) -> dict | None:
    """The question with each option once (the answer index moved with it); None if it cannot be asked."""
    options, index = question.get("options"), question.get("correctIndex")
    if not isinstance(options, list) or not isinstance(index, int) or isinstance(index, bool):
        return question  # the wrong shape: validation says what is wrong
    if not 0 <= index < len(options) or not isinstance(options[index], str) or not options[index]:
        return None
    answer = option_key(options[index])
    kept: list = []
    seen: set[str] = set()
    for option in options:
        key = option_key(option) if isinstance(option, str) else repr(option)
        if isinstance(option, str) and (not option or key in seen):
            continue
        seen.add(key)
        kept.append(option)
    if len(kept) < 2:
        return None
    new_index = next(
        number for number, option in enumerate(kept) if isinstance(option, str) and option_key(option) == answer
    )
    return {**question, "options": kept, "correctIndex": new_index}


@dataclass(frozen=True)
class Reviewed:
    """A reviewed answer: what to use, the flaws to name when asking again, and how bad they are."""

    value: object
    flaws: list[str]  # empty: nothing worth asking again for
    weight: float  # of every flaw found, the low ones included: the lightest answer is the best


# What a flaw weighs when choosing among answers that all have some.
FLAW_WEIGHT = {"high": 10.0, "medium": 3.0, "low": 1.0}
# Flaws of these severities are worth asking again for; the low ones are reported only.
ASK_AGAIN_FOR = ("high", "medium")


def review_assessment(reply, *, language_id: str, objective_ids: tuple[str, ...]) -> Reviewed:
    """The assessment of a valid quiz answer, mended where meaning allows, with its remaining flaws."""
    questions = [
        content.Question(
            prompt=rules.emphasise_negations(question.prompt, language_id),
            options=list(question.options),
            correct_index=question.correct_index,
            explanation=question.explanation,
            objective_id=question.objective_id if question.objective_id in objective_ids else None,
            citations=list(getattr(question, "citations", None) or []),
        )
        for question in reply.questions
    ]
    assessment = content.Assessment(questions=balance_answer_positions(questions), passing_score_percent=80)
    findings = rules.check_quiz(assessment.questions, language=language_id)
    flaws = [
        f"{item.where.removeprefix('/assessment/')}: {item.message}"
        for item in findings
        if item.severity in ASK_AGAIN_FOR
    ]
    untested = set(objective_ids) - {question.objective_id for question in questions}
    if flaws and untested:
        flaws.append(f"questions: no question tests the objectives {', '.join(sorted(untested))}.")
    return Reviewed(
        value=assessment,
        flaws=flaws,
        weight=sum(FLAW_WEIGHT[item.severity] for item in findings) + len(untested),
    )
