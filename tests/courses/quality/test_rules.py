"""
Every rule of the checker, through the whole report of a course document: a question (or quiz,
objective, chapter, lesson) that trips the rule and one that does not, in each of the five languages
where the rule depends on the language. The clean variant of each pair gets no finding at all.
"""

from pathlib import Path

import pytest

from courses import content, quality
from courses.quality import coverage, rules
from tests.support.fake_openai import QUIZ
from tests.support.quality_documents import (
    HARD_TO_READ,
    PLAIN_LESSON,
    course,
    filler_questions,
    objective,
    question,
)

LANGUAGES = ["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"]
QUIZ_EN = QUIZ["en-US"]


def quiz_with(language_id: str, tested: dict) -> list[dict]:
    """The question under test first (its answer at A), then three clean questions (answers at B, C, D)."""
    return [tested, *filler_questions(language_id)]


# code → language → (stem, options with the correct one first) that trips the rule, and the clean variant.
QUESTION_CASES = {
    "ALL_OR_NONE_OF_THE_ABOVE": {
        "en-US": (
            (
                "Which of these can a relational table hold?",
                [
                    "Rows of typed columns",
                    "Only loose text files",
                    "Images kept in memory",
                    "All of the above",
                ],
            ),
            (
                "Which of these can a relational table hold?",
                ["Rows of typed columns", "Loose text files", "Images kept in memory", "Running programs"],
            ),
        ),
        "pt-BR": (
            (
                "O que uma tabela relacional pode guardar?",
                [
                    "Linhas de colunas tipadas",
                    "Arquivos de texto soltos",
                    "Imagens mantidas na memória",
                    "Todas as anteriores",
                ],
            ),
            (
                "O que uma tabela relacional pode guardar?",
                [
                    "Linhas de colunas tipadas",
                    "Arquivos de texto soltos",
                    "Imagens mantidas na memória",
                    "Programas em execução",
                ],
            ),
        ),
        "es-ES": (
            (
                "¿Qué puede guardar una tabla relacional?",
                [
                    "Filas de columnas tipadas",
                    "Archivos de texto sueltos",
                    "Imágenes guardadas en memoria",
                    "Todas las anteriores",
                ],
            ),
            (
                "¿Qué puede guardar una tabla relacional?",
                [
                    "Filas de columnas tipadas",
                    "Archivos de texto sueltos",
                    "Imágenes guardadas en memoria",
                    "Programas en ejecución",
                ],
            ),
        ),
        "fr-FR": (
            (
                "Que peut contenir une table relationnelle ?",
                [
                    "Des lignes de colonnes typées",
                    "Des fichiers texte épars",
                    "Des images gardées en mémoire",
                    "Toutes les réponses ci-dessus",
                ],
            ),
            (
                "Que peut contenir une table relationnelle ?",
                [
                    "Des lignes de colonnes typées",
                    "Des fichiers texte épars",
                    "Des images gardées en mémoire",
                    "Des programmes en cours",
                ],
            ),
        ),
        "de-DE": (
            (
                "Was kann eine relationale Tabelle enthalten?",
                [
                    "Zeilen mit typisierten Spalten",
                    "Lose Textdateien auf der Platte",
                    "Bilder im Arbeitsspeicher",
                    "Alle oben genannten",
                ],
            ),
            (
                "Was kann eine relationale Tabelle enthalten?",
                [
                    "Zeilen mit typisierten Spalten",
                    "Lose Textdateien auf der Platte",
                    "Bilder im Arbeitsspeicher",
                    "Laufende Programme im Speicher",
                ],
            ),
        ),
    },
    "NEGATIVE_STEM": {
        "en-US": (
            (
                "Which of these is not a kind of join?",
                ["A merge sort", "An inner join", "A left join", "A cross join"],
            ),
            (
                "Which of these is NOT a kind of join?",
                ["A merge sort", "An inner join", "A left join", "A cross join"],
            ),
        ),
        "pt-BR": (
            (
                "Qual destas opções não é um tipo de junção?",
                ["Ordenação por mescla", "Junção interna", "Junção externa completa", "Junção cruzada"],
            ),
            (
                "Qual destas opções NÃO é um tipo de junção?",
                ["Ordenação por mescla", "Junção interna", "Junção externa completa", "Junção cruzada"],
            ),
        ),
        "es-ES": (
            (
                "¿Cuál de estas opciones no es un tipo de unión?",
                ["Ordenación por mezcla", "Unión interna", "Unión por la izquierda", "Unión cruzada"],
            ),
            (
                "¿Cuál de estas opciones NO es un tipo de unión?",
                ["Ordenación por mezcla", "Unión interna", "Unión por la izquierda", "Unión cruzada"],
            ),
        ),
        "fr-FR": (
            (
                "Laquelle de ces options n'est pas un type de jointure ?",
                ["Le tri par fusion", "La jointure interne", "La jointure à gauche", "La jointure croisée"],
            ),
            (
                "Laquelle de ces options n'est PAS un type de jointure ?",
                ["Le tri par fusion", "La jointure interne", "La jointure à gauche", "La jointure croisée"],
            ),
        ),
        "de-DE": (
            (
                "Welche dieser Optionen ist kein Join-Typ?",
                ["Sortieren durch Mischen", "Ein innerer Join", "Ein linker äußerer Join", "Ein Kreuz-Join"],
            ),
            (
                "Welche dieser Optionen ist KEIN Join-Typ?",
                ["Sortieren durch Mischen", "Ein innerer Join", "Ein linker äußerer Join", "Ein Kreuz-Join"],
            ),
        ),
    },
    "ABSOLUTES_IN_DISTRACTORS": {
        "en-US": (
            (
                "How does an index change a lookup by key?",
                [
                    "It usually makes it faster",
                    "It always makes it slower",
                    "It turns it into a full scan",
                    "It locks the whole table",
                ],
            ),
            (
                "How does an index change a lookup by key?",
                [
                    "It usually makes it faster",
                    "It often makes it slower",
                    "It turns it into a full scan",
                    "It locks the whole table",
                ],
            ),
        ),
        "pt-BR": (
            (
                "Como um índice muda uma busca por chave?",
                [
                    "Costuma deixá-la mais rápida",
                    "Sempre a deixa mais lenta",
                    "Transforma-a numa varredura total",
                    "Bloqueia a tabela inteira",
                ],
            ),
            (
                "Como um índice muda uma busca por chave?",
                [
                    "Costuma deixá-la mais rápida",
                    "Muitas vezes a deixa lenta",
                    "Transforma-a numa varredura total",
                    "Bloqueia a tabela inteira",
                ],
            ),
        ),
        "es-ES": (
            (
                "¿Cómo cambia un índice una búsqueda por clave?",
                [
                    "Suele hacerla más rápida",
                    "Siempre la hace más lenta",
                    "La convierte en un recorrido",
                    "Bloquea la tabla entera",
                ],
            ),
            (
                "¿Cómo cambia un índice una búsqueda por clave?",
                [
                    "Suele hacerla más rápida",
                    "A menudo la hace más lenta",
                    "La convierte en un recorrido",
                    "Bloquea la tabla entera",
                ],
            ),
        ),
        "fr-FR": (
            (
                "Comment un index change-t-il une recherche par clé ?",
                [
                    "Il la rend en général plus rapide",
                    "Il la rend toujours plus lente",
                    "Il la transforme en parcours complet",
                    "Il verrouille la table entière",
                ],
            ),
            (
                "Comment un index change-t-il une recherche par clé ?",
                [
                    "Il la rend en général plus rapide",
                    "Il la rend souvent plus lente",
                    "Il la transforme en parcours complet",
                    "Il verrouille la table entière",
                ],
            ),
        ),
        "de-DE": (
            (
                "Wie verändert ein Index eine Suche nach Schlüssel?",
                [
                    "Er macht sie meist schneller",
                    "Er macht sie immer langsamer",
                    "Er macht daraus einen Scan",
                    "Er sperrt die ganze Tabelle dafür",
                ],
            ),
            (
                "Wie verändert ein Index eine Suche nach Schlüssel?",
                [
                    "Er macht sie meist schneller",
                    "Er macht sie oft langsamer",
                    "Er macht daraus einen Scan",
                    "Er sperrt die ganze Tabelle dafür",
                ],
            ),
        ),
    },
    "GRAMMATICAL_CUE": {
        "en-US": (
            (
                "A table with one row per order is usually called an",
                ["order table", "fact table", "lookup table", "staging table"],
            ),
            (
                "A table with one row per sale is usually called a",
                ["fact table", "lookup table", "staging table", "dimension table"],
            ),
        ),
        "pt-BR": (
            (
                "Uma consulta que combina duas tabelas pelas chaves é uma",
                ["junção", "projeção", "agrupamento", "ordenação"],
            ),
            (
                "Uma consulta que combina duas tabelas pelas chaves é uma",
                ["junção", "projeção", "seleção", "ordenação"],
            ),
        ),
        "es-ES": (
            (
                "Una consulta que combina dos tablas por sus claves es una",
                ["unión", "proyección", "agrupamiento", "ordenación"],
            ),
            (
                "Una consulta que combina dos tablas por sus claves es una",
                ["unión", "proyección", "selección", "ordenación"],
            ),
        ),
        "fr-FR": (
            (
                "Une requête qui combine deux tables par leurs clés est une",
                ["jointure", "projection", "regroupement", "sélection"],
            ),
            (
                "Une requête qui combine deux tables par leurs clés est une",
                ["jointure", "projection", "union", "sélection"],
            ),
        ),
        "de-DE": (
            (
                "Eine Abfrage, die zwei Tabellen über Schlüssel kombiniert, ist ein",
                ["Join", "Index", "Verknüpfung", "Cursor"],
            ),
            (
                "Eine Abfrage, die zwei Tabellen über Schlüssel kombiniert, ist ein",
                ["Join", "Index", "View", "Cursor"],
            ),
        ),
    },
    "STEM_WORD_IN_ANSWER": {
        "en-US": (
            (
                "Which clause filters grouped rows?",
                [
                    "HAVING filters them",
                    "WHERE, before grouping",
                    "ORDER BY, at the end",
                    "LIMIT, on the output",
                ],
            ),
            (
                "Which clause filters grouped rows?",
                [
                    "HAVING, after grouping",
                    "WHERE, before grouping",
                    "ORDER BY, at the end",
                    "LIMIT, on the output",
                ],
            ),
        ),
        "pt-BR": (
            (
                "Que cláusula filtra linhas agrupadas?",
                ["HAVING as filtra", "WHERE, antes do grupo", "ORDER BY, no final", "LIMIT, na saída"],
            ),
            (
                "Que cláusula filtra linhas agrupadas?",
                ["HAVING, após o grupo", "WHERE, antes do grupo", "ORDER BY, no final", "LIMIT, na saída"],
            ),
        ),
        "es-ES": (
            (
                "¿Qué cláusula filtra filas agrupadas?",
                ["HAVING las filtra", "WHERE, antes del grupo", "ORDER BY, al final", "LIMIT, en la salida"],
            ),
            (
                "¿Qué cláusula filtra filas agrupadas?",
                [
                    "HAVING, tras el grupo",
                    "WHERE, antes del grupo",
                    "ORDER BY, al final",
                    "LIMIT, en la salida",
                ],
            ),
        ),
        "fr-FR": (
            (
                "Quelle clause filtre les lignes regroupées ?",
                [
                    "HAVING les filtre",
                    "WHERE, avant le groupe",
                    "ORDER BY, à la fin",
                    "LIMIT, appliquée sur la sortie",
                ],
            ),
            (
                "Quelle clause filtre les lignes regroupées ?",
                [
                    "HAVING, après le groupe",
                    "WHERE, avant le groupe",
                    "ORDER BY, à la fin",
                    "LIMIT, appliquée sur la sortie",
                ],
            ),
        ),
        "de-DE": (
            (
                "Welche Klausel filtert gruppierte Zeilen?",
                [
                    "HAVING filtert sie",
                    "WHERE, vor der Gruppe",
                    "ORDER BY, am Ende",
                    "LIMIT, bei der finalen Ausgabe",
                ],
            ),
            (
                "Welche Klausel filtert gruppierte Zeilen?",
                [
                    "HAVING, nach der Gruppe",
                    "WHERE, vor der Gruppe",
                    "ORDER BY, am Ende",
                    "LIMIT, bei der finalen Ausgabe",
                ],
            ),
        ),
    },
    "OPTIONS_SAY_THE_SAME": {
        "en-US": (
            (
                "What should you do before you trust a query?",
                [
                    "Test it on known data",
                    "Check the results carefully",
                    "Carefully check the results",
                    "Ask for a second opinion",
                ],
            ),
            (
                "What should you do before you trust a query?",
                [
                    "Test it on known data",
                    "Check the results carefully",
                    "Read the plan it produces",
                    "Ask for a second opinion",
                ],
            ),
        ),
        "pt-BR": (
            (
                "O que fazer antes de confiar numa consulta?",
                [
                    "Testá-la com dados conhecidos",
                    "Conferir os resultados com cuidado",
                    "Com cuidado, conferir os resultados",
                    "Pedir uma segunda opinião",
                ],
            ),
            (
                "O que fazer antes de confiar numa consulta?",
                [
                    "Testá-la com dados conhecidos",
                    "Conferir os resultados com cuidado",
                    "Ler o plano que ela produz",
                    "Pedir uma segunda opinião",
                ],
            ),
        ),
        "es-ES": (
            (
                "¿Qué haces antes de fiarte de una consulta?",
                [
                    "Probarla con datos conocidos",
                    "Revisar los resultados con cuidado",
                    "Con cuidado, revisar los resultados",
                    "Pedir una segunda opinión",
                ],
            ),
            (
                "¿Qué haces antes de fiarte de una consulta?",
                [
                    "Probarla con datos conocidos",
                    "Revisar los resultados con cuidado",
                    "Leer el plan que produce",
                    "Pedir una segunda opinión",
                ],
            ),
        ),
        "fr-FR": (
            (
                "Que faire avant de se fier à une requête ?",
                [
                    "La tester sur des données connues",
                    "Vérifier les résultats avec soin",
                    "Avec soin, vérifier les résultats",
                    "Demander un second avis à un collègue",
                ],
            ),
            (
                "Que faire avant de se fier à une requête ?",
                [
                    "La tester sur des données connues",
                    "Vérifier les résultats avec soin",
                    "Lire le plan qu'elle produit",
                    "Demander un second avis à un collègue",
                ],
            ),
        ),
        "de-DE": (
            (
                "Was tun Sie, bevor Sie einer Abfrage vertrauen?",
                [
                    "Sie an bekannten Daten testen",
                    "Die Ergebnisse sorgfältig prüfen",
                    "Sorgfältig die Ergebnisse prüfen",
                    "Eine zweite Meinung einholen",
                ],
            ),
            (
                "Was tun Sie, bevor Sie einer Abfrage vertrauen?",
                [
                    "Sie an bekannten Daten testen",
                    "Die Ergebnisse sorgfältig prüfen",
                    "Den erzeugten Plan lesen",
                    "Eine zweite Meinung einholen",
                ],
            ),
        ),
    },
    # Rules that do not depend on the language: English only.
    "ANSWER_ONLY_LONGEST": {
        "en-US": (
            (
                "What does a primary key guarantee?",
                [
                    "Each row can be told apart from every other",
                    "Rows are sorted by date",
                    "Tables load faster",
                    "Columns can hold text",
                ],
            ),
            (
                "What does a primary key guarantee?",
                [
                    "Each row can be told apart",
                    "Rows come back sorted by date",
                    "Tables load from disk faster",
                    "Columns may hold any text",
                ],
            ),
        ),
    },
    "NEAR_DUPLICATE_OPTIONS": {
        "en-US": (
            (
                "Which command removes rows from a table?",
                [
                    "DELETE with a WHERE clause",
                    "DROP the whole table",
                    "Delete, with a where clause!",
                    "ALTER the table schema",
                ],
            ),
            (
                "Which command removes rows from a table?",
                [
                    "DELETE with a WHERE clause",
                    "DROP the whole table",
                    "UPDATE the chosen rows in place",
                    "ALTER the table schema",
                ],
            ),
        ),
    },
    "UNEVEN_OPTION_LENGTHS": {
        "en-US": (
            (
                "Which clause sorts the result?",
                ["ORDER BY", "GROUP BY with a HAVING clause on top of it", "WHERE", "LIMIT"],
            ),
            ("Which clause sorts the result?", ["ORDER BY", "GROUP BY", "WHERE", "LIMIT"]),
        ),
    },
}
LANGUAGE_SPECIFIC = {code for code, rule in rules.RULES.items() if rule.language_specific}


def _case_ids():
    return [(code, language) for code, languages in QUESTION_CASES.items() for language in languages]


@pytest.mark.parametrize("code, language_id", _case_ids(), ids=lambda value: value)
def test_a_question_trips_the_rule_and_its_clean_variant_trips_nothing(code, language_id):
    (stem, options), (clean_stem, clean_options) = QUESTION_CASES[code][language_id]

    flawed = quality.report_for(
        course(language_id=language_id, questions=quiz_with(language_id, question(stem, options)))
    )
    clean = quality.report_for(
        course(language_id=language_id, questions=quiz_with(language_id, question(clean_stem, clean_options)))
    )

    assert code in [item.code for item in flawed.findings if item.where == "/assessment/questions/0"]
    assert clean.findings == ()


def test_every_question_rule_has_cases_in_every_language_it_depends_on():
    question_rules = {code for code, rule in rules.RULES.items() if rule.part == "question"} - {
        "QUESTION_WITHOUT_OBJECTIVE",  # about the course's objectives: below
        "MATTER_IN_QUESTION",  # about a course built from documents: below
        "QUESTIONS_SHARE_SENTENCE",  # about questions citing documents: below
    }

    assert set(QUESTION_CASES) == question_rules
    for code in question_rules & LANGUAGE_SPECIFIC:
        assert sorted(QUESTION_CASES[code]) == sorted(LANGUAGES), code


@pytest.mark.parametrize("language_id", LANGUAGES)
def test_emphasising_the_negative_word_is_the_mend_for_a_negative_stem(language_id):
    (stem, _), (emphasised, _) = QUESTION_CASES["NEGATIVE_STEM"][language_id]

    assert rules.emphasise_negations(stem, language_id) == emphasised
    assert rules.emphasise_negations(emphasised, language_id) == emphasised


def test_emphasising_leaves_quoted_words_alone():
    stem = "Which statement about “Why not SQL” is NOT true?"

    assert rules.emphasise_negations("Which statement about “Why not SQL” is not true?", "en-US") == stem


@pytest.mark.parametrize(
    "options, near",
    [
        (["DELETE with a WHERE clause", "Delete, with a where clause!", "DROP it", "ALTER it"], [(0, 1)]),
        (["Le café noir.", "le cafe noir", "Le thé", "L'eau"], [(0, 1)]),
        (["f(x)", "f (x)", "x=1", "x = 1"], [(0, 1), (2, 3)]),
        # What an option says may be a symbol, or one word among the same others.
        (["+", "-", "*", "/"], []),
        (["C", "C++", "C#", "Java"], []),
        (["x < y", "x > y", "x = y", "x != y"], []),
        (["[1, 2]", "(1, 2)", "{1, 2}", "1, 2"], []),
        (["5!", "5", "'5'", "!5"], []),
        (["f()", "f", "list()", "list[]"], []),
        (["All rows of the left table", "All rows of the right table", "Only matching rows", "No rows"], []),
        (["It increases", "It decreases", "It stays the same", "It doubles"], []),
    ],
)
def test_near_duplicates_are_the_same_words_not_options_that_differ_by_a_word_or_a_symbol(options, near):
    found = rules.check_question(
        content.Question.model_validate(question("Which one is right?", options)), language="en-US", where="q"
    )

    flagged = [finding.message for finding in found if finding.code == "NEAR_DUPLICATE_OPTIONS"]
    message = "Options {} and {} are nearly the same text: make every option distinct."
    assert flagged == [message.format("ABCD"[a], "ABCD"[b]) for a, b in near]


# --- the quiz as a whole ---------------------------------------------------------------------------


def test_correct_option_only_longest_in_more_questions_than_chance_trips_the_length_pattern():
    longest = [
        question(
            "Which keyword starts a query?", ["SELECT, then the columns you want", "FROM", "WHERE", "JOIN"]
        ),
        question(
            "Which keyword names the tables?", ["UPDATE", "FROM, then the tables to read", "LIMIT", "WITH"], 1
        ),
        question(
            "Which keyword keeps matching rows?", ["ORDER", "GROUP", "WHERE, then a condition", "UNION"], 2
        ),
        question("Which keyword sorts rows?", ["CASE", "CAST", "NULL", "ORDER BY, then the sort keys"], 3),
    ]
    at_chance = [
        longest[0],
        *[
            question(prompt["prompt"], [option[:4] for option in prompt["options"]], prompt["correctIndex"])
            for prompt in longest[1:]
        ],
    ]

    flawed = quality.report_for(course(questions=longest))
    fine = quality.report_for(course(questions=at_chance))

    pattern = [item for item in flawed.findings if item.code == "ANSWER_LENGTH_PATTERN"]
    assert [(item.where, item.severity) for item in pattern] == [("/assessment", "high")]
    assert pattern[0].message == (
        "The correct option is the only longest in 4 of 4 questions (questions 1, 2, 3, 4); chance gives 1.0. "
        "A learner who always picks the longest option scores 100%."
    )
    assert "ANSWER_LENGTH_PATTERN" not in [item.code for item in fine.findings]
    assert [item.code for item in fine.findings if item.where == "/assessment/questions/0"] == [
        "ANSWER_ONLY_LONGEST",
        "UNEVEN_OPTION_LENGTHS",
    ]


def test_answers_piled_on_one_position_trip_the_position_rule():
    piled = [question(prompt, list(options)) for prompt, options in QUIZ_EN[:3]]
    spread = [
        question(prompt, list(options[index:]) + list(options[:index]), (4 - index) % 4)
        for index, (prompt, options) in enumerate(QUIZ_EN[:3])
    ]

    flawed = quality.report_for(course(questions=piled))
    fine = quality.report_for(course(questions=spread))

    assert [(item.code, item.where, item.message) for item in flawed.findings] == [
        (
            "ANSWER_POSITION_PILED",
            "/assessment",
            "3 of 3 correct answers are option A; chance gives 0.8. A learner who always picks A scores 100%.",
        )
    ]
    assert fine.findings == ()


# --- objectives, chapters and lessons --------------------------------------------------------------

VAGUE = {
    "en-US": "understand",
    "pt-BR": "entender",
    "es-ES": "comprender",
    "fr-FR": "comprendre",
    "de-DE": "verstehen",
}
UNLISTED = {
    "en-US": "master",
    "pt-BR": "dominar",
    "es-ES": "dominar",
    "fr-FR": "maîtriser",
    "de-DE": "beherrschen",
}
DESIGN = {
    "en-US": "design",
    "pt-BR": "projetar",
    "es-ES": "diseñar",
    "fr-FR": "concevoir",
    "de-DE": "entwerfen",
}


def codes_at(report, where: str) -> list[str]:
    return [item.code for item in report.findings if item.where == where]


@pytest.mark.parametrize("language_id", LANGUAGES)
def test_a_vague_verb_trips_the_vague_verb_rule(language_id):
    vague = quality.report_for(
        course(language_id=language_id, objectives=[objective(language_id, verb=VAGUE[language_id])])
    )
    measurable = quality.report_for(course(language_id=language_id))

    assert codes_at(vague, "/chapters/0/objectives/0") == ["OBJECTIVE_VERB_VAGUE"]
    assert measurable.findings == ()


@pytest.mark.parametrize("language_id", LANGUAGES)
def test_a_verb_missing_from_our_table_trips_the_unlisted_verb_rule(language_id):
    unlisted = quality.report_for(
        course(
            language_id=language_id,
            objectives=[objective(language_id, verb=UNLISTED[language_id], level="apply")],
        )
    )

    assert codes_at(unlisted, "/chapters/0/objectives/0") == ["OBJECTIVE_VERB_UNLISTED"]
    assert unlisted.objectives[0].bloom_level == "apply"  # the document's word, reported as it is


@pytest.mark.parametrize("language_id", LANGUAGES)
def test_a_level_other_than_our_tables_trips_the_level_rule(language_id):
    mismatched = quality.report_for(
        course(
            language_id=language_id,
            objectives=[objective(language_id, verb=DESIGN[language_id], level="remember")],
        )
    )
    matching = quality.report_for(
        course(
            language_id=language_id,
            objectives=[objective(language_id, verb=DESIGN[language_id], level="create")],
        )
    )

    assert codes_at(mismatched, "/chapters/0/objectives/0") == ["OBJECTIVE_LEVEL_MISMATCH"]
    assert matching.findings == ()


def test_an_objective_no_question_tests_is_untested_and_listed():
    untested = quality.report_for(course(chapters=2))
    filler = filler_questions("en-US")
    tested = quality.report_for(
        course(chapters=2, questions=[*filler[:2], {**filler[2], "objectiveId": "2.1"}])
    )

    assert codes_at(untested, "/chapters/1/objectives/0") == ["OBJECTIVE_UNTESTED"]
    assert untested.untested_objectives == ("2.1",)
    assert tested.untested_objectives == ()
    assert tested.findings == ()


def test_without_an_assessment_every_objective_is_untested_though_no_quiz_is_there_to_mend():
    report = quality.report_for(course(chapters=2, assessment=False))

    assert report.untested_objectives == ("1.1", "2.1")
    assert [objective.questions for objective in report.objectives] == [(), ()]
    assert report.summary.objectives_tested == 0
    assert report.findings == ()


def test_a_question_naming_no_objective_trips_the_rule_in_a_course_with_objectives():
    filler = filler_questions("en-US")

    report = quality.report_for(course(questions=[{**filler[0], "objectiveId": None}, *filler[1:]]))

    assert codes_at(report, "/assessment/questions/0") == ["QUESTION_WITHOUT_OBJECTIVE"]
    assert [item.code for item in report.findings] == ["QUESTION_WITHOUT_OBJECTIVE"]


def test_a_chapter_without_objectives_trips_the_rule_and_its_questions_need_none():
    questions = [{**item, "objectiveId": None} for item in filler_questions("en-US")]

    report = quality.report_for(course(objectives=[], questions=questions))

    assert [(item.code, item.where) for item in report.findings] == [
        ("CHAPTER_WITHOUT_OBJECTIVES", "/chapters/0")
    ]


@pytest.mark.parametrize("language_id", LANGUAGES)
def test_a_lesson_very_difficult_to_read_in_its_language_trips_the_readability_rule(language_id):
    hard = quality.report_for(
        course(language_id=language_id, lessons=[PLAIN_LESSON[language_id], HARD_TO_READ[language_id]])
    )

    assert codes_at(hard, "/chapters/0/lessons/1") == ["LESSON_HARD_TO_READ"]
    assert codes_at(hard, "/chapters/0/lessons/0") == []
    assert hard.readability[1].readability.band == "very-difficult"
    assert hard.readability[0].readability.score >= 30


SOURCES = [
    {"id": f"src_{letter * 22}", "name": f"{letter}.pdf", "title": None, "mediaType": "application/pdf", "url": None,
     "deleted": False}
    for letter in "ab"
]


def cited(body: str, source: int = 0) -> dict:
    """A lesson of `body` citing a passage of the source at `source`."""
    quote = body.split(".")[0]
    return {"title": "Lesson", "body": body, "citations": [
        {"sourceId": SOURCES[source]["id"], "passageId": f"psg_{'p' * 22}", "page": 1, "quote": quote}
    ]}


def from_documents(chapters: list[tuple[str, list[dict]]], questions: list[dict] | None = None) -> content.CourseContent:
    """A course built from the two SOURCES: chapters of (title, lessons), each with an objective, and
    an assessment of `questions` if any."""
    document = course(chapters=len(chapters), assessment=bool(questions), questions=questions).model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    document["sources"] = SOURCES
    for chapter, (title, lessons) in zip(document["chapters"], chapters, strict=True):
        chapter.update(title=title, lessons=lessons)
    return content.CourseContent.model_validate(document)


LONG_ENOUGH = " ".join(["A join matches the rows of two tables by a key they share."] * 6)


def test_chapters_and_lessons_made_of_a_documents_matter_trip_the_matter_rules():
    index = "asn1_array2tree . . . . . . . 9\nasn1_bit_der . . . . . . . 19\nasn1_create_element . . . . . . 8"
    flawed = quality.report_for(from_documents([
        ("Joins", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)]),
        ("GNU Free Documentation License", [cited(LONG_ENOUGH), {"title": "Lesson", "body": index}]),
    ]))
    clean = quality.report_for(from_documents([
        ("Joins", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)]),
        ("Choosing a license for your project", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)]),
    ]))

    assert [(item.code, item.where) for item in flawed.findings] == [
        ("MATTER_IN_CHAPTER", "/chapters/1"),
        ("MATTER_IN_LESSON", "/chapters/1/lessons/1"),
    ]
    assert flawed.summary.score == 100 - 2 * 15
    assert clean.findings == ()
    # A course of the client's own outline may well have a chapter called "Index": it has no matter.
    outlined = course(chapters=2, assessment=False).model_dump(mode="json", by_alias=True, exclude_none=True)
    outlined["chapters"][1]["title"] = "Index"
    assert quality.report_for(content.CourseContent.model_validate(outlined)).findings == ()


def test_a_question_made_of_an_index_trips_the_matter_rule_in_a_course_from_documents():
    joins = [("Joins", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)])]
    leaders = question("Complete: FDL, GNU Free _____ License . . . . . . . .", ["Docs", "Code", "Data", "Text"])
    plain = question("Which document license covers the manual?", ["The GNU FDL", "The GNU GPL", "The MIT one", "The BSD one"])

    flawed = quality.report_for(from_documents(joins, questions=quiz_with("en-US", leaders)))
    clean = quality.report_for(from_documents(joins, questions=quiz_with("en-US", plain)))
    without_documents = quality.report_for(course(questions=quiz_with("en-US", leaders)))

    assert codes_at(flawed, "/assessment/questions/0") == ["MATTER_IN_QUESTION"]
    assert clean.findings == () and without_documents.findings == ()


def test_a_course_from_documents_with_shared_titles_mixed_sources_and_scraps_trips_the_structure_rules():
    flawed = quality.report_for(from_documents([
        ("Introduction", [cited(LONG_ENOUGH, source=0), cited(LONG_ENOUGH, source=1)]),
        ("Introduction", [cited(LONG_ENOUGH, source=1), cited("A join matches rows. Keys decide.", source=1)]),
    ]))
    clean = quality.report_for(from_documents([
        ("Introduction (a)", [cited(LONG_ENOUGH, source=0), cited(LONG_ENOUGH, source=0)]),
        ("Introduction (b)", [cited(LONG_ENOUGH, source=1), cited(LONG_ENOUGH, source=1)]),
    ]))

    assert [(item.code, item.where) for item in flawed.findings] == [
        ("DUPLICATE_CHAPTER_TITLE", "/chapters/0"),
        ("CHAPTER_SPANS_SOURCES", "/chapters/0"),
        ("DUPLICATE_CHAPTER_TITLE", "/chapters/1"),
        ("LESSON_SCRAP", "/chapters/1/lessons/1"),
    ]
    assert clean.findings == ()


def citing(item: dict, quote: str) -> dict:
    """The question citing `quote` in the first source's passage."""
    return {**item, "citations": [{"sourceId": SOURCES[0]["id"], "passageId": f"psg_{'p' * 22}", "page": 1, "quote": quote}]}


def test_questions_made_of_one_sentence_or_offering_one_distractor_again_and_again_trip_the_quiz_rules():
    joins = [("Joins", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)])]
    sentence = "A join matches the rows of two tables by a key they share."
    terms = ["matches", "rows", "tables", "key", "share", "join"]
    flawed_questions = [
        citing(question(f"Which term completes: “{sentence.replace(term, '_____')}”", [term, "index", "cursor", "schema"], correct_index=0), sentence)
        for term in terms[:4]
    ]
    clean_questions = [
        citing(question(f"Which term completes sentence {number}?", [term, f"option{number}a", f"option{number}b", f"option{number}c"]), f"Sentence {number} of the handbook says {term}.")
        for number, term in enumerate(terms[:4])
    ]

    def quiz_of(questions: list[dict]) -> content.CourseContent:
        # The quiz of a course with an assessment, whose questions cite its sources.
        placeholder = [question(f"Placeholder {number}?", ["a", "b", "c", "d"]) for number in range(3)]
        document = from_documents(joins, questions=placeholder).model_dump(mode="json", by_alias=True, exclude_none=True)
        document["assessment"]["questions"] = questions
        return content.CourseContent.model_validate(document)

    flawed = quality.report_for(quiz_of(flawed_questions))
    clean = quality.report_for(quiz_of(clean_questions))

    tested = {"QUESTIONS_SHARE_SENTENCE", "DISTRACTOR_RECURS"}
    assert [(item.code, item.where) for item in flawed.findings if item.code in tested] == [
        ("QUESTIONS_SHARE_SENTENCE", "/assessment/questions/1"),
        ("QUESTIONS_SHARE_SENTENCE", "/assessment/questions/2"),
        ("QUESTIONS_SHARE_SENTENCE", "/assessment/questions/3"),
        ("DISTRACTOR_RECURS", "/assessment"),
        ("DISTRACTOR_RECURS", "/assessment"),
        ("DISTRACTOR_RECURS", "/assessment"),
    ]
    recurring = [item.message for item in flawed.findings if item.code == "DISTRACTOR_RECURS"]
    assert recurring[0].startswith("“index” is a wrong option in 4 questions (1, 2, 3, 4)")
    assert [item.code for item in clean.findings if item.code in tested] == []


def test_numbered_titles_and_a_source_titled_by_its_first_heading_trip_the_title_rules():
    numbered = from_documents([
        ("1. Introduction", [{**cited(LONG_ENOUGH), "title": "1.1 Version"}, cited(LONG_ENOUGH)]),
        ("Joins", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)]),
    ]).model_dump(mode="json", by_alias=True, exclude_none=True)
    numbered["sources"][0]["title"] = "1. Introduction"
    clean = from_documents([
        ("Introduction", [{**cited(LONG_ENOUGH), "title": "Version"}, cited(LONG_ENOUGH)]),
        ("Joins in practice", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)]),
    ]).model_dump(mode="json", by_alias=True, exclude_none=True)
    clean["sources"][0]["title"] = "Shared MIME-info Database"

    flawed = quality.report_for(content.CourseContent.model_validate(numbered))

    assert [(item.code, item.where) for item in flawed.findings] == [
        ("NUMBERED_TITLE", "/chapters/0"),
        ("NUMBERED_TITLE", "/chapters/0/lessons/0"),
        ("SOURCE_TITLED_BY_HEADING", "/sources/0"),
    ]
    assert quality.report_for(content.CourseContent.model_validate(clean)).findings == ()


def test_a_course_drawing_on_few_of_its_sources_sections_trips_the_coverage_rule_naming_what_it_leaves_out():
    passage = f"psg_{'p' * 22}"
    sections = tuple(
        coverage.Section(source_id=SOURCES[0]["id"], title=title, passage_ids=frozenset({identifier}), words=500)
        for title, identifier in [("2.1. Directory layout", passage), *((f"2.{number}. Part {number}", f"psg_{number:022d}") for number in range(2, 9))]
    )
    course_ = from_documents([("Unified system", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)])])

    thin = quality.report_for(course_, sections=sections)
    whole = quality.report_for(course_, sections=sections[:1])

    assert [(item.code, item.where) for item in thin.findings] == [("THIN_COVERAGE", "/sources/0")]
    assert thin.findings[0].message == (
        "The course draws on 1 of the source's 8 sections; it leaves out “2.2. Part 2”, “2.3. Part 3”, "
        "“2.4. Part 4”, “2.5. Part 5”, “2.6. Part 6” and 2 more."
    )
    assert thin.summary.score == 95
    assert whole.findings == ()


def test_a_short_lesson_is_a_scrap_only_when_the_sections_it_is_drawn_from_hold_more():
    short = "A join matches rows. Keys decide."
    course_ = from_documents([("Joins", [cited(LONG_ENOUGH), cited(short)])])
    passage = {f"psg_{'p' * 22}"}

    def section(words: int) -> tuple:
        return (coverage.Section(source_id=SOURCES[0]["id"], title="Joins", passage_ids=frozenset(passage), words=words),)

    assert codes_at(quality.report_for(course_), "/chapters/0/lessons/1") == ["LESSON_SCRAP"]
    assert codes_at(quality.report_for(course_, sections=section(400)), "/chapters/0/lessons/1") == ["LESSON_SCRAP"]
    assert codes_at(quality.report_for(course_, sections=section(5)), "/chapters/0/lessons/1") == []


def test_a_course_built_with_every_flaw_a_trainer_found_in_one_from_two_manuals_scores_low_naming_each():
    # What a course from the MIME specification and libtasn1's manual once was: the licence and the
    # index as chapters, a chapter over both manuals, two "1. Introduction", a body squeezed into a
    # scrap, a quiz blanking one sentence twice with the same distractors, sources titled by their
    # first heading, most sections left out.
    index = "asn1_array2tree . . . . . . . 9\nasn1_bit_der . . . . . . . 19\nasn1_create_element . . . . . . 8"
    sentence = "The MIME database does not store user preferences."
    document = from_documents([
        ("1. Introduction", [cited(LONG_ENOUGH, source=0), cited(LONG_ENOUGH, source=1)]),
        ("1. Introduction", [cited(LONG_ENOUGH, source=1), cited("The spec is short. It is version 0.21.", source=1)]),
        ("GNU Free Documentation License", [cited(LONG_ENOUGH, source=1), {"title": "Concept Index", "body": index}]),
    ], questions=[question(f"Placeholder {number}?", ["a", "b", "c", "d"]) for number in range(3)]).model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    document["assessment"]["questions"] = [
        citing(question(f"Complete: “{sentence.replace(word, '_____')}”", [word, "element", "License", "version"]), sentence)
        for word in ("database", "preferences", "store")
    ] + [citing(question("Complete: FDL, GNU Free _____ License . . . . . . . .", ["Documentation", "element", "License", "version"]), "FDL")]
    for source in document["sources"]:
        source["title"] = "1. Introduction"
    course_ = content.CourseContent.model_validate(document)
    sections = tuple(
        coverage.Section(source_id=SOURCES[0]["id"], title=f"2.{number}. Part", passage_ids=frozenset({f"psg_{number:022d}"}), words=400)
        for number in range(1, 18)
    )

    flawed = quality.report_for(course_, sections=sections)

    assert {
        "MATTER_IN_CHAPTER", "MATTER_IN_LESSON", "MATTER_IN_QUESTION", "CHAPTER_SPANS_SOURCES",
        "DUPLICATE_CHAPTER_TITLE", "NUMBERED_TITLE", "LESSON_SCRAP", "THIN_COVERAGE",
        "QUESTIONS_SHARE_SENTENCE", "DISTRACTOR_RECURS", "SOURCE_TITLED_BY_HEADING",
    } <= {item.code for item in flawed.findings}
    assert flawed.summary.score == 0


# --- what a finding names --------------------------------------------------------------------------


def test_a_finding_names_its_chapter_and_lesson_by_title_and_its_source_by_id_and_title():
    # A pointer counts from 0: /chapters/0/lessons/0 is lesson 1.1 on the page.
    document = from_documents([
        ("1. Introduction", [{**cited(LONG_ENOUGH), "title": "1.1 Version"}, cited(LONG_ENOUGH)]),
        ("Joins", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)]),
    ]).model_dump(mode="json", by_alias=True, exclude_none=True)
    document["sources"][0]["title"] = "1. Introduction"

    report = quality.report_for(content.CourseContent.model_validate(document))

    assert [(item.where, item.part_id, item.part_title) for item in report.findings] == [
        ("/chapters/0", None, "1. Introduction"),
        ("/chapters/0/lessons/0", None, "1.1 Version"),
        ("/sources/0", SOURCES[0]["id"], "1. Introduction"),
    ]


def test_a_source_without_a_title_is_named_by_its_name():
    sections = tuple(
        coverage.Section(source_id=SOURCES[0]["id"], title=f"Part {number}", passage_ids=frozenset({f"psg_{number:022d}"}), words=500)
        for number in range(1, 5)
    )

    report = quality.report_for(from_documents([("Joins", [cited(LONG_ENOUGH), cited(LONG_ENOUGH)])]), sections=sections)

    assert [(item.code, item.part_id, item.part_title) for item in report.findings] == [
        ("THIN_COVERAGE", SOURCES[0]["id"], "a.pdf")
    ]


def test_a_finding_names_its_question_by_its_stem_its_objective_by_id_and_statement_and_the_quiz_by_nothing():
    long_stem = (
        "Which of these clauses, written after the FROM clause of a SELECT statement that reads two tables, "
        "is not a join?"
    )
    piled = [question(prompt, list(options)) for prompt, options in QUIZ_EN[:3]]
    piled[0] = {**piled[0], "prompt": long_stem}
    flawed = course(questions=piled, objectives=[objective("en-US", verb="understand")], chapters=2)

    report = quality.report_for(flawed)

    named = {(item.code, item.where): (item.part_id, item.part_title) for item in report.findings}
    assert named[("NEGATIVE_STEM", "/assessment/questions/0")] == (
        None, "Which of these clauses, written after the FROM clause of a SELECT statement…"
    )
    assert len(named[("NEGATIVE_STEM", "/assessment/questions/0")][1]) <= 80
    assert named[("ANSWER_POSITION_PILED", "/assessment")] == (None, None)
    assert named[("OBJECTIVE_VERB_VAGUE", "/chapters/0/objectives/0")] == (
        "1.1", report.objectives[0].statement
    )
    assert report.objectives[0].statement.startswith("Understand ")
    assert named[("OBJECTIVE_UNTESTED", "/chapters/1/objectives/0")] == ("2.1", report.objectives[1].statement)


def test_every_rule_is_tested_here():
    tested_above = {
        "ANSWER_LENGTH_PATTERN",
        "ANSWER_POSITION_PILED",
        "OBJECTIVE_VERB_VAGUE",
        "OBJECTIVE_VERB_UNLISTED",
        "OBJECTIVE_LEVEL_MISMATCH",
        "OBJECTIVE_UNTESTED",
        "QUESTION_WITHOUT_OBJECTIVE",
        "CHAPTER_WITHOUT_OBJECTIVES",
        "LESSON_HARD_TO_READ",
        "MATTER_IN_CHAPTER",
        "MATTER_IN_LESSON",
        "MATTER_IN_QUESTION",
        "CHAPTER_SPANS_SOURCES",
        "DUPLICATE_CHAPTER_TITLE",
        "LESSON_SCRAP",
        "QUESTIONS_SHARE_SENTENCE",
        "DISTRACTOR_RECURS",
        "NUMBERED_TITLE",
        "SOURCE_TITLED_BY_HEADING",
        "THIN_COVERAGE",
    }

    assert set(QUESTION_CASES) | tested_above == set(rules.RULES)


def test_the_docs_list_every_rule_with_its_severity_and_the_rules_version():
    page = (Path(__file__).resolve().parents[3] / "docs" / "how-it-works" / "quality.md").read_text()

    for rule in rules.RULES.values():
        language = "language" if rule.language_specific else ""
        assert f"| `{rule.code}` | {rule.part} | {rule.severity} | {language} | {rule.summary} |" in page
    assert f"Rules version: **{rules.RULES_VERSION}**" in page
