"""What every admin list of the project shares."""

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.db.models.constants import LOOKUP_SEP

from core import redaction


class DatesInRange:
    """
    A list filtered by a year, month or day from the query string takes one outside the calendar
    (`?created_at__year=10000`, `?created_at__year=99999999999`) as the list's "invalid filter"
    answer, as any other bad filter value is, not a 500: Django lets the ValueError or OverflowError
    through, from its date hierarchy or from the query.
    """

    def get_changelist_instance(self, request):
        try:
            return super().get_changelist_instance(request)
        except (OverflowError, ValueError):
            raise IncorrectLookupParameters() from None


class NoLookupsBySecrets:
    """
    No list is filtered by a secret from the query string. Django takes any lookup on a model's own
    fields there, and the count of what `?webhook_secret__startswith=whsec_a` matches tells a secret
    character by character, even to staff who may only view. Lookups through relations are refused
    by Django already, unless a list filter names them.
    """

    secret_fields: tuple[str, ...] = ()

    def lookup_allowed(self, lookup, value, request=None):
        if lookup.split(LOOKUP_SEP, 1)[0] in self.secret_fields:
            return False
        return super().lookup_allowed(lookup, value, request)


def redacted_url_of(field: str, *, description: str):
    """
    A column or read-only field showing the model's URL `field` redacted (redaction.redacted_url):
    callback and web page URLs carry their tokens in the query or before the host. Name the field in
    `exclude` and in `secret_fields` (NoLookupsBySecrets) too, and never in `search_fields`, where
    the count of what a search matches would tell a token.
    """

    @admin.display(description=description)
    def shown(model_admin, obj):
        url = getattr(obj, field)
        return redaction.redacted_url(url) if url else model_admin.get_empty_value_display()

    return shown
