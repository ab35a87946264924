"""factory-boy factories for every model: build state the services would build, never states they'd refuse."""

import factory

from accounts import services as account_services
from accounts.models import Account, ApiKey, Plan, UsagePeriod
from config.ids import random_base62


class PlanFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Plan
        django_get_or_create = ("slug",)

    slug = "pro"
    name = "Pro"
    is_paid = True
    monthly_course_credits = 50


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
