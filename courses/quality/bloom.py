"""
Our verb tables: the measurable verbs a learning objective may start with, per course language,
each at one level of the revised Bloom taxonomy (Anderson and Krathwohl, 2001), and the vague verbs
that describe no behaviour anyone can observe ("understand", "know"). A verb sits at the level it
most often asks for in objectives; verbs are in the infinitive, lower case.
"""

from courses.content import BLOOM_LEVELS

VERBS: dict[str, dict[str, tuple[str, ...]]] = {
    "en-US": {
        "remember": ("define", "list", "name", "recall", "recognize", "identify", "state", "label", "match"),
        "understand": (
            "explain", "describe", "summarize", "classify", "compare", "interpret", "illustrate",
            "paraphrase", "discuss", "give examples of",
        ),
        "apply": (
            "apply", "use", "demonstrate", "carry out", "execute", "implement", "solve", "calculate",
            "perform", "practice",
        ),
        "analyze": (
            "analyze", "differentiate", "distinguish", "examine", "diagnose", "contrast", "organize",
            "break down", "troubleshoot", "investigate",
        ),
        "evaluate": (
            "evaluate", "assess", "judge", "critique", "justify", "check", "prioritize", "choose", "select",
            "recommend", "defend",
        ),
        "create": (
            "create", "design", "plan", "develop", "build", "compose", "formulate", "produce", "write",
            "construct", "devise", "propose",
        ),
    },
    "pt-BR": {
        "remember": ("definir", "listar", "nomear", "reconhecer", "identificar", "citar", "recordar", "relacionar"),
        "understand": (
            "explicar", "descrever", "resumir", "classificar", "comparar", "interpretar", "ilustrar",
            "exemplificar", "discutir", "parafrasear",
        ),
        "apply": (
            "aplicar", "usar", "utilizar", "demonstrar", "executar", "implementar", "resolver", "calcular",
            "realizar", "praticar",
        ),
        "analyze": (
            "analisar", "diferenciar", "distinguir", "examinar", "diagnosticar", "contrastar", "organizar",
            "investigar", "decompor",
        ),
        "evaluate": (
            "avaliar", "julgar", "criticar", "justificar", "verificar", "priorizar", "escolher", "selecionar",
            "recomendar", "defender",
        ),
        "create": (
            "criar", "projetar", "planejar", "desenvolver", "construir", "compor", "formular", "produzir",
            "elaborar", "propor", "escrever",
        ),
    },
    "es-ES": {
        "remember": ("definir", "enumerar", "nombrar", "reconocer", "identificar", "citar", "recordar", "relacionar"),
        "understand": (
            "explicar", "describir", "resumir", "clasificar", "comparar", "interpretar", "ilustrar",
            "ejemplificar", "discutir", "parafrasear",
        ),
        "apply": (
            "aplicar", "usar", "utilizar", "demostrar", "ejecutar", "implementar", "resolver", "calcular",
            "realizar", "practicar",
        ),
        "analyze": (
            "analizar", "diferenciar", "distinguir", "examinar", "diagnosticar", "contrastar", "organizar",
            "investigar", "descomponer",
        ),
        "evaluate": (
            "evaluar", "juzgar", "criticar", "justificar", "verificar", "comprobar", "priorizar", "elegir",
            "seleccionar", "recomendar", "defender",
        ),
        "create": (
            "crear", "diseñar", "planificar", "desarrollar", "construir", "componer", "formular", "producir",
            "elaborar", "proponer", "redactar", "escribir",
        ),
    },
    "fr-FR": {
        "remember": ("définir", "énumérer", "nommer", "reconnaître", "identifier", "citer", "rappeler", "associer"),
        "understand": (
            "expliquer", "décrire", "résumer", "classer", "comparer", "interpréter", "illustrer",
            "reformuler", "discuter",
        ),
        "apply": (
            "appliquer", "utiliser", "démontrer", "exécuter", "mettre en œuvre", "résoudre", "calculer",
            "réaliser", "pratiquer",
        ),
        "analyze": (
            "analyser", "différencier", "distinguer", "examiner", "diagnostiquer", "contraster", "organiser",
            "décomposer", "dépanner",
        ),
        "evaluate": (
            "évaluer", "juger", "critiquer", "justifier", "vérifier", "prioriser", "choisir", "sélectionner",
            "recommander", "défendre",
        ),
        "create": (
            "créer", "concevoir", "planifier", "élaborer", "construire", "composer", "formuler", "produire",
            "proposer", "rédiger",
        ),
    },
    "de-DE": {
        "remember": (
            "definieren", "aufzählen", "benennen", "wiedererkennen", "identifizieren", "nennen",
            "wiedergeben", "zuordnen",
        ),
        "understand": (
            "erklären", "beschreiben", "zusammenfassen", "klassifizieren", "vergleichen", "interpretieren",
            "veranschaulichen", "erläutern", "diskutieren", "umschreiben",
        ),
        "apply": (
            "anwenden", "verwenden", "nutzen", "demonstrieren", "durchführen", "ausführen", "umsetzen",
            "lösen", "berechnen", "üben",
        ),
        "analyze": (
            "analysieren", "unterscheiden", "untersuchen", "diagnostizieren", "gegenüberstellen", "gliedern",
            "zerlegen",
        ),
        "evaluate": (
            "bewerten", "beurteilen", "kritisieren", "begründen", "prüfen", "überprüfen", "priorisieren",
            "auswählen", "empfehlen", "verteidigen",
        ),
        "create": (
            "erstellen", "entwerfen", "planen", "entwickeln", "konstruieren", "verfassen", "formulieren",
            "gestalten", "erarbeiten", "schreiben",
        ),
    },
}

# Verbs that name no observable behaviour: an objective built on them cannot be measured.
VAGUE_VERBS = {
    "en-US": {
        "understand", "know", "learn", "appreciate", "be aware of", "be familiar with", "realize", "grasp",
        "comprehend", "believe", "internalize", "get to know",
    },
    "pt-BR": {
        "entender", "compreender", "saber", "conhecer", "aprender", "apreciar", "perceber", "assimilar",
    },
    "es-ES": {
        "entender", "comprender", "saber", "conocer", "aprender", "apreciar", "darse cuenta de", "asimilar",
    },
    "fr-FR": {
        "comprendre", "savoir", "connaître", "apprendre", "apprécier", "saisir", "réaliser que", "assimiler",
    },
    "de-DE": {
        "verstehen", "wissen", "kennen", "lernen", "begreifen", "kennenlernen", "wertschätzen", "verinnerlichen",
    },
}

_LEVEL_OF = {
    language: {verb: level for level, verbs in table.items() for verb in verbs}
    for language, table in VERBS.items()
}


def normalized_verb(verb: str, language: str) -> str:
    """The verb as the tables spell it: lower case, single spaces, without a leading "to" in English."""
    verb = " ".join(verb.casefold().split()).strip(" .,;:")
    if language == "en-US" and verb.startswith("to "):
        verb = verb[3:]
    return verb


def level_of(verb: str, language: str) -> str | None:
    """The Bloom level of a verb in our table for the language, or None when the table lacks it."""
    return _LEVEL_OF[language].get(normalized_verb(verb, language))


def is_vague(verb: str, language: str) -> bool:
    return normalized_verb(verb, language) in VAGUE_VERBS[language]


def listed_verbs(language: str) -> list[str]:
    """Every verb of the language's table, from the lowest level to the highest."""
    return [verb for level in BLOOM_LEVELS for verb in VERBS[language][level]]


def statement(*, verb: str, object: str, language: str) -> str:
    """The objective as one sentence fragment: "Explain …"; in German the verb ends it ("… erklären")."""
    if language == "de-DE":
        return f"{object} {verb}"
    return f"{verb[:1].upper()}{verb[1:]} {object}"
