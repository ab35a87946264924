"""
The offline generator's words, one table per course language, all with the same keys and
placeholders (tests compare them). Placeholders: {s} the course subject and {t} the topic (a chapter
title, or the subject) in quotation marks; {topic} and {chapter} bare, in video queries and titles;
{chapters} and {lessons} Markdown lists.
"""

from courses.generation.texts import de_de, en_us, es_es, fr_fr, pt_br

TEXTS = {
    "en-US": en_us.TEXTS,
    "pt-BR": pt_br.TEXTS,
    "es-ES": es_es.TEXTS,
    "fr-FR": fr_fr.TEXTS,
    "de-DE": de_de.TEXTS,
}
