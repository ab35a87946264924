"""What every admin list of the project shares."""

from django.contrib import admin, messages
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.contenttypes.models import ContentType
from django.db.models.constants import LOOKUP_SEP

from core import errors, redaction


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


class ReadOnlyAdmin(DatesInRange, admin.ModelAdmin):
    """Staff look; the API and the workers write."""

    # Course documents (up to a megabyte each) that no list shows: read only where a page needs them.
    deferred: tuple[str, ...] = ()

    def get_queryset(self, request):
        return super().get_queryset(request).defer(*self.deferred)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class DeletesThroughService:
    """
    Staff delete with Django's confirmation page, but the deletion itself is the API's (files,
    links answering 410, events, the audit line in the log): `delete_one`. What goes with the object
    is listed on the page; staff need no permission on those kinds, which they cannot delete alone.
    """

    def has_delete_permission(self, request, obj=None):
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    def get_deleted_objects(self, objs, request):
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected

    def delete_model(self, request, obj):
        self.delete_one(obj, by=f"staff {request.user.get_username()}")

    def log_deletions(self, request, queryset):
        # Django's log of staff's changes keeps each entry for good, and the admin's home page shows
        # it to every staff member: a deleted object is named there by what `deleted_name` says, never
        # by what it held.
        content_type = ContentType.objects.get_for_model(self.model, for_concrete_model=False)
        return LogEntry.objects.bulk_create(
            LogEntry(
                user_id=request.user.pk, content_type_id=content_type.id, object_id=obj.pk,
                object_repr=self.deleted_name(obj), action_flag=DELETION,
            )
            for obj in queryset
        )

    def deleted_name(self, obj) -> str:
        return str(obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            try:
                self.delete_one(obj, by=f"staff {request.user.get_username()}")
            except errors.AppError as refused:  # a course being generated again, say
                self.message_user(request, f"{obj} was left as it is: {refused.message}", messages.WARNING)
