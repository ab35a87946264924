"""What sources tell the apps built on them, which keep things made from a source."""

from django.dispatch import Signal

# A source is being deleted (sources.services.delete_source), `source=`, inside the deletion's
# transaction: mark what was made from it. Sent before the source's row is locked (so that what is
# made from it is locked first, in the order every writer takes them), and again once it is, for
# what was stored meanwhile: receivers must be idempotent. A receiver may refuse the deletion by
# raising an AppError (courses: SourceInUse while a job builds from the source); nothing is deleted.
source_deleting = Signal()
