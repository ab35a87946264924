from django.db import models


class Language(models.TextChoices):
    """The languages courses are written in, and their pages speak."""

    EN_US = "en-US", "English (US)"
    PT_BR = "pt-BR", "Português (Brasil)"
    ES_ES = "es-ES", "Español (España)"
    FR_FR = "fr-FR", "Français (France)"
    DE_DE = "de-DE", "Deutsch (Deutschland)"
