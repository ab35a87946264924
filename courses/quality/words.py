"""
The words the item-writing rules look for, per course language: negations, absolute words, "all
(none) of the above", function words, and the articles and noun endings that give grammatical cues.
Every list is lower case; words are compared case-folded (accents kept).
"""

import re
import unicodedata

LANGUAGES = ("en-US", "pt-BR", "es-ES", "fr-FR", "de-DE")

# Words that make a question stem negative. A negative stem is fine when the word is emphasised
# (written in capitals), so the learner cannot miss it.
NEGATIONS = {
    "en-US": {"not", "no", "never", "except", "cannot", "none", "neither", "nor"},
    "pt-BR": {"não", "nunca", "exceto", "nenhum", "nenhuma", "jamais"},
    "es-ES": {"no", "nunca", "excepto", "salvo", "ningún", "ninguna", "ninguno", "jamás", "tampoco"},
    "fr-FR": {"pas", "jamais", "sauf", "excepté", "aucun", "aucune", "nullement"},
    "de-DE": {"nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals", "außer"},
}
# English negations written into another word.
_CONTRACTED_NEGATION = re.compile(r"n[’']t$")

# Specific determiners: test-wise learners rule out options that say "always" or "never".
ABSOLUTES = {
    "en-US": {
        "always", "never", "all", "every", "everything", "everyone", "none", "nothing", "nobody", "only",
        "completely", "entirely", "totally", "absolutely", "guarantee", "guarantees", "guaranteed",
    },
    "pt-BR": {
        "sempre", "nunca", "todo", "todos", "toda", "todas", "tudo", "nenhum", "nenhuma", "nada", "ninguém",
        "completamente", "totalmente", "absolutamente", "somente", "apenas", "só", "garante", "garantem",
        "jamais",
    },
    "es-ES": {
        "siempre", "nunca", "todo", "todos", "toda", "todas", "nada", "nadie", "ningún", "ninguna",
        "ninguno", "completamente", "totalmente", "absolutamente", "solo", "sólo", "únicamente",
        "garantiza", "garantizan", "jamás",
    },
    "fr-FR": {
        "toujours", "jamais", "tout", "tous", "toute", "toutes", "rien", "aucun", "aucune",
        "complètement", "totalement", "absolument", "seulement", "uniquement", "garantit", "garantissent",
    },
    "de-DE": {
        "immer", "nie", "niemals", "alle", "alles", "jeder", "jede", "jedes", "jeden", "nichts", "niemand",
        "kein", "keine", "vollständig", "völlig", "absolut", "nur", "ausschließlich", "garantiert",
    },
}

# "All of the above", "none of the above" and their kin, searched in an option.
ALL_OR_NONE = {
    "en-US": re.compile(
        r"\b(all|none|both|neither)\s+(of\s+)?(the\s+)?(above|previous|preceding|these|those)\b", re.I
    ),
    "pt-BR": re.compile(
        r"\b(todas|todos|nenhuma|nenhum|ambas|ambos)\b(\s+\w+){0,3}\s+(anteriores|acima)\b", re.I
    ),
    "es-ES": re.compile(
        r"\b(todas|todos|ninguna|ninguno|ambas|ambos)\b(\s+\w+){0,3}\s+(anteriores|de\s+arriba)\b", re.I
    ),
    "fr-FR": re.compile(
        r"\b(toutes|tous|aucune|aucun|les\s+deux)\b(\s+\w+){0,3}\s+"
        r"(ci-dessus|précédentes|précédents|précédente|précédent)\b"
        r"|\baucune\s+de\s+ces\s+(réponses|propositions)\b",
        re.I,
    ),
    "de-DE": re.compile(
        r"\b(alle|keine|keiner|beide)\b(\s+\w+){0,3}\s+(oben\s+genannten|obigen|vorherigen|vorangehenden)\b"
        r"|\b(alle|keine)\s+(der\s+)?(antworten|aussagen)\s+(sind\s+)?(richtig|falsch)\b",
        re.I,
    ),
}

# Function words, left out when looking for the words a stem and an option share.
STOPWORDS = {
    "en-US": set(
        """a an the and or but if then than that this these those there their them they what which who
        whom whose when where why how is are was were be been being am do does did done have has had
        having of to in on at by for with from into onto about over under after before between through
        during without within as so such not no yes can could should would will shall may might must
        your you yours our ours we us it its it's he she his her him i me my mine one ones more most
        other another some any each both either also just very too much many own same first best good
        when while upon here else instead way ways make makes made get gets use uses used has had""".split()
    ),
    "pt-BR": set(
        """a o as os um uma uns umas de do da dos das no na nos nas em ao aos à às por pelo pela pelos
        pelas para com sem sobre entre até após ante que quem qual quais quando onde como porque porquê
        se mas ou e nem não sim é são era foram ser estar está estão esta este estes estas isso isto
        aquilo esse essa esses essas seu sua seus suas você vocês ele ela eles elas nós meu minha nosso
        nossa muito muitos muita muitas mais menos cada outro outra outros outras mesmo mesma também já
        ainda melhor primeiro primeira deve devem pode podem fazer faz tem têm ter há foi seja sejam
        estava estavam tinha tinham será seria""".split()
    ),
    "es-ES": set(
        """a el la los las un una unos unas de del al en por para con sin sobre entre hasta tras ante
        que quien quién cual cuál cuales cuáles cuando cuándo donde dónde como cómo porque si mas pero
        o u y e ni no sí es son era fueron ser estar está están este esta estos estas eso esto aquello
        ese esa esos esas su sus tu tus usted ustedes él ella ellos ellas nosotros mi mis nuestro nuestra
        muy mucho muchos mucha muchas más menos cada otro otra otros otras mismo misma también ya aún
        mejor primero primera debe deben puede pueden hacer hace tiene tienen tener hay lo le les se
        he has ha hemos habéis han había habían sea sean será sería fue""".split()
    ),
    "fr-FR": set(
        """a à au aux le la les l un une des de du d en dans par pour avec sans sur sous entre vers chez
        que qu qui quoi quel quelle quels quelles quand où comment pourquoi si mais ou et ni ne pas non
        oui est sont était être avoir a ont ce cet cette ces ceci cela ça se sa son ses leur leurs votre
        vos vous il elle ils elles nous on je me mon ma mes notre nos très plus moins chaque autre
        autres même aussi déjà encore meilleur meilleure premier première doit doivent peut peuvent
        faire fait il y lui ai as avez avons ont suis es êtes sommes été était étaient sera serait
        avait avaient soit""".split()
    ),
    "de-DE": set(
        """der die das den dem des ein eine einen einem einer eines und oder aber wenn dann als dass
        daß was welche welcher welches wer wen wem wessen wann wo warum wie ist sind war waren sein
        werden wird wurde haben hat hatte von zu zum zur in im an am auf aus bei mit nach seit über
        unter vor zwischen durch für gegen ohne um nicht kein keine ja nein sie ihr ihre ihren ihrem
        ihrer er es wir uns man ich mich mein meine dies diese dieser dieses jene sehr mehr meist
        meisten jede jeder jedes andere anderen auch schon noch beste besten erste ersten erst sollte
        sollten soll kann können muss müssen machen macht gibt sich habe hast habt bin bist seid wäre
        würde würden wurden hatten ihnen ihm ihn euch dir dich mir""".split()
    ),
}

# Languages that write elided articles and pronouns joined by an apostrophe (l'exemple).
_ELIDING = {"fr-FR", "pt-BR", "es-ES", "de-DE"}

# Quoted text is named, not said: the rules look at the words around it, not inside it.
_QUOTED = re.compile(r"“[^”]*”|„[^“]*“|«[^»]*»|\"[^\"]*\"|‹[^›]*›|‚[^‘]*‘")
_WORD = re.compile(r"[^\W\d_]+(?:[’'][^\W\d_]+)*")


def without_quotes(text: str) -> str:
    """The text with every quoted passage replaced by a space."""
    return _QUOTED.sub(" ", text)


def words(text: str, language: str) -> list[str]:
    """The words of a text as written (letters only; apostrophes split elisions outside English)."""
    found = _WORD.findall(text)
    if language in _ELIDING:
        found = [part for word in found for part in re.split(r"[’']", word) if part]
    return found


def fold(word: str) -> str:
    """A word compared loosely: case-folded, without accents."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def is_negation(word: str, language: str) -> bool:
    lowered = word.casefold()
    if language == "en-US" and _CONTRACTED_NEGATION.search(lowered):
        return True
    return lowered in NEGATIONS[language]


def content_words(text: str, language: str) -> list[str]:
    """Folded words of four letters or more that are not function words."""
    stop = STOPWORDS[language]
    return [fold(word) for word in words(text, language) if len(word) >= 4 and word.casefold() not in stop]


def same_word(first: str, second: str) -> bool:
    """Two folded words are the same word: equal, or sharing a stem of five letters or more."""
    if first == second:
        return True
    if min(len(first), len(second)) < 5:
        return False
    common = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        common += 1
    return common >= 5 and common >= min(len(first), len(second)) - 3
