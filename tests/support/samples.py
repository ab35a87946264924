"""Course documents for tests, valid against courses.content.CourseContent."""

from courses.content import VERSION_2_KEYS, CourseContent, renamed_keys

ALL_ADD_ONS = ["practical-exercises", "wrapup", "assessment", "articles", "videos", "agreement"]


def course_document(
    *,
    name: str = "Intro to SQL",
    headline: str = "Query relational data with confidence",
    language_id: str = "en-US",
    format: str = "onepage",
    add_ons: list[str] | None = None,
    chapters: int = 3,
    text: str = "",
) -> dict:
    """
    A complete course document. `text` is mixed into every string (use it for hostile input).
    """
    add_ons = ALL_ADD_ONS if add_ons is None else add_ons

    def lesson(c: int, n: int) -> dict:
        data = {
            "title": f"Lesson {c}.{n}{text}",
            "body": f"Body of lesson {c}.{n}. **Bold** point and a list:\n\n- one\n- two\n{text}",
        }
        if "practical-exercises" in add_ons:
            data["exercise"] = {
                "task": f"Practise {c}.{n}{text}",
                "steps": ["Open the tool", f"Try it{text}"],
                "expectedResult": f"It works{text}",
            }
        if "videos" in add_ons:
            data["video"] = {
                "kind": "search",
                "title": f"Videos about lesson {c}.{n}{text}",
                "query": f"{name} lesson {c}.{n}",
                "url": "https://www.youtube.com/results?search_query=intro+to+sql",
            }
        return data

    def chapter(c: int) -> dict:
        data = {
            "title": f"Chapter title {c}{text}",
            "summary": f"What chapter {c} covers{text}",
            "lessons": [lesson(c, n) for n in (1, 2)],
        }
        if "articles" in add_ons:
            data["article"] = {"title": f"Article {c}{text}", "body": f"Article body {c}{text}"}
        return data

    document = {
        "name": f"{name}{text}",
        "headline": f"{headline}{text}",
        "languageId": language_id,
        "format": format,
        "addOns": add_ons,
        "introduction": f"Welcome to {name}.{text}",
        "chapters": [chapter(c) for c in range(1, chapters + 1)],
    }
    if "wrapup" in add_ons:
        document["wrapup"] = {"summary": f"Summary{text}", "keyTakeaways": ["One", "Two", f"Three{text}"]}
    if "assessment" in add_ons:
        document["assessment"] = {
            "questions": [
                {
                    "prompt": f"Question {q}{text}",
                    "options": ["Right answer", f"Wrong answer{text}", "Also wrong"],
                    "correctIndex": 0,
                    "explanation": f"Because {q}{text}",
                }
                for q in range(1, 6)
            ],
            "passingScorePercent": 80,
        }
    if "agreement" in add_ons:
        document["agreement"] = {"statement": f"I confirm I completed {name}.{text}"}
    return CourseContent.model_validate(document).model_dump(mode="json")


def in_version_2(document: dict) -> dict:
    """The document as schema version 2 stored it: its keys in snake_case."""
    snake_case = {camel: snake for snake, camel in VERSION_2_KEYS.items()}
    return {**renamed_keys(document, snake_case), "schema_version": 2}


def in_version_1(document: dict) -> dict:
    """The document as schema version 1 stored it: in snake_case, without sources, citations or version."""

    def without_citations(node):
        if isinstance(node, dict):
            return {key: without_citations(value) for key, value in node.items() if key != "citations"}
        if isinstance(node, list):
            return [without_citations(value) for value in node]
        return node

    older = without_citations(in_version_2(document))
    return {key: value for key, value in older.items() if key not in ("schema_version", "sources")}
