"""
The steps that turn a request into a course document, as plain functions:

    plan_course → write_chapters → write_add_ons (+ find_videos beside them) → assemble

Every step checks the deadline. Model work runs in a thread pool sized by the generator, so a
course's chapters (and then its add-ons) are written at the same time; progress is reported from
the calling thread only, so the callback may use the database.
"""

import functools
import itertools
import logging
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import replace
from typing import TypeVar

import pydantic
from django.core.exceptions import ImproperlyConfigured

from core import metrics
from courses import citations, content
from courses.generation import videos
from courses.generation.base import ChapterDraft, ChapterPlan, CoursePlan, Generator, clip, one_line
from courses.generation.errors import GenerationFailed, GenerationTimeout
from courses.generation.extractive import ExtractiveGenerator
from courses.generation.grounding import Grounding
from courses.generation.offline import OfflineGenerator
from sources import embeddings

log = logging.getLogger(__name__)

T = TypeVar("T")

# Progress reached when each stage is done; chapters fill the range between plan and add-ons.
PROGRESS_PLANNED = 10
PROGRESS_CHAPTERS_DONE = 80
PROGRESS_ADD_ONS_DONE = 95
PROGRESS_ASSEMBLED = 99

# Add-ons written in one piece after the chapters (exercises, articles and videos live in lessons).
COURSE_LEVEL_ADD_ONS = ("wrapup", "assessment", "agreement")
# The parts of a finished course that can be written again on their own.
REGENERABLE_PARTS = ("chapter", "introduction", *COURSE_LEVEL_ADD_ONS)


def run(
    *, request, generator_name: str, on_progress: Callable[[int], None], deadline: float, checkpoints=None
):
    """
    Generate a course document with the named generator. See courses.generation.generate_course.
    Steps kept in `checkpoints` (courses.checkpoints) by an earlier attempt are not generated again;
    each step is saved there as it finishes.
    """
    checkpoints = checkpoints or NoCheckpoints()
    request = normalized(request)
    if request.source_ids:
        grounding = load_grounding(request, generator_name=generator_name, deadline=deadline)
        request = replace(request, grounding=grounding)
    progress = Progress(on_progress)
    generator = make_generator(generator_name, deadline=deadline, grounded=request.grounding is not None)
    # Videos only need lesson titles: they are looked up while the add-ons are written.
    video_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="course-videos")
    try:
        with Runner(workers=generator.concurrency, deadline=deadline) as runner:
            plan = kept_step(checkpoints, "plan", request)
            if plan is None:
                # Steps kept from another plan belong to other chapters: they are written again.
                checkpoints.forget()
                plan = plan_course(generator=generator, request=request, runner=runner)
                if request.grounding is not None:
                    plan = ground_chapters(plan=plan, request=request)
                checkpoints.save("plan", plan)
            elif request.grounding is not None:
                plan = ground_chapters(plan=plan, request=request)  # reads the texts of its passages
            progress.report(PROGRESS_PLANNED)
            drafts = write_chapters(
                generator=generator, request=request, plan=plan, runner=runner, progress=progress,
                checkpoints=checkpoints,
            )
            found_videos = video_executor.submit(
                find_videos, request=request, drafts=drafts, deadline=deadline
            )
            add_ons = write_add_ons(
                generator=generator,
                request=request,
                plan=plan,
                chapters=[draft.chapter for draft in drafts],
                runner=runner,
                progress=progress,
                checkpoints=checkpoints,
            )
        try:
            lesson_videos = found_videos.result(timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            lesson_videos = None  # assemble() links every lesson to a search instead
        course = assemble(
            request=request, plan=plan, drafts=drafts, add_ons=add_ons, lesson_videos=lesson_videos
        )
    finally:
        video_executor.shutdown(wait=False, cancel_futures=True)
        generator.close()
    progress.report(PROGRESS_ASSEMBLED)
    return course


def regenerate(
    *, request, document: content.CourseContent, part: str, chapter: int | None, generator_name: str,
    on_progress: Callable[[int], None], deadline: float, checkpoints=None,
) -> content.CourseContent:
    """One part of a finished course written again. See courses.generation.regenerate_part."""
    checkpoints = checkpoints or NoCheckpoints()
    request = replace(normalized(request), add_ons=list(document.add_ons))
    if request.source_ids:
        grounding = load_grounding(request, generator_name=generator_name, deadline=deadline)
        request = replace(request, grounding=grounding)
    progress = Progress(on_progress)
    generator = make_generator(generator_name, deadline=deadline, grounded=request.grounding is not None)
    plan = CoursePlan(
        name=document.name,
        headline=document.headline,
        introduction=document.introduction,
        chapters=tuple(
            ChapterPlan(title=chapter.title, summary=chapter.summary, passages=_cited_passages(chapter, request))
            for chapter in document.chapters
        ),
    )
    if request.grounding is not None:
        plan = _ground_regenerated(plan=plan, request=request, part=part, chapter=chapter)
    progress.report(PROGRESS_PLANNED)
    changed = document.model_dump(mode="json", exclude_none=True)
    try:
        with Runner(workers=generator.concurrency, deadline=deadline) as runner:

            def written(write):
                # The part the model wrote, kept until the job ends: a new attempt does not ask again.
                kept = kept_step(checkpoints, "part", request)
                if kept is None:
                    (kept,) = runner.run_all([_timed(part, write)])
                    checkpoints.save("part", kept)
                return kept

            if part == "chapter":
                draft = written(lambda: generator.chapter(request=request, plan=plan, index=chapter - 1))
                lesson_videos = find_videos(request=request, drafts=[draft], deadline=deadline)
                changed["chapters"][chapter - 1] = _chapter_document(draft, None if lesson_videos is None else lesson_videos[0])
                _keep_objective_ids(changed, chapter_index=chapter - 1, before=document.chapters[chapter - 1])
            elif part == "introduction":
                changed["introduction"] = written(lambda: generator.introduction(request=request, plan=plan))
            else:
                chapters = list(document.chapters)
                writers = {
                    "wrapup": lambda: generator.wrapup(request=request, plan=plan, chapters=chapters),
                    "assessment": lambda: generator.assessment(request=request, plan=plan, chapters=chapters),
                    "agreement": lambda: generator.agreement(request=request, plan=plan),
                }
                changed[part] = written(writers[part]).model_dump(mode="json", exclude_none=True)
    finally:
        generator.close()
    if part == "chapter" and changed.get("assessment"):
        _forget_objectives_gone(changed)
    progress.report(PROGRESS_ADD_ONS_DONE)
    try:
        course = content.CourseContent.model_validate(changed)
    except pydantic.ValidationError as exc:
        log.error("generation.invalid_course", extra={"errors": exc.errors(include_input=False)[:5]})
        raise GenerationFailed() from exc
    if request.grounding is not None:
        check_citations(course, grounding=request.grounding, parts=_regenerated_parts(part, chapter))
    return course


def _cited_passages(chapter: content.Chapter, request) -> tuple[str, ...]:
    """The passages a chapter of a finished course cites, of the sources that are left."""
    if request.grounding is None:
        return ()
    cited = [
        citation.passage_id
        for lesson in chapter.lessons
        for citation in [*lesson.citations, *(lesson.exercise.citations if lesson.exercise else [])]
    ] + [citation.passage_id for citation in (chapter.article.citations if chapter.article else [])]
    position = {passage.public_id: number for number, passage in enumerate(request.grounding.passages)}
    return tuple(sorted(dict.fromkeys(pid for pid in cited if pid in position), key=position.__getitem__))


def _ground_regenerated(*, plan: CoursePlan, request, part: str, chapter: int | None) -> CoursePlan:
    # A chapter written again draws on the passages it cites (of the sources left), and on those that
    # match it best when it cites fewer than two; the add-ons draw on what the chapters cite.
    chapters = list(plan.chapters)
    if part == "chapter":
        planned = chapters[chapter - 1]
        if len(planned.passages) < 2:
            found = request.grounding.passages_for(f"{planned.title} {planned.summary}", fallback=request.subject)
            chapters[chapter - 1] = replace(planned, passages=tuple(dict.fromkeys([*planned.passages, *found])))
    return replace(plan, chapters=_with_texts_read(chapters, request=request))


def _regenerated_parts(part: str, chapter: int | None) -> tuple[str, ...]:
    if part == "chapter":
        return (f"/chapters/{chapter - 1}/",)
    return {"wrapup": ("/wrapup",), "assessment": ("/assessment/",)}.get(part, ())


def _keep_objective_ids(document: dict, *, chapter_index: int, before: content.Chapter) -> None:
    """
    A chapter written again states its objectives under the ids of those it replaces, in order, so
    the questions that tested them still name them; one more gets an id no other chapter holds.
    The generators number ids by the chapter's place, which a client's edit may have moved: the
    course then held one id twice, and writing the chapter again always failed.
    """
    kept = iter(objective.id for objective in before.objectives)
    taken = {
        objective["id"]
        for index, other in enumerate(document["chapters"])
        if index != chapter_index
        for objective in other.get("objectives", [])
    }
    for objective in document["chapters"][chapter_index].get("objectives", []):
        new_id = next(kept, None)
        if new_id is None:
            new_id = next(
                candidate
                for number in itertools.count(1)
                if (candidate := f"{chapter_index + 1}.{number}") not in taken
            )
        objective["id"] = new_id
        taken.add(new_id)


def _forget_objectives_gone(document: dict) -> None:
    # A chapter written again may state other objectives: a question that tested one of the old
    # ones no longer names an objective (the quality report then shows the new ones as untested).
    ids = {objective["id"] for chapter in document["chapters"] for objective in chapter.get("objectives", [])}
    for question in document["assessment"]["questions"]:
        if question.get("objectiveId") not in ids:
            question.pop("objectiveId", None)


def _chapter_document(draft: ChapterDraft, videos: list[content.Video] | None) -> dict:
    chapter = draft.chapter.model_dump(mode="json", exclude_none=True)
    if videos is not None:
        for lesson, video in zip(chapter["lessons"], videos, strict=True):
            lesson["video"] = video.model_dump(mode="json", exclude_none=True)
    return chapter


def normalized(request):
    """The request with whitespace tidied, add-ons de-duplicated; refuses an empty subject."""
    subject = one_line(request.subject)
    if not subject:
        raise GenerationFailed("A course needs a subject.")
    return replace(
        request,
        subject=subject,
        outline=[clip(title) for title in request.outline if one_line(title)],
        add_ons=list(dict.fromkeys(request.add_ons)),
    )


def ground_chapters(*, plan: CoursePlan, request) -> CoursePlan:
    """
    The plan with the passages each chapter draws on (those the generator has not chosen itself are
    retrieved: the best matches of the chapter's title, and without an outline its summary too),
    and their texts read.
    """
    grounding = request.grounding
    used: list[str] = []
    chapters = []
    for planned in plan.chapters:
        passages = planned.passages
        if not passages:
            about = planned.title if request.outline else f"{planned.title} {planned.summary}"
            passages = tuple(grounding.passages_for(about, fallback=request.subject, used=used))
        used += passages
        chapters.append(replace(planned, passages=passages))
    return replace(plan, chapters=_with_texts_read(chapters, request=request))


def _with_texts_read(chapters: list[ChapterPlan], *, request) -> tuple[ChapterPlan, ...]:
    """
    The chapters with the texts of their passages read. A source deleted meanwhile is left out (see
    Grounding.load_texts) with its passages, and a chapter that had only those draws on the sources left.
    """
    grounding = request.grounding
    grounding.load_texts(pid for planned in chapters for pid in planned.passages)
    kept = []
    for planned in chapters:
        passages = tuple(pid for pid in planned.passages if pid in grounding.passage)
        if planned.passages and not passages:
            passages = tuple(grounding.passages_for(planned.title, fallback=request.subject))
            grounding.load_texts(passages)
            passages = tuple(pid for pid in passages if pid in grounding.passage)
        kept.append(replace(planned, passages=passages))
    return tuple(kept)


def check_citations(course: content.CourseContent, *, grounding: Grounding, parts: tuple[str, ...] | None = None) -> None:
    """
    Hold a course built from sources to its promise, whoever wrote it: every part that can cite cites
    (`parts`: the JSON Pointer prefixes written now; None: all), and every citation written now is a
    verbatim quote of a passage of the course's sources.
    :raises GenerationFailed: otherwise (a bug: the writers only ever give checked citations)
    """
    for where, cited in course.cited_parts():
        if parts is not None and not any(where.startswith(prefix) or where == prefix.rstrip("/") for prefix in parts):
            continue
        problems = [] if cited else ["no citation"]
        for citation in cited:
            grounding.load_texts([citation.passage_id])
            passages = grounding.texts([citation.passage_id])
            checked = citations.check(
                passage_id=citation.passage_id, quote=citation.quote, passages=passages,
                source_ids={citation.source_id},
            )
            if checked.citation is None or checked.citation.quote != citation.quote:
                problems.append(checked.problem or "quote not verbatim")
        if problems:
            log.error("generation.uncited_part", extra={"where": where, "problems": problems[:3]})
            raise GenerationFailed()


def load_grounding(request, *, generator_name: str, deadline: float) -> Grounding:
    """
    The request's sources. The `openai` generator retrieves their passages by meaning too, when
    OPENAI_EMBEDDINGS_MODEL is set.
    """
    semantic = generator_name == "openai" and embeddings.enabled()
    embedder = embeddings.Embedder(deadline=deadline) if semantic else None
    return Grounding.load(request.source_ids, embedder=embedder)


def make_generator(name: str, *, deadline: float, grounded: bool = False) -> Generator:
    if name == "offline":
        return ExtractiveGenerator() if grounded else OfflineGenerator()
    if name == "openai":
        from courses.generation.openai_generator import OpenAIGenerator

        return OpenAIGenerator(deadline=deadline)
    raise ImproperlyConfigured(f"COURSE_GENERATOR must be 'offline' or 'openai', not {name!r}")


def plan_course(*, generator: Generator, request, runner: "Runner") -> CoursePlan:
    """The outline step: the course's name, headline, introduction and chapters."""
    (plan,) = runner.run_all([_timed("plan", lambda: generator.plan(request=request))])
    if request.outline:
        # A given outline is the course's chapters, exactly and in order, whatever the generator said.
        plan = replace(
            plan,
            chapters=tuple(
                replace(planned, title=title)
                for planned, title in zip(plan.chapters, request.outline, strict=True)
            ),
        )
    return plan


def write_chapters(
    *, generator: Generator, request, plan: CoursePlan, runner: "Runner", progress: "Progress", checkpoints=None
) -> list[ChapterDraft]:
    """
    Write every chapter (lessons, and exercises and article when asked), concurrently; those kept
    in `checkpoints` are not written again, and each is saved there as it is written.
    """
    checkpoints = checkpoints or NoCheckpoints()
    count = len(plan.chapters)
    drafts = [kept_step(checkpoints, f"chapter:{index}", request) for index in range(count)]
    missing = [index for index, draft in enumerate(drafts) if draft is None]
    done = count - len(missing)

    def chapter_done(position: int) -> None:
        nonlocal done
        done += 1
        index = missing[position]
        checkpoints.save(f"chapter:{index}", written[position])
        progress.report(PROGRESS_PLANNED + (PROGRESS_CHAPTERS_DONE - PROGRESS_PLANNED) * done // count)

    written: dict[int, ChapterDraft] = {}

    def write(position: int) -> ChapterDraft:
        with metrics.STEP_SECONDS.labels(step="chapter").time():
            written[position] = generator.chapter(request=request, plan=plan, index=missing[position])
        return written[position]

    results = runner.run_all(
        [functools.partial(write, position) for position in range(len(missing))], on_done=chapter_done
    )
    for position, index in enumerate(missing):
        drafts[index] = results[position]
    return drafts


def write_add_ons(
    *,
    generator: Generator,
    request,
    plan: CoursePlan,
    chapters: list[content.Chapter],
    runner: "Runner",
    progress: "Progress",
    checkpoints=None,
) -> dict:
    """
    Write the course-level add-ons asked for (wrap-up, assessment, agreement), concurrently. An
    add-on the generator cannot write usably (GenerationFailed) does not fail the course: the
    offline generator's version, in the course's language, takes its place. Those kept in
    `checkpoints` are not written again; each is saved there as it is written.
    """
    checkpoints = checkpoints or NoCheckpoints()

    def written_by(writer: Generator, add_on: str):
        if add_on == "wrapup":
            return writer.wrapup(request=request, plan=plan, chapters=chapters)
        if add_on == "assessment":
            return writer.assessment(request=request, plan=plan, chapters=chapters)
        return writer.agreement(request=request, plan=plan)

    def step(add_on: str):
        try:
            return written_by(generator, add_on)
        except GenerationFailed:
            if isinstance(generator, OfflineGenerator):
                raise
            log.warning("generation.add_on_fallback", extra={"add_on": add_on})
            offline = ExtractiveGenerator() if request.grounding is not None else OfflineGenerator()
            return written_by(offline, add_on)

    wanted = [add_on for add_on in COURSE_LEVEL_ADD_ONS if add_on in request.add_ons]
    kept = {add_on: kept_step(checkpoints, add_on, request) for add_on in wanted}
    missing = [add_on for add_on in wanted if kept[add_on] is None]
    done = len(wanted) - len(missing)
    written: dict[str, object] = {}

    def write(add_on: str):
        with metrics.STEP_SECONDS.labels(step=add_on).time():
            written[add_on] = step(add_on)
        return written[add_on]

    def add_on_done(position: int) -> None:
        nonlocal done
        done += 1
        checkpoints.save(missing[position], written[missing[position]])
        progress.report(
            PROGRESS_CHAPTERS_DONE + (PROGRESS_ADD_ONS_DONE - PROGRESS_CHAPTERS_DONE) * done // len(wanted)
        )

    results = runner.run_all([functools.partial(write, add_on) for add_on in missing], on_done=add_on_done)
    kept.update(zip(missing, results, strict=True))
    return {add_on: kept[add_on] for add_on in wanted}


def find_videos(*, request, drafts: list[ChapterDraft], deadline: float) -> list[list[content.Video]] | None:
    """A video for every lesson, per chapter, when the videos add-on was asked for."""
    if "videos" not in request.add_ons:
        return None
    queries = [query for draft in drafts for query in draft.video_queries]
    found = iter(
        videos.videos_for_lessons(queries=queries, language_id=request.language_id, deadline=deadline)
    )
    return [[next(found) for _ in draft.video_queries] for draft in drafts]


def assemble(
    *,
    request,
    plan: CoursePlan,
    drafts: list[ChapterDraft],
    add_ons: dict,
    lesson_videos: list[list[content.Video]] | None,
) -> content.CourseContent:
    """Put the parts together into one course document and validate it as a whole."""
    if "videos" in request.add_ons and lesson_videos is None:
        # The lookup could not finish before the deadline: every lesson links to a search instead.
        lesson_videos = [
            [
                videos.search_video(query=query, language_id=request.language_id)
                for query in draft.video_queries
            ]
            for draft in drafts
        ]
    chapters = [
        _chapter_document(draft, None if lesson_videos is None else lesson_videos[number])
        for number, draft in enumerate(drafts)
    ]
    document = {
        "name": plan.name,
        "headline": plan.headline,
        "languageId": request.language_id,
        "format": request.format,
        "addOns": request.add_ons,
        "introduction": plan.introduction,
        "chapters": chapters,
        **{name: part.model_dump(mode="json", exclude_none=True) for name, part in add_ons.items()},
    }
    if request.grounding is not None:
        document["sources"] = [source.model_dump(mode="json") for source in request.grounding.refs()]
    try:
        course = content.CourseContent.model_validate(document)
    except pydantic.ValidationError as exc:
        log.error("generation.invalid_course", extra={"errors": exc.errors(include_input=False)[:5]})
        raise GenerationFailed() from exc
    if request.grounding is not None:
        check_citations(course, grounding=request.grounding)
    return course


def _timed(step: str, work: Callable[[], T]) -> Callable[[], T]:
    """`work`, its time recorded as the step's (cgs_job_step_duration_seconds) when it returns."""

    def timed() -> T:
        with metrics.STEP_SECONDS.labels(step=step).time():
            return work()

    return timed


class NoCheckpoints:
    """Nothing kept (generation outside a job): every step is generated."""

    def load(self, step: str):
        return None

    def save(self, step: str, value) -> None:
        pass

    def forget(self) -> None:
        pass


def kept_step(checkpoints, step: str, request):
    """
    The result of `step` an earlier attempt kept, or None when it is to be generated. In a course
    built from sources, a kept step that names a passage of a source deleted since is generated again
    from the sources left (as a new attempt would be without checkpoints).
    """
    kept = checkpoints.load(step)
    if kept is None or request.grounding is None:
        return kept
    gone = [public_id for public_id in _passages_named(kept) if public_id not in request.grounding.passage]
    if gone:
        log.info("generation.checkpoint_outdated", extra={"step": step, "passages_gone": len(gone)})
        return None
    return kept


def _passages_named(value) -> list[str]:
    """The passages a step's result draws on or cites (public ids)."""
    if isinstance(value, CoursePlan):
        return [public_id for planned in value.chapters for public_id in planned.passages]
    if isinstance(value, ChapterDraft):
        value = value.chapter
    if not isinstance(value, pydantic.BaseModel):
        return []
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("passageId"), str):
                found.append(node["passageId"])
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(value.model_dump(mode="json"))
    return found


class Progress:
    """Reports whole percentages in 1..99 to a callback, each higher than the last."""

    def __init__(self, callback: Callable[[int], None]):
        self._callback = callback
        self._last = 0

    def report(self, percent: int) -> None:
        percent = max(1, min(99, int(percent)))
        if percent > self._last:
            self._last = percent
            self._callback(percent)


class Runner:
    """
    Runs steps on `workers` threads (in the calling thread when workers is None) and waits for
    them no later than the deadline. The first failure is raised; steps not yet started are cancelled.
    """

    def __init__(self, *, workers: int | None, deadline: float):
        self._deadline = deadline
        self._executor = (
            None
            if workers is None
            else ThreadPoolExecutor(max_workers=workers, thread_name_prefix="course-generation")
        )

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc_info) -> None:
        if self._executor is not None:
            # Requests already in flight end by their own timeout (never later than the deadline).
            self._executor.shutdown(wait=False, cancel_futures=True)

    def check_deadline(self) -> None:
        if time.monotonic() >= self._deadline:
            raise GenerationTimeout()

    def run_all(self, calls: list[Callable[[], T]], on_done: Callable[[int], None] | None = None) -> list[T]:
        """Run every call and return their results in order; on_done(index) as each finishes."""
        on_done = on_done or (lambda _index: None)
        results: list = [None] * len(calls)
        if self._executor is None:
            for index, call in enumerate(calls):
                self.check_deadline()
                results[index] = call()
                on_done(index)
            self.check_deadline()
            return results
        pending = {self._executor.submit(call): index for index, call in enumerate(calls)}
        try:
            while pending:
                finished, _ = wait(pending, timeout=self._remaining(), return_when=FIRST_COMPLETED)
                if not finished:
                    raise GenerationTimeout()
                for future in finished:
                    index = pending.pop(future)
                    results[index] = future.result()
                    on_done(index)
        finally:
            for future in pending:
                future.cancel()
        return results

    def _remaining(self) -> float:
        return max(0.0, self._deadline - time.monotonic())
