"""Small course documents for the quality tests: one chapter, its objectives and a quiz."""

from courses.content import CourseContent
from tests.support.fake_openai import QUIZ

# A short, plain lesson per language: easy to read.
PLAIN_LESSON = {
    "en-US": "A join puts two tables side by side. You match rows by a key. Try it on a small table first.",
    "pt-BR": "Uma junção põe duas tabelas lado a lado. Você liga as linhas por uma chave. Teste numa tabela pequena.",
    "es-ES": "Una unión pone dos tablas juntas. Enlazas las filas por una clave. Pruébalo con una tabla pequeña.",
    "fr-FR": "Une jointure met deux tables côte à côte. On relie les lignes par une clé. Essayez sur une petite table.",
    "de-DE": "Ein Join legt zwei Tabellen nebeneinander. Sie verbinden Zeilen über einen Schlüssel. Üben Sie klein.",
}

# A lesson no reader gets through, in every course language.
HARD_TO_READ = {
    "en-US": "Notwithstanding considerable organizational heterogeneity, the institutionalization of comprehensive "
    "interdisciplinary methodologies necessitates sophisticated infrastructural coordination, continuous "
    "epistemological reconsideration and systematically documented accountability mechanisms.",
    "pt-BR": "Independentemente da considerável heterogeneidade organizacional, a institucionalização de metodologias "
    "interdisciplinares abrangentes exige coordenação infraestrutural sofisticada, reconsideração epistemológica "
    "contínua e mecanismos de responsabilização sistematicamente documentados.",
    "es-ES": "Independientemente de la considerable heterogeneidad organizativa, la institucionalización de "
    "metodologías interdisciplinarias exhaustivas exige una coordinación infraestructural sofisticada, una "
    "reconsideración epistemológica continua y mecanismos de responsabilidad sistemáticamente documentados.",
    "fr-FR": "Nonobstant une considérable hétérogénéité organisationnelle, l'institutionnalisation de méthodologies "
    "interdisciplinaires exhaustives nécessite une coordination infrastructurelle sophistiquée, une reconsidération "
    "épistémologique continuelle et des mécanismes de responsabilisation systématiquement documentés.",
    "de-DE": "Ungeachtet beträchtlicher organisatorischer Heterogenität erfordert die Institutionalisierung "
    "umfassender interdisziplinärer Methodologien eine hochentwickelte infrastrukturelle Koordinierung, "
    "kontinuierliche erkenntnistheoretische Überprüfung sowie systematisch dokumentierte Rechenschaftsmechanismen.",
}

EXPLAIN = {
    "en-US": "explain",
    "pt-BR": "explicar",
    "es-ES": "explicar",
    "fr-FR": "expliquer",
    "de-DE": "erklären",
}


def objective(
    language_id: str, *, id: str = "1.1", verb: str | None = None, level: str = "understand"
) -> dict:
    return {"id": id, "verb": verb or EXPLAIN[language_id], "object": "joins", "bloomLevel": level}


def question(
    prompt: str, options: list[str], correct_index: int = 0, objective_id: str | None = "1.1"
) -> dict:
    return {
        "prompt": prompt,
        "options": options,
        "correctIndex": correct_index,
        "explanation": "Because of how joins work.",
        "objectiveId": objective_id,
    }


def filler_questions(language_id: str) -> list[dict]:
    """Three well-written questions with their answers at B, C and D: a quiz without piling."""
    filler = []
    for number, (prompt, options) in enumerate(QUIZ[language_id][1:4], start=1):
        options = list(options)
        options[0], options[number] = options[number], options[0]
        filler.append(question(prompt, options, correct_index=number))
    return filler


def course(
    *,
    language_id: str = "en-US",
    questions: list[dict] | None = None,
    objectives: list[dict] | None = None,
    lessons: list[str] | None = None,
    assessment: bool = True,
    chapters: int = 1,
) -> CourseContent:
    """
    A valid course: `chapters` chapters (the first with `objectives`, default one objective "1.1";
    the others with one objective each), `lessons` as the bodies of the first chapter (default two
    plain lessons), and an assessment of `questions` (default: the three filler questions).
    """
    objectives = [objective(language_id)] if objectives is None else objectives
    bodies = lessons or [PLAIN_LESSON[language_id]] * 2
    document_chapters = [
        {
            "title": "Joins",
            "summary": "Joins",
            "lessons": [{"title": f"Lesson {n}", "body": body} for n, body in enumerate(bodies, 1)],
            "objectives": objectives,
        }
    ]
    for number in range(2, chapters + 1):
        document_chapters.append(
            {
                "title": f"Chapter {number}",
                "summary": "More",
                "lessons": [{"title": "Lesson", "body": PLAIN_LESSON[language_id]}] * 2,
                "objectives": [objective(language_id, id=f"{number}.1")],
            }
        )
    document = {
        "name": "Intro to SQL",
        "headline": "Query data",
        "languageId": language_id,
        "format": "onepage",
        "addOns": ["assessment"] if assessment else [],
        "introduction": "Welcome.",
        "chapters": document_chapters,
    }
    if assessment:
        quiz = filler_questions(language_id) if questions is None else questions
        document["assessment"] = {"questions": quiz}
    return CourseContent.model_validate(document)
