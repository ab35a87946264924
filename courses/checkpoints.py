"""
Checkpoints of a generation: every step is kept as it finishes (the plan, each chapter, the wrap-up,
the assessment, the agreement, a regenerated part), so that an attempt after a worker died or
stopped uses what is kept and generates only what is missing: no model is paid twice for a step.
A job's checkpoints are deleted in the transaction that ends it.

The pipeline sees only `load(step)` and `save(step, value)`; how each step's value is stored is here.
"""

import dataclasses
import logging

from django.db import connection, transaction

from core import errors
from courses import content
from courses.generation.base import ChapterDraft, ChapterPlan, CoursePlan
from courses.models import GenerationCheckpoint, GenerationJob

logger = logging.getLogger(__name__)

_ADD_ONS = {"wrapup": content.Wrapup, "assessment": content.Assessment, "agreement": content.Agreement}


def _encode(value):
    if isinstance(value, CoursePlan):
        return {"kind": "plan", **dataclasses.asdict(value)}
    if isinstance(value, ChapterDraft):
        return {
            "kind": "chapter",
            "chapter": value.chapter.model_dump(mode="json", exclude_none=True),
            "video_queries": list(value.video_queries),
        }
    if isinstance(value, str):
        return {"kind": "text", "text": value}
    for name, model in _ADD_ONS.items():
        if isinstance(value, model):
            return {"kind": name, "value": value.model_dump(mode="json", exclude_none=True)}
    raise TypeError(f"no checkpoint for {type(value).__name__}")


def _decode(data: dict):
    # A step kept by the previous release (a worker that handed its job back during a deploy) spells
    # its parts' keys as schema version 2 did.
    data = content.renamed_keys(data, content.VERSION_2_KEYS)
    kind = data["kind"]
    if kind == "plan":
        chapters = tuple(
            ChapterPlan(
                title=chapter["title"], summary=chapter["summary"], passages=tuple(chapter.get("passages") or ())
            )
            for chapter in data["chapters"]
        )
        return CoursePlan(
            name=data["name"], headline=data["headline"], introduction=data["introduction"], chapters=chapters
        )
    if kind == "chapter":
        return ChapterDraft(
            chapter=content.Chapter.model_validate(data["chapter"]), video_queries=tuple(data["video_queries"])
        )
    if kind == "text":
        return data["text"]
    return _ADD_ONS[kind].model_validate(data["value"])


class AttemptEnded(Exception):
    """The job no longer runs as this attempt: another took it over, or it ended. Nothing of this
    attempt counts any more, so it stops rather than pay the model for more."""


class Checkpoints:
    """
    The finished steps of one job, written by one attempt of it: once another attempt took the job
    over (this one's worker was only slow) or it ended, this one's steps are no longer kept, and the
    next one it finishes stops it (AttemptEnded). `save` is called from the pipeline's calling thread.
    """

    def __init__(self, *, job_id: int, attempt: int):
        self.job_id = job_id
        self.attempt = attempt
        self._kept = dict(GenerationCheckpoint.objects.filter(job_id=job_id).values_list("step", "data"))

    def load(self, step: str):
        """The kept result of `step`, or None if it has not finished in any attempt."""
        data = self._kept.get(step)
        return None if data is None else _decode(data)

    def save(self, step: str, value) -> None:
        data = _encode(value)
        try:
            with transaction.atomic():
                self._check_still_running()
                # A step kept before is replaced: the pipeline generates a kept step again only when
                # it no longer fits (its plan was not kept, or a source it cites is gone).
                GenerationCheckpoint.objects.bulk_create(
                    [GenerationCheckpoint(job_id=self.job_id, step=step, data=data)],
                    update_conflicts=True,
                    unique_fields=["job", "step"],
                    update_fields=["data", "created_at"],
                )
        except errors.DATABASE_UNAVAILABLE:
            # The database is away for a moment (a restart): the work goes on, and this step is
            # generated again only if this attempt does not finish.
            logger.warning("checkpoint not kept, database unreachable", extra={"job_id": self.job_id, "step": step})
            connection.close()
        self._kept[step] = data

    def forget(self) -> None:
        """
        Drop every kept step: the plan is being made again, and steps written for another plan (kept
        while the plan's own checkpoint could not be written) must not be mixed into this one.
        """
        if not self._kept:
            return
        self._kept.clear()
        try:
            with transaction.atomic():
                self._check_still_running()
                GenerationCheckpoint.objects.filter(job_id=self.job_id).delete()
        except errors.DATABASE_UNAVAILABLE:
            # Left behind, they are replaced step by step as this attempt saves its own.
            logger.warning("old checkpoints not dropped, database unreachable", extra={"job_id": self.job_id})
            connection.close()

    def _check_still_running(self) -> None:
        """
        That the job still runs as this attempt, locked until the transaction ends: a late step of an
        ended job, or of an attempt another one replaced, leaves nothing behind.
        :raises AttemptEnded: otherwise
        """
        running = GenerationJob.objects.select_for_update(no_key=True).filter(
            pk=self.job_id, status=GenerationJob.Status.RUNNING, attempts=self.attempt
        )
        if not running.exists():
            raise AttemptEnded()


def clear(*, job_id: int) -> None:
    """Forget the job's steps; called in the transaction that ends it."""
    GenerationCheckpoint.objects.filter(job_id=job_id).delete()
