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
"""

import re

import pydantic

from courses.content import CONTROL_CHARACTERS, option_key
from courses.generation.base import clip_words


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
    return {"options", "correct_index"} <= set(schema.get("properties", {}))


def _mend_question(question: dict) -> dict | None:
    """The question with each option once (the answer index moved with it); None if it cannot be asked."""
    options, index = question.get("options"), question.get("correct_index")
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
    return {**question, "options": kept, "correct_index": new_index}
