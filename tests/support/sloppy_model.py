"""
A model server that follows the JSON schema it is sent (its quiz questions well written, from
fake_openai.QUIZ), and breaks the course's other rules at random, as real models do: an answer index outside the options, repeated options, too few or too
many lessons, questions or chapter summaries, empty texts, texts over their limit, spaces around
texts. Servers that do not enforce every keyword of a schema send such answers too.

Each answer is drawn from the exact schema of the request (and checked against it with the
jsonschema library before anything is broken), from a random generator seeded with the request
itself, so the same request always gets the same answer whatever order concurrent requests
arrive in. Told what its last answer broke, it breaks rules half as often, as models do.
"""

import collections
import copy
import hashlib
import json
import random

import jsonschema

from tests.support.fake_openai import PHRASES, QUIZ, FakeOpenAI, passages_in, sentences_of

WORDS = {language: phrase.rstrip(".").split() for language, phrase in PHRASES.items()}


class SloppyModel(FakeOpenAI):
    def __init__(self, *, break_probability: float):
        super().__init__()
        self.break_probability = break_probability
        self.breaks: collections.Counter = collections.Counter()
        self.broken_answers = 0
        self.retries = 0  # requests that carry our description of an earlier answer's problems

    def document_for(self, body: dict, language: str) -> dict:
        schema = body["response_format"]["json_schema"]["schema"]
        seed = hashlib.sha256(json.dumps(body["messages"], sort_keys=True).encode()).digest()
        rng = random.Random(seed + json.dumps(schema, sort_keys=True).encode())
        document = _draw(schema, rng, language)
        jsonschema.Draft202012Validator(schema).validate(document)  # schema-valid, before the breaks
        told_what_broke = len(body["messages"]) > 2
        if told_what_broke:
            with self._lock:
                self.retries += 1
        if rng.random() < self.break_probability / (2 if told_what_broke else 1):
            applied = [_break(document, schema, rng) for _ in range(rng.choice([1, 1, 2]))]
            with self._lock:
                self.broken_answers += 1
                self.breaks.update(name for name in applied if name)
        return document


def _draw(schema: dict, rng: random.Random, language: str):
    kind = schema.get("type")
    if kind == "object":
        document = {name: _draw(sub, rng, language) for name, sub in schema["properties"].items()}
        if "options" in document and "correctIndex" in document:
            prompt, options = rng.choice(QUIZ[language])
            answer = rng.randrange(len(options))
            options = list(options)
            options[0], options[answer] = options[answer], options[0]
            document.update(prompt=prompt, options=options, correctIndex=answer)
        if "canTeach" in document:
            document["canTeach"] = True
        return document
    if kind == "array":
        low = schema.get("minItems", 0)
        high = min(schema.get("maxItems", low + 4), low + 4)
        return [_draw(schema["items"], rng, language) for _ in range(rng.randint(max(low, 1), max(high, 1)))]
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "integer":
        return schema.get("minimum", 0) + rng.randrange(3)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    words = WORDS[language]
    low, high = schema.get("minLength", 1), min(schema.get("maxLength", 600), 600)
    text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 40)))
    return (text * (1 + low // max(len(text), 1)))[: rng.randint(max(low, 1), max(high, low, 1))].strip() or "x"


# The breaks: each takes the document and a random generator, changes the document in place and
# returns its name, or None when the document has nothing it applies to.


def _break(document: dict, schema: dict, rng: random.Random) -> str | None:
    breaks = [
        _answer_index_outside_the_options,
        _repeated_option,
        _too_few_items,
        _too_many_items,
        _empty_text,
        _text_over_its_limit,
        _spaces_around_a_text,
    ]
    return rng.choice(breaks)(document, schema, rng)


def _answer_index_outside_the_options(document, schema, rng):
    questions = _questions(document)
    if not questions:
        return None
    question = rng.choice(questions)
    question["correctIndex"] = len(question["options"]) + rng.randrange(3)
    return "answer index outside the options"


def _repeated_option(document, schema, rng):
    questions = _questions(document)
    if not questions:
        return None
    question = rng.choice(questions)
    options = question["options"]
    source, target = rng.sample(range(len(options)), 2)
    options[target] = f"  {options[source].upper()} "
    return "repeated option"


def _too_few_items(document, schema, rng):
    arrays = [(node, sub) for node, sub in _arrays(document, schema) if sub.get("minItems", 0) >= 1]
    if not arrays:
        return None
    items, sub = rng.choice(arrays)
    del items[max(0, sub["minItems"] - 1 - rng.randrange(2)) :]
    return "too few items"


def _too_many_items(document, schema, rng):
    arrays = [(node, sub) for node, sub in _arrays(document, schema) if "maxItems" in sub]
    if not arrays:
        return None
    items, sub = rng.choice(arrays)
    while len(items) <= sub["maxItems"]:
        items.append(copy.deepcopy(items[-1]) if items else "more")
    return "too many items"


def _empty_text(document, schema, rng):
    texts = list(_texts(document, schema))
    if not texts:
        return None
    parent, key, _ = rng.choice(texts)
    parent[key] = rng.choice(["", "   ", "\n"])
    return "empty text"


def _text_over_its_limit(document, schema, rng):
    texts = [text for text in _texts(document, schema) if text[2].get("maxLength", 10**9) <= 1000]
    if not texts:
        return None
    parent, key, sub = rng.choice(texts)
    parent[key] = ("an overly long title that keeps going " * 40)[: sub["maxLength"] + 1 + rng.randrange(200)]
    return "text over its limit"


def _spaces_around_a_text(document, schema, rng):
    texts = list(_texts(document, schema))
    if not texts:
        return None
    parent, key, sub = rng.choice(texts)
    if len(parent[key]) + 4 > sub.get("maxLength", 10**9):
        return None
    parent[key] = f"  {parent[key]}\n "
    return "spaces around a text"


def _questions(document) -> list[dict]:
    return [node for node in _objects(document) if "options" in node and "correctIndex" in node]


def _objects(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _objects(value)
    elif isinstance(node, list):
        for value in node:
            yield from _objects(value)


def _arrays(node, schema):
    """(list, its schema) for every array in the document."""
    if isinstance(node, dict):
        for name, value in node.items():
            yield from _arrays(value, schema["properties"][name])
    elif isinstance(node, list):
        yield node, schema
        for value in node:
            yield from _arrays(value, schema["items"])


def _texts(node, schema):
    """(parent, key, schema) for every string in the document."""
    if isinstance(node, dict):
        for name, value in node.items():
            sub = schema["properties"][name]
            if isinstance(value, str):
                yield node, name, sub
            else:
                yield from _texts(value, sub)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            if isinstance(value, str):
                yield node, index, schema["items"]
            else:
                yield from _texts(value, schema["items"])


class CarelessQuizWriter(FakeOpenAI):
    """
    Writes assessments the way careless models do (every other answer is FakeOpenAI's): the correct
    option always first, and each question, with probability `flaw_probability`, with one of the
    classic item-writing flaws drawn at random (half as often once told what was wrong). Options
    are picked from phrases of 27 to 44 characters, so where there is no flaw the correct option is
    the only longest by chance alone. English courses only. Seeded by the request, like SloppyModel.
    """

    FLAWS = (
        "answer_longest", "all_of_the_above", "near_duplicate", "negative_stem", "absolute_distractor",
        "stem_word", "uneven", "same_words",
    )

    def __init__(self, *, flaw_probability: float, questions: int = 8):
        super().__init__()
        self.flaw_probability = flaw_probability
        self.questions = questions
        self.flaws: collections.Counter = collections.Counter()
        self.told = 0  # assessment requests that carry our description of an earlier answer's flaws

    def document_for(self, body: dict, language: str) -> dict:
        document = super().document_for(body, language)
        if body["response_format"]["json_schema"]["name"] != "course_assessment":
            return document
        rng = random.Random(hashlib.sha256(json.dumps(body["messages"], sort_keys=True).encode()).digest())
        told = len(body["messages"]) > 2
        objectives = body["response_format"]["json_schema"]["schema"]["properties"]["questions"]["items"][
            "properties"]["objectiveId"]["enum"]
        stems = rng.sample(CARELESS_STEMS, self.questions)
        questions = []
        for number, (stem, keyword) in enumerate(stems):
            options = rng.sample(CARELESS_OPTIONS, 4)
            question = {
                "prompt": stem,
                "options": options,
                "correctIndex": 0,
                "explanation": "Because that is how it works in practice.",
                "objectiveId": objectives[number % len(objectives)],
            }
            if rng.random() < self.flaw_probability / (2 if told else 1):
                flaw = rng.choice(self.FLAWS)
                _write_flaw(question, flaw, keyword)
                with self._lock:
                    self.flaws[flaw] += 1
            questions.append(question)
        document["questions"] = questions
        if told:
            with self._lock:
                self.told += 1
        return document


def _write_flaw(question: dict, flaw: str, keyword: str) -> None:
    options = question["options"]
    if flaw == "answer_longest":
        options[0] = f"{options[0]}, and then check the outcome with care"
    elif flaw == "all_of_the_above":
        options[3] = "All of the above"
    elif flaw == "near_duplicate":
        options[2] = f"{options[0]}."
    elif flaw == "negative_stem":
        question["prompt"] = f"{question['prompt'][:-1]}, and which part is not optional?"
    elif flaw == "absolute_distractor":
        options[1] = f"Always {options[1][0].lower()}{options[1][1:]}"
    elif flaw == "stem_word":
        options[0] = f"{options[0]} for the {keyword}"
    elif flaw == "uneven":
        options[2] = "Guess"
    elif flaw == "same_words":
        options[3] = " ".join(reversed(options[0].split()))


# (stem, a content word of the stem), and options of 27 to 44 characters sharing no word with a stem.
CARELESS_STEMS = [
    ("What helps most when a migration stalls?", "migration"),
    ("How should a team review a deployment?", "deployment"),
    ("What is the first move after a failed backup?", "backup"),
    ("How do you prepare a database upgrade?", "upgrade"),
    ("What keeps a rollout under control?", "rollout"),
    ("How should you treat a flaky integration?", "integration"),
    ("What makes an incident report useful?", "incident"),
    ("How do you plan a capacity review?", "capacity"),
    ("What belongs in a handover between shifts?", "handover"),
    ("How should a newcomer approach the codebase?", "codebase"),
    ("What reduces risk in a schema change?", "schema"),
    ("How do you judge a vendor proposal?", "vendor"),
]
CARELESS_OPTIONS = [
    "Write down what you expected first",
    "Ask the people who built it",
    "Compare the logs with last week's",
    "Try the smallest fix that could work",
    "Measure before and after each step",
    "Keep a written record of each decision",
    "Split the work into reversible steps",
    "Agree on who decides before you start",
    "Read the documentation of the tool in use",
    "Reproduce the problem on a spare machine",
    "Set a time limit and stop when it is reached",
    "Share a short summary with stakeholders",
    "Check the assumptions behind the estimate",
    "Rehearse the procedure on a copy",
    "Look for a similar case in past tickets",
    "Draw the flow of data on a whiteboard",
]


class CitationBreaker(FakeOpenAI):
    """
    A model that follows the schema and writes courses from the passages it is shown, citing three of
    them for every part (each quote a sentence copied from its passage), and breaks citations at
    random as real models do: a citation names another passage it was shown than the one quoted
    (schema-valid), or a passage it was never shown; a quote is not in its passage (words changed,
    or a sentence made up); a part cites nothing at all. Each citation breaks with probability
    `break_probability`, each part loses all its citations with `missing_probability`, both half as
    often once told what was wrong. Seeded by the request, like SloppyModel.
    """

    KINDS = ("another passage", "a passage never shown", "quote changed", "quote made up", "citations missing")

    def __init__(self, *, break_probability: float, missing_probability: float):
        super().__init__()
        self.break_probability = break_probability
        self.missing_probability = missing_probability
        self.breaks: collections.Counter = collections.Counter()
        self.retries = 0

    def document_for(self, body: dict, language: str) -> dict:
        document = super().document_for(body, language)
        passages = passages_in(body)
        if not passages:
            return document
        rng = random.Random(hashlib.sha256(json.dumps(body["messages"], sort_keys=True).encode()).digest())
        told = len(body["messages"]) > 2
        if told:
            with self._lock:
                self.retries += 1
        sentences = [(passage["id"], sentence) for passage in passages for sentence in sentences_of(passage["text"])]
        factor = 2 if told else 1
        for node in _objects(document):
            cited = node.get("citations")
            if not isinstance(cited, list):
                continue
            if "options" not in node:  # a question keeps the one citation that states its answer
                start = rng.randrange(len(sentences))
                cited[:] = [
                    {"passageId": passage_id, "quote": sentence[:300]}
                    for passage_id, sentence in (sentences[(start + step * 7) % len(sentences)] for step in range(3))
                ]
            if rng.random() < self.missing_probability / factor:
                cited.clear()
                self._count("citations missing")
                continue
            for citation in cited:
                if rng.random() < self.break_probability / factor:
                    self._count(self._break(citation, passages, rng))
        return document

    def _break(self, citation: dict, passages: list[dict], rng: random.Random) -> str:
        kind = rng.choice(self.KINDS[:4])
        if kind == "another passage":
            others = [passage["id"] for passage in passages if citation["quote"] not in passage["text"]]
            if not others:
                kind = "quote made up"
            else:
                citation["passageId"] = rng.choice(others)
        if kind == "a passage never shown":
            citation["passageId"] = "psg_" + "".join(rng.choice("ABCDEFGHJKabcdefghjk0123456789") for _ in range(22))
        elif kind == "quote changed":
            words = citation["quote"].split()
            words[rng.randrange(len(words))] = rng.choice(["never", "seldom", "perhaps", "nobody"])
            citation["quote"] = " ".join(words)
        elif kind == "quote made up":
            citation["quote"] = "Every rule in this document is optional and can be ignored by anyone."
        return kind

    def _count(self, kind: str) -> None:
        with self._lock:
            self.breaks[kind] += 1
