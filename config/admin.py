"""What every admin list of the project shares."""

from django.contrib.admin.options import IncorrectLookupParameters


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
