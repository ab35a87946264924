"""
The offline generator: a complete course from templates, in every supported language, without
any network call, deterministic and instant.

It writes scaffolding, not expert content: a sound learning path (what it is, why it matters, how
to apply it, common mistakes, practice, review) around the subject and outline, with activities
that have the learner gather the specifics from sources and practice.

Without an outline, the course has five chapters (foundations, core ideas, practice, mistakes and
troubleshooting, improving); with one, every given chapter gets three lessons: what it is, how to
apply it step by step, and its common mistakes.

A part generated again (`request.variant` > 0) is a different arrangement of the same scaffolding:
other lessons for a chapter, the introduction's paragraphs in another order, the takeaways and
questions rotated, the agreement in its second wording.

Every chapter states two learning objectives (verbs from courses.quality.bloom's tables), and the
assessment asks one question per objective, written so that no item-writing rule of
courses.quality trips: distractors as long and as plausible as the answer.
"""

from courses import content
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
from courses.quality import bloom

# The lessons of each chapter of a course without an outline, in order.
THEMES = (
    ("what_it_is", "where_it_fits", "key_terms"),
    ("core_principles", "how_parts_fit", "worked_example"),
    ("step_by_step", "tools_resources", "first_project"),
    ("common_mistakes", "troubleshooting", "quality_check"),
    ("practice_plan", "going_deeper", "measuring_progress"),
)
# The lessons of each chapter of a given outline (their texts are about the chapter's topic).
OUTLINE_LESSONS = ("what_it_is", "step_by_step", "common_mistakes")


class OfflineGenerator:
    concurrency = None

    def plan(self, *, request) -> CoursePlan:
        texts = templates.in_language(request.language_id)
        words = _Words(texts, subject=request.subject)
        if request.outline:
            chapters = tuple(
                ChapterPlan(
                    title=title, summary=clip(words.plain(texts["outline_chapter"]["summary"], topic=title))
                )
                for title in request.outline
            )
            structure = words.markdown(
                texts["intro_outline"],
                chapters="\n".join(
                    f"{number}. {markdown_literal(chapter.title)}"
                    for number, chapter in enumerate(chapters, 1)
                ),
            )
        else:
            chapters = tuple(
                ChapterPlan(title=theme["title"], summary=clip(words.plain(theme["summary"])))
                for theme in texts["themes"]
            )
            structure = words.markdown(texts["intro_auto"])
        paragraphs = [
            words.markdown(texts["intro_opening"]),
            structure,
            words.markdown(texts["intro_usage"]),
            words.markdown(texts["intro_note"]),
        ]
        if request.variant % 2:
            paragraphs[2], paragraphs[3] = paragraphs[3], paragraphs[2]
        introduction = "\n\n".join(paragraphs)
        return CoursePlan(
            name=clip(request.subject, content.NAME_MAX),
            headline=clip(words.plain(texts["headline"])),
            introduction=introduction,
            chapters=chapters,
        )

    def introduction(self, *, request, plan: CoursePlan) -> str:
        return self.plan(request=request).introduction

    def chapter(self, *, request, plan: CoursePlan, index: int) -> ChapterDraft:
        texts = templates.in_language(request.language_id)
        words = _Words(texts, subject=request.subject)
        planned = plan.chapters[index]
        if request.variant:
            kinds = THEMES[(index + request.variant) % len(THEMES)]
            topic = planned.title if request.outline else request.subject
            video_topic = f"{request.subject} {planned.title}" if request.outline else request.subject
        elif request.outline:
            kinds = OUTLINE_LESSONS
            topic = planned.title
            video_topic = f"{request.subject} {planned.title}"
        else:
            kinds = THEMES[index]
            topic = request.subject
            video_topic = request.subject

        lessons = []
        queries = []
        for kind in kinds:
            lesson_texts = texts["lessons"][kind]
            if request.outline and "title_in_chapter" in lesson_texts:
                title = words.plain(lesson_texts["title_in_chapter"], chapter=planned.title)
            else:
                title = lesson_texts["title"]
            lesson = {"title": clip(title), "body": words.markdown(lesson_texts["body"], topic=topic)}
            if "practical-exercises" in request.add_ons:
                exercise = lesson_texts["exercise"]
                lesson["exercise"] = {
                    "task": clip(words.plain(exercise["task"], topic=topic)),
                    "steps": [clip(words.plain(step, topic=topic)) for step in exercise["steps"]],
                    "expectedResult": clip(words.plain(exercise["expected_result"], topic=topic)),
                }
            lessons.append(lesson)
            queries.append(lesson_texts["video"].format(topic=one_line(video_topic)))

        chapter = {
            "title": planned.title,
            "summary": planned.summary,
            "lessons": lessons,
            "objectives": [
                objective.model_dump() for objective in self._objectives(request=request, plan=plan, index=index)
            ],
        }
        if "articles" in request.add_ons:
            article = texts["article"]
            chapter["article"] = {
                "title": clip(article["title"].format(chapter=planned.title)),
                "body": words.markdown(
                    article["body"],
                    topic=planned.title,
                    lessons="\n".join(f"- {markdown_literal(lesson['title'])}" for lesson in lessons),
                ),
            }
        return ChapterDraft(chapter=content.Chapter.model_validate(chapter), video_queries=tuple(queries))

    def wrapup(self, *, request, plan: CoursePlan, chapters: list[content.Chapter]) -> content.Wrapup:
        texts = templates.in_language(request.language_id)
        words = _Words(texts, subject=request.subject)
        if request.outline:
            takeaways = [words.plain(takeaway) for takeaway in texts["wrapup"]["takeaways"]] + [
                words.plain(texts["outline_chapter"]["takeaway"], topic=chapter.title) for chapter in chapters
            ]
        else:
            takeaways = [words.plain(theme["takeaway"]) for theme in texts["themes"]]
        takeaways = takeaways[:10]
        turn = request.variant % len(takeaways)
        return content.Wrapup(
            summary=words.markdown(texts["wrapup"]["summary"]),
            key_takeaways=[clip(takeaway) for takeaway in takeaways[turn:] + takeaways[:turn]],
        )

    def assessment(self, *, request, plan: CoursePlan, chapters: list[content.Chapter]) -> content.Assessment:
        texts = templates.in_language(request.language_id)
        words = _Words(texts, subject=request.subject)
        # (chapter index, question) for every question, each testing one objective of its chapter.
        if request.outline:
            variants = texts["outline_chapter"]["questions"]
            asked = [
                (index, question)
                for index in range(len(plan.chapters))
                for question in variants[2 * (index % 2) : 2 * (index % 2) + 2]
            ]
            if len(asked) < 3:  # one chapter: its second objective gets the other variant too
                asked.append((0, variants[3]))
        else:
            asked = [(index, question) for index, theme in enumerate(texts["themes"]) for question in theme["questions"]]
        questions = []
        for index, question in asked:
            topic = plan.chapters[index].title if request.outline else None
            objective = self._objectives(request=request, plan=plan, index=index)[question["objective"]]
            # Written for another generator's chapters (as a fallback), the questions test objectives
            # of their own: they name one only where the chapter has exactly that objective.
            tested = objective if index < len(chapters) and objective in chapters[index].objectives else None
            questions.append(
                content.Question(
                    prompt=clip(words.plain(question["prompt"], topic=topic)),
                    # The tables put the correct option first; balance_answer_positions moves it.
                    options=[clip(words.plain(option)) for option in question["options"]],
                    correct_index=0,
                    explanation=clip(words.plain(question["explanation"], topic=topic)),
                    objective_id=tested.id if tested else None,
                )
            )
        turn = request.variant % len(questions)  # a quiz written again asks in another order
        questions = questions[turn:] + questions[:turn]
        return content.Assessment(questions=balance_answer_positions(questions), passing_score_percent=80)

    def _objectives(self, *, request, plan: CoursePlan, index: int) -> list[content.Objective]:
        """The learning objectives of chapter `index`, ids `<chapter>.<objective>` counted from 1."""
        texts = templates.in_language(request.language_id)
        words = _Words(texts, subject=request.subject)
        if request.outline:
            table, topic = texts["outline_chapter"]["objectives"], plan.chapters[index].title
        else:
            table, topic = texts["themes"][index]["objectives"], None
        return [
            content.Objective(
                id=f"{index + 1}.{number}",
                verb=objective["verb"],
                object=clip(words.plain(objective["object"], topic=topic)),
                bloom_level=bloom.level_of(objective["verb"], request.language_id),
            )
            for number, objective in enumerate(table, 1)
        ]

    def agreement(self, *, request, plan: CoursePlan) -> content.Agreement:
        texts = templates.in_language(request.language_id)
        words = _Words(texts, subject=request.subject)
        wording = "agreement_variant" if request.variant % 2 else "agreement"
        return content.Agreement(statement=words.markdown(texts[wording]))

    def close(self) -> None:
        pass


class _Words:
    """
    Fills templates. `{s}` is the course subject and `{t}` the topic (a chapter title, or the
    subject), both in the language's quotation marks; in Markdown they are escaped so that any
    subject shows exactly as written. Other placeholders are passed in as they are.
    """

    # A subject is at most 200 characters when it comes through the API; this keeps a longer one
    # from pushing a plain-text field past its limit.
    QUOTED_MAX = 200

    def __init__(self, texts: dict, *, subject: str):
        self._open, self._close = texts["quotes"]
        self._subject = subject

    def plain(self, template: str, *, topic: str | None = None, **values) -> str:
        return template.format(s=self._quote(self._subject), t=self._quote(topic or self._subject), **values)

    def markdown(self, template: str, *, topic: str | None = None, **values) -> str:
        return template.format(
            s=self._quote(self._subject, markdown=True),
            t=self._quote(topic or self._subject, markdown=True),
            **values,
        )

    def _quote(self, text: str, *, markdown: bool = False) -> str:
        text = clip(text, self.QUOTED_MAX)
        return f"{self._open}{markdown_literal(text) if markdown else text}{self._close}"
