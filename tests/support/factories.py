"""factory-boy factories for every model: build state the services would build, never states they'd refuse."""

import factory

from accounts import services as account_services
from accounts.models import Account, ApiKey, Plan, UsagePeriod
from core.ids import random_base62
from courses import content
from courses.models import Course, CourseVersion, GenerationJob
from tests.support import samples


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
