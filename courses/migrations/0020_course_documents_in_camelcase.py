"""
The course document's keys in camelCase, its schema version 3 (courses.content): every document
stored, a course's and each of its versions', has its snake_case keys renamed and says version 3,
and so do the parts of a course kept by the checkpoints of generations under way. A course's
digest is taken again from its renamed document, and its schema version is 3.

Backwards, every document is written as it was: in version 2, or in version 1 when it lists no
sources (version 1 had none; version 2 always lists them, if none).

In batches, each in a transaction of its own (so the migration is not atomic): no table is held in
memory, and an edit or a generation going on meanwhile waits for one batch at most. Rows already
converted are left as they are, so a migration stopped halfway can be run again.
"""

import hashlib
import json

from django.db import migrations, transaction

import courses.models

BATCH = 100

# courses.content.VERSION_2_KEYS, as it was when this ran.
CAMEL_CASE = {
    "add_ons": "addOns",
    "bloom_level": "bloomLevel",
    "correct_index": "correctIndex",
    "expected_result": "expectedResult",
    "key_takeaways": "keyTakeaways",
    "language_id": "languageId",
    "media_type": "mediaType",
    "objective_id": "objectiveId",
    "passage_id": "passageId",
    "passing_score_percent": "passingScorePercent",
    "schema_version": "schemaVersion",
    "source_id": "sourceId",
    "video_id": "videoId",
}
SNAKE_CASE = {camel: snake for snake, camel in CAMEL_CASE.items()}


def _renamed(node, names: dict[str, str]):
    if isinstance(node, dict):
        return {names.get(key, key): _renamed(value, names) for key, value in node.items()}
    if isinstance(node, list):
        return [_renamed(value, names) for value in node]
    return node


def _digest(document: dict) -> str:
    # courses.content.digest, as it was when this ran.
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _in_version_3(document):
    """The document in version 3; None if it is in it already."""
    if not isinstance(document, dict) or document.get("schemaVersion") == 3:
        return None
    return {**_renamed(document, CAMEL_CASE), "schemaVersion": 3}


def _in_version_2_or_1(document):
    """The document in version 2, or 1 without sources; None if it is in one of them already."""
    if not isinstance(document, dict) or document.get("schemaVersion") != 3:
        return None
    renamed = _renamed(document, SNAKE_CASE)
    return {**renamed, "schema_version": 2 if "sources" in renamed else 1}


def _course_columns(document: dict) -> dict:
    version = document.get("schemaVersion", document.get("schema_version"))
    return {"content_digest": _digest(document), "schema_version": version}


def _convert(model, *, field: str, using: str, convert, columns=lambda converted: {}) -> None:
    """Write `convert(value)` of each row's `field` where it is not None, BATCH rows at a time."""
    last = 0
    while True:
        with transaction.atomic(using=using):
            rows = list(
                model.objects.using(using)
                .select_for_update()
                .filter(pk__gt=last)
                .order_by("pk")
                .values_list("pk", field)[:BATCH]
            )
            if not rows:
                return
            last = rows[-1][0]
            for pk, value in rows:
                converted = convert(value)
                if converted is not None:
                    changes = {field: converted, **columns(converted)}
                    model.objects.using(using).filter(pk=pk).update(**changes)


def _checkpoint_part(names: dict[str, str]):
    # A checkpoint holds a part of a document (a chapter, an add-on) or a plan, whose keys are
    # spelled alike in every version: renaming the keys of the whole is renaming the part's.
    def convert(data):
        renamed = _renamed(data, names)
        return None if renamed == data else renamed

    return convert


def _run(apps, schema_editor, *, documents, checkpoints) -> None:
    using = schema_editor.connection.alias
    course, version, checkpoint = (
        apps.get_model("courses", name) for name in ("Course", "CourseVersion", "GenerationCheckpoint")
    )
    _convert(course, field="content", using=using, convert=documents, columns=_course_columns)
    _convert(version, field="content", using=using, convert=documents)
    _convert(checkpoint, field="data", using=using, convert=checkpoints)


def documents_in_camelcase(apps, schema_editor):
    _run(apps, schema_editor, documents=_in_version_3, checkpoints=_checkpoint_part(CAMEL_CASE))


def documents_in_snake_case(apps, schema_editor):
    _run(apps, schema_editor, documents=_in_version_2_or_1, checkpoints=_checkpoint_part(SNAKE_CASE))


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("courses", "0019_exports_and_signoffs_move_out"),
    ]

    # The documents are converted while the models read them as stored: courses.models.DocumentField
    # reads an older one as version 3, which would leave nothing to convert.
    operations = [
        migrations.RunPython(documents_in_camelcase, documents_in_snake_case),
        migrations.AlterField(
            model_name="course",
            name="content",
            field=courses.models.DocumentField(),
        ),
        migrations.AlterField(
            model_name="courseversion",
            name="content",
            field=courses.models.DocumentField(),
        ),
    ]
