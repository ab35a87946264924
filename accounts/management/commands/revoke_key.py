from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = "Revoke an API key, given as the whole key or its display prefix."

    def add_arguments(self, parser):
        parser.add_argument("key", help="The whole key, or its display prefix (e.g. cgs_AbCd1234).")

    def handle(self, *args, key, **options):
        try:
            revoked = services.revoke_key(key_or_prefix=key)
        except services.UnknownKey as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Revoked {revoked.prefix}… of {revoked.account.email}")
