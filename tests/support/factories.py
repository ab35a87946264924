"""
factory-boy factories for the models tests make: build state the services would build, never states
they'd refuse. The factories of rows a service writes (sources, learners, webhook events, exports,
sign-offs) make them through that service, with its checks, so they take its arguments only.
"""

import functools

import factory
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts import services as account_services
from accounts.models import Account, ApiKey, Plan, UsagePeriod
from core.ids import random_base62
from courses import content
from courses.models import Course, CourseVersion, GenerationJob
from exports import services as export_services
from exports.models import Export
from learners import identity, progress, signoffs
from learners import services as learner_services
from learners.models import Learner, Signoff
from sources import services as source_services
from sources.models import Source
from tests.support import documents, samples
from webhooks import services as webhook_services
from webhooks.models import WebhookEvent


class PlanFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Plan
        django_get_or_create = ("slug",)

    slug = "pro"
    name = "Pro"
    is_paid = True
    monthly_course_credits = 50
    source_storage_mb = 1000


class AccountFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Account

    email = factory.Sequence(lambda n: f"customer{n}@example.com")
    name = factory.Faker("company")
    plan = factory.SubFactory(PlanFactory)


class ApiKeyFactory(factory.django.DjangoModelFactory):
    """A key whose plain value is lost, as for any key after issue; use issue_key to call the API."""

    class Meta:
        model = ApiKey

    account = factory.SubFactory(AccountFactory)
    name = "factory"
    key_hash = factory.LazyFunction(lambda: account_services.hash_key("cgs_" + random_base62(40)))
    prefix = factory.LazyAttribute(lambda key: "cgs_" + key.key_hash[:8])


class UsagePeriodFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = UsagePeriod

    account = factory.SubFactory(AccountFactory)
    period_date = factory.LazyFunction(account_services.billing_period_date)
    courses_used = 0


class GenerationJobFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GenerationJob

    api_key = factory.SubFactory(ApiKeyFactory)
    subject = "Intro to SQL"


class CourseFactory(factory.django.DjangoModelFactory):
    """A finished course with its completed job, built from a complete course document."""

    class Meta:
        model = Course
        skip_postgeneration_save = True  # the hook saves what it makes itself

    class Params:
        add_ons = factory.LazyFunction(lambda: list(samples.ALL_ADD_ONS))
        text = ""

    api_key = factory.SubFactory(ApiKeyFactory)
    format = "onepage"
    language_id = "en-US"
    job = factory.SubFactory(
        GenerationJobFactory,
        api_key=factory.SelfAttribute("..api_key"),
        format=factory.SelfAttribute("..format"),
        language_id=factory.SelfAttribute("..language_id"),
        status=GenerationJob.Status.COMPLETED,
        progress=100,
    )
    content = factory.LazyAttribute(
        lambda course: samples.course_document(
            format=course.format, language_id=course.language_id, add_ons=course.add_ons, text=course.text
        )
    )
    content_digest = factory.LazyAttribute(lambda course: content.digest(course.content))
    name = factory.LazyAttribute(lambda course: course.content["name"])
    headline = factory.LazyAttribute(lambda course: course.content["headline"])
    schema_version = 1

    @factory.post_generation
    def first_version(course, create, extracted, **kwargs):
        if create:
            CourseVersion.objects.create(
                course=course, number=1, content=course.content, source=CourseVersion.Source.GENERATED, changed="content"
            )


class SourceFactory(factory.django.DjangoModelFactory):
    """
    A source as a client's upload makes it (sources.services.create_source_from_upload) and the
    reading task finishes it (services.read_source): by default a Markdown file, ready, with its
    passages. `read=False` leaves it pending, as just uploaded; `data` the reader refuses leaves it
    failed with the reader's code. `name` is the name the client gave (else the file's).
    """

    class Meta:
        model = Source

    api_key = factory.SubFactory(ApiKeyFactory)
    file_name = "onboarding.md"
    data = documents.MARKDOWN.encode()
    name = ""
    callback_url = ""
    read = True

    @classmethod
    def _create(cls, model_class, *, api_key, file_name, data, name, callback_url, read):
        source = source_services.create_source_from_upload(
            api_key=api_key, upload=SimpleUploadedFile(file_name, data), name=name, callback_url=callback_url
        )
        if read:
            source_services.read_source(source_id=source.pk)
            source.refresh_from_db()
        return source


class LearnerFactory(factory.django.DjangoModelFactory):
    """
    A learner the client added to a course for a personal link (learners.services.add_learner), with
    no progress yet. Readers of the page become learners through the page (tests.support.readers).
    """

    class Meta:
        model = Learner

    course = factory.SubFactory(CourseFactory)
    external_id = factory.Sequence(lambda n: f"E-{n}")
    name = ""

    @classmethod
    def _create(cls, model_class, *, course, external_id, name):
        learner, _ = learner_services.add_learner(
            api_key=course.api_key, course_public_id=course.public_id, external_id=external_id, name=name
        )
        return learner


class WebhookEventFactory(factory.django.DjangoModelFactory):
    """
    An event written to the outbox (webhooks.services.record_event), pending: its delivery waits
    for the transaction to commit, which a test's never does unless it runs its on-commit callbacks.
    """

    class Meta:
        model = WebhookEvent

    account = factory.SubFactory(AccountFactory)
    url = "https://hooks.example.com/cgs/s3cret-token"
    payload = factory.LazyFunction(
        lambda: {
            "event": "course.failed",
            "jobId": "job_" + random_base62(22),
            "error": {"message": "The subject was unusable.", "code": "GENERATION_FAILED"},
        }
    )
    subject = ""

    @classmethod
    def _create(cls, model_class, *, account, url, payload, subject):
        return webhook_services.record_event(account=account, url=url, payload=payload, subject=subject)


class ExportFactory(factory.django.DjangoModelFactory):
    """A package of a course, built and stored by exports.services.export_course for the course's key."""

    class Meta:
        model = Export

    course = factory.SubFactory(CourseFactory)
    format = Export.ExportFormat.SCORM12
    callback_url = ""

    @classmethod
    def _create(cls, model_class, *, course, format, callback_url):
        return export_services.export_course(
            api_key=course.api_key, course_public_id=course.public_id, format=format, callback_url=callback_url
        )


class SignoffFactory(factory.django.DjangoModelFactory):
    """
    A sign-off of a course's agreement as the page records it (learners.signoffs.record_signoff), by
    `learner` (unless given, one the client added), who first does everything else the course asks,
    as the page records it (learners.progress): every page seen, the quiz passed.
    """

    class Meta:
        model = Signoff

    course = factory.SubFactory(CourseFactory)
    name = "Ada Lovelace"
    client_ip = "203.0.113.9"
    learner = None

    @classmethod
    def _create(cls, model_class, *, course, name, client_ip, learner):
        learner = learner or LearnerFactory(course=course)
        signer = identity.Known(public_id=learner.public_id, personal=learner.external_id is not None)
        do_all_but_sign(course, signer, client_ip=client_ip)
        signoff = signoffs.record_signoff(course=course, name=name, client_ip=client_ip, learner=signer)
        return Signoff.objects.get(pk=signoff.pk)


def do_all_but_sign(course: Course, learner: identity.Known, *, client_ip: str = "203.0.113.9") -> None:
    """Record what the page records of a learner who saw every page and passed the quiz."""
    pages = progress.page_count(course.content)
    record = functools.partial(
        progress.record, course_public_id=course.public_id, learner=learner, client_address=client_ip
    )
    record(batch=progress.Batch(version=course.version, page=pages - 1, seen=frozenset(range(pages))))
    if course.content.get("assessment"):
        answers = tuple(question["correctIndex"] for question in course.content["assessment"]["questions"])
        record(batch=progress.Batch(version=course.version, answers=answers))
