"""
An OpenAI-compatible model server (chat completions and embeddings) on loopback for tests.

It answers POST /v1/embeddings with vectors of the words of each text (`embedding_of`), and
POST /v1/chat/completions with JSON that fits the request's JSON schema, written in
the language the request's system prompt names, so any request the generator makes gets a
plausible answer: quizzes are well written (QUIZ: no item-writing rule trips, though the correct
option always comes first, as models tend to put it), and every question names an objective. Tests script failures per step (the schema name: course_plan, course_chapter,
course_wrapup, …), hold requests at a barrier to prove they are in flight together, and read what
was asked. For a course built from sources, it cites the passages the request shows, with quotes
copied from them (`cite_passages`), and writes quiz questions whose answers its quotes state.
"""

import collections
import gzip
import itertools
import json
import math
import re
import socket
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PHRASES = {
    "en-US": "This lesson explains the topic with an example, and you practice each step on your own.",
    "pt-BR": "Esta lição explica o tema com um exemplo, e você pratica cada passo com calma.",
    "es-ES": "Esta lección explica el tema con un ejemplo y tú practicas cada paso con calma.",
    "fr-FR": "Cette leçon explique le sujet avec un exemple et vous pratiquez chaque étape avec soin.",
    "de-DE": "Diese Lektion erklärt das Thema mit einem Beispiel, und Sie üben jeden Schritt in Ruhe.",
}

# Well-written quiz questions per language: (prompt, options with the correct one first).
QUIZ = {
    "en-US": [
        ("Which habit helps most when a new task looks hard?", [
            "Split it into small parts and finish one",
            "Wait for a quiet week to start on it",
            "Ask a colleague to do it in your place",
            "Read about it for a whole month beforehand",
        ]),
        ("What should a short review session contain?", [
            "Recall of key points from memory first",
            "A long reading of the whole textbook",
            "Notes copied again in neater writing",
            "Music with a break after each page read",
        ]),
        ("Which source deserves the most trust on a technical question?", [
            "Official documentation from the maker",
            "A forum post with many enthusiastic likes",
            "An advert from a company that sells it",
            "A rumour heard from a friend of a friend",
        ]),
        ("How do you check that a plan is realistic?", [
            "Compare its steps with the time you have",
            "Count how many pages the plan fills up",
            "Ask whether it sounds ambitious enough",
            "Make sure that its title is short and catchy",
        ]),
    ],
    "pt-BR": [
        ("Que hábito ajuda mais quando uma tarefa nova parece difícil?", [
            "Dividi-la em partes pequenas e concluir uma",
            "Esperar uma semana tranquila para começar",
            "Pedir a um colega que a faça em seu lugar, já",
            "Ler sobre o assunto durante um mês inteiro",
        ]),
        ("O que uma sessão curta de revisão deve conter?", [
            "Recordar os pontos-chave de memória primeiro",
            "Uma leitura longa do livro didático inteiro",
            "Anotações copiadas de novo com letra melhor",
            "Música e uma pausa depois de cada página lida",
        ]),
        ("Que fonte merece mais confiança numa questão técnica?", [
            "A documentação oficial do fabricante",
            "Um post de fórum com muitas curtidas animadas",
            "Um anúncio de uma empresa que vende o produto",
            "Um boato ouvido do amigo de um amigo",
        ]),
        ("Como conferir se um plano é realista?", [
            "Comparar as etapas com o tempo disponível",
            "Contar quantas páginas o plano ocupa no papel",
            "Perguntar se ele parece ambicioso o bastante",
            "Garantir que o título seja curto e chamativo",
        ]),
    ],
    "es-ES": [
        ("¿Qué hábito ayuda más cuando una tarea nueva parece difícil?", [
            "Dividirla en partes pequeñas y terminar una",
            "Esperar una semana tranquila para empezar",
            "Pedir a un colega que la haga en tu lugar ya",
            "Leer sobre el asunto durante un mes entero",
        ]),
        ("¿Qué debe contener una sesión breve de repaso?", [
            "Recordar primero los puntos clave de memoria",
            "Una lectura larga del libro de texto entero",
            "Apuntes copiados otra vez con mejor letra, limpios",
            "Música y una pausa tras cada página leída",
        ]),
        ("¿Qué fuente merece más confianza en una cuestión técnica?", [
            "La documentación oficial del fabricante",
            "Un mensaje de foro con muchos me gusta",
            "Un anuncio de una empresa que lo vende",
            "Un rumor oído al amigo de un amigo tuyo",
        ]),
        ("¿Cómo compruebas que un plan es realista?", [
            "Comparar sus etapas con el tiempo que tienes",
            "Contar cuántas páginas ocupa el plan entero",
            "Preguntar si suena lo bastante ambicioso",
            "Asegurarte de que el título sea corto y vistoso",
        ]),
    ],
    "fr-FR": [
        ("Quelle habitude aide le plus quand une tâche nouvelle semble difficile ?", [
            "La découper en petites parties et en finir une",
            "Attendre une semaine calme pour s'y mettre",
            "Demander à un collègue de la faire à sa place",
            "Lire sur le sujet pendant un mois entier avant",
        ]),
        ("Que doit contenir une courte séance de révision ?", [
            "Se rappeler d'abord les points clés de mémoire",
            "Une longue lecture du manuel en entier",
            "Des notes recopiées avec une plus belle écriture",
            "De la musique et une pause après chaque page lue",
        ]),
        ("Quelle source mérite le plus de confiance sur une question technique ?", [
            "La documentation officielle du fabricant",
            "Un message de forum avec beaucoup de likes",
            "Une publicité d'une entreprise qui le vend",
            "Une rumeur entendue chez l'ami d'un ami",
        ]),
        ("Comment vérifier qu'un plan est réaliste ?", [
            "Comparer ses étapes avec le temps disponible",
            "Compter combien de pages le plan occupe",
            "Se demander s'il semble assez ambitieux",
            "S'assurer que son titre est court et accrocheur",
        ]),
    ],
    "de-DE": [
        ("Welche Gewohnheit hilft am meisten, wenn eine neue Aufgabe schwer wirkt?", [
            "Sie in kleine Teile zerlegen und einen abschließen",
            "Auf eine ruhige Woche warten, um damit anzufangen",
            "Einen Kollegen bitten, sie an Ihrer Stelle zu erledigen",
            "Einen ganzen Monat lang vorher darüber lesen",
        ]),
        ("Was sollte eine kurze Wiederholungseinheit enthalten?", [
            "Zuerst die Kernpunkte aus dem Gedächtnis abrufen",
            "Eine lange Lektüre des ganzen Lehrbuchs",
            "Notizen, die in schönerer Schrift abgeschrieben sind",
            "Musik und eine Pause nach einer gelesenen Seite",
        ]),
        ("Welche Quelle verdient bei einer technischen Frage das meiste Vertrauen?", [
            "Die offizielle Dokumentation des Herstellers",
            "Ein Forumsbeitrag mit vielen begeisterten Likes",
            "Eine Werbung einer Firma, die das Produkt verkauft",
            "Ein Gerücht vom Freund eines Freundes",
        ]),
        ("Wie prüfen Sie, ob ein Plan realistisch ist?", [
            "Seine Schritte mit der verfügbaren Zeit vergleichen",
            "Zählen, wie viele Seiten der Plan insgesamt füllt",
            "Sich fragen, ob er ehrgeizig genug klingt",
            "Sicherstellen, dass sein Titel kurz und einprägsam ist",
        ]),
    ],
}

ADD_ON_STEPS = ("course_wrapup", "course_assessment", "course_agreement")


def write_questions(document: dict, schema: dict, language: str) -> None:
    """Fill the questions of an assessment answer with QUIZ items, each naming the next objective."""
    items = schema["properties"]["questions"]["items"]["properties"]
    objectives = items["objectiveId"].get("enum", [None]) if "objectiveId" in items else [None]
    for number, question in enumerate(document["questions"]):
        prompt, options = QUIZ[language][number % len(QUIZ[language])]
        question.update(prompt=prompt, options=list(options), correctIndex=0)
        if "objectiveId" in question:
            question["objectiveId"] = objectives[number % len(objectives)]


def passages_in(body: dict) -> list[dict]:
    """The passages a request shows the model (one JSON object per line), in order."""
    found = []
    for line in body["messages"][1]["content"].splitlines():
        if line.startswith('{"id": "psg_'):
            found.append(json.loads(line))
    return found


def sentences_of(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"(?<=[.!?])\s+|\n", text) if len(part.split()) >= 4]


def cite_passages(document, passages: list[dict], start: int = 0):
    """Fill every `citations` list of the answer with a citation of the next passage and its first sentence."""
    counter = itertools.count(start)

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "citations" and isinstance(value, list):
                    passage = passages[next(counter) % len(passages)]
                    quote = (sentences_of(passage["text"]) or [passage["text"]])[0][:300]
                    node[key] = [{"passageId": passage["id"], "quote": quote}]
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    return document


def write_grounded_questions(document: dict, schema: dict, passages: list[dict]) -> None:
    """Questions on what the passages say: each answer a sentence's opening words, its quote that sentence."""
    items = schema["properties"]["questions"]["items"]["properties"]
    objectives = items["objectiveId"].get("enum", [None]) if "objectiveId" in items else [None]
    sentences = [(passage["id"], sentence) for passage in passages for sentence in sentences_of(passage["text"])]
    for number, question in enumerate(document["questions"]):
        picked = [sentences[(number * 4 + offset) % len(sentences)] for offset in range(4)]
        options = []
        for _, sentence in picked:
            option = " ".join(sentence.rstrip(".").split()[:8])
            if option.casefold() not in {known.casefold() for known in options}:
                options.append(option)
        while len(options) < 2:
            options.append(f"Nothing of the kind, option {len(options) + 1}")
        passage_id, sentence = picked[0]
        question.update(
            prompt=f"Which of these does the source state (question {number + 1})?",
            options=options,
            correctIndex=0,
            explanation="The passage says so in these words.",
            citations=[{"passageId": passage_id, "quote": sentence[:300]}],
        )
        if "objectiveId" in question:
            question["objectiveId"] = objectives[number % len(objectives)]


# Words the fake's embeddings take for one meaning, as a real model would: a chapter about
# automobiles is near a passage about cars, with no word in common.
SAME_MEANING = {"automobile": "car", "automobiles": "car", "cars": "car", "vehicle": "car", "vehicles": "car"}
EMBEDDING_SIZE = 512


def group_of(step: str) -> str:
    return "add_ons" if step in ADD_ON_STEPS else step


class FakeOpenAI:
    def __init__(self):
        self.requests: list[dict] = []
        self.authorizations: list[str | None] = []
        # step → behaviours for its next requests, used up in order; then "ok". A behaviour is a name
        # (below) or a function that takes the answer's JSON document and returns the one to send.
        self.script: dict[str, list] = collections.defaultdict(list)
        # group (a step, or "add_ons") → barrier its requests wait at while counted in flight.
        self.barriers: dict[str, threading.Barrier] = {}
        self.max_in_flight: collections.Counter = collections.Counter()
        self.release = threading.Event()  # ends "stall" and "hold" behaviours
        self.holding = 0  # requests held so far
        self.answered: list[str] = []  # the step of every request answered 200, in order
        self.embedding_requests: list[dict] = []
        self.embeddings_script: list[str] = []  # behaviours of the next embeddings requests, then "ok"
        self.redirect_to: str | None = None  # where the "redirect" behaviour points
        self.headers_seen: list[dict] = []  # of every request, names in lower case, in order
        self.urls: list[str] = []  # as every request named them (a whole URL through a proxy)
        self._words: dict[str, int] = {}  # each word's place in the fake's embeddings
        self._in_flight: collections.Counter = collections.Counter()
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._server.handle_error = lambda request, address: None  # clients that gave up
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        for barrier in self.barriers.values():
            barrier.abort()
        self._server.shutdown()
        self._server.server_close()

    def steps(self) -> list[str]:
        """The step of every request received, in order of arrival."""
        with self._lock:
            return [body["response_format"]["json_schema"]["name"] for body in self.requests]

    # --- answering ----------------------------------------------------------------------------

    def answer(self, body: dict, *, authorization: str | None = None) -> tuple[int, dict, bytes]:
        step = body["response_format"]["json_schema"]["name"]
        group = group_of(step)
        with self._lock:
            self.requests.append(body)
            self.authorizations.append(authorization)
            behaviour = self.script[step].pop(0) if self.script[step] else "ok"
            self._in_flight[group] += 1
            self.max_in_flight[group] = max(self.max_in_flight[group], self._in_flight[group])
        try:
            barrier = self.barriers.get(group)
            if barrier is not None:
                try:
                    barrier.wait()
                except threading.BrokenBarrierError:
                    pass  # the test's in-flight assertion reports it
            if behaviour == "hold":  # answered well, once the test lets it go
                with self._lock:
                    self.holding += 1
                self.release.wait(timeout=120)
                behaviour = "ok"
            status, headers, payload = self._respond(behaviour, body)
            if status == 200:
                with self._lock:
                    self.answered.append(step)
            return status, headers, payload
        finally:
            with self._lock:
                self._in_flight[group] -= 1

    def embed(self, body: dict) -> tuple[int, dict, bytes]:
        with self._lock:
            self.embedding_requests.append(body)
            behaviour = self.embeddings_script.pop(0) if self.embeddings_script else "ok"
        if behaviour not in ("ok", "trickle"):
            return self._respond(behaviour, body)
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [
            {"object": "embedding", "index": index, "embedding": self.embedding_of(text)}
            for index, text in enumerate(texts)
        ]
        answer = {"object": "list", "data": data, "model": body["model"], "usage": {"prompt_tokens": 1}}
        return 200, {_TRICKLE: "0.2"} if behaviour == "trickle" else {}, json.dumps(answer).encode()

    def embedding_of(self, text: str) -> list[float]:
        """
        A bag of the text's words (of three letters or more, those of the same meaning as one): each
        word its own number, in the order the server first saw them, so no two words collide.
        """
        vector = [0.0] * EMBEDDING_SIZE
        for word in re.findall(r"[a-z]{3,}", text.casefold()):
            word = SAME_MEANING.get(word, word)
            with self._lock:
                number = self._words.setdefault(word, len(self._words))
            vector[number % EMBEDDING_SIZE] += 1.0
        norm = math.sqrt(sum(value * value for value in vector))
        return [value / norm for value in vector] if norm else [1.0] + [0.0] * (EMBEDDING_SIZE - 1)

    def embedded_texts(self) -> list[str]:
        """Every text sent for embedding, in order."""
        with self._lock:
            return [text for body in self.embedding_requests for text in body["input"]]

    def _respond(self, behaviour: str, body: dict) -> tuple[int, dict, bytes]:
        fast_retry = {"retry-after-ms": "1"}
        if behaviour == "error500":
            return (
                500,
                fast_retry,
                json.dumps({"error": {"message": "overloaded", "type": "server_error"}}).encode(),
            )
        if behaviour == "error429":
            return (
                429,
                fast_retry,
                json.dumps({"error": {"message": "slow down", "type": "rate_limit"}}).encode(),
            )
        if behaviour == "error429_for_10s":
            return 429, {"retry-after": "10"}, json.dumps({"error": {"message": "slow down"}}).encode()
        if behaviour == "error401":
            # As OpenAI answers a wrong key: naming the key, whole when short, else its start and end.
            message = (
                "Incorrect API key provided: sk-test. You can find your API key at "
                "https://platform.openai.com/account/api-keys."
            )
            error = {"message": message, "type": "invalid_request_error", "code": "invalid_api_key"}
            return 401, {}, json.dumps({"error": error}).encode()
        if behaviour == "stall":
            self.release.wait(timeout=20)
            return 500, {}, b"{}"
        if behaviour == "refuse_lengths" and "minLength" in json.dumps(body["response_format"]):
            # What a server that takes only part of JSON Schema in strict mode answers.
            message = "Invalid schema for response_format: 'minLength' is not permitted."
            return 400, {}, json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode()
        if behaviour in _BROKEN_BODIES:  # a 200 whose body is no completion the SDK can read
            return 200, {}, _BROKEN_BODIES[behaviour]
        if behaviour == "redirect":
            return 307, {"Location": self.redirect_to}, b""
        language = re.search(r"locale ([a-z]{2}-[A-Z]{2})", body["messages"][0]["content"]).group(1)
        document = self.document_for(body, language)
        if callable(behaviour):  # the test changes the answer: breaks a rule, say
            document = behaviour(document)
        finish_reason = "stop"
        if behaviour == "cannot_teach":
            document["canTeach"] = False
        text = json.dumps(document, ensure_ascii=False)
        if behaviour == "garbage":
            text = "Sure! Here is your course: chapter one, chapter two."
        elif behaviour == "wrong_shape":
            text = json.dumps({"answer": "a course"})
        elif behaviour == "truncated":
            text, finish_reason = text[: len(text) // 2], "length"
        elif behaviour == "deeply_nested":
            text = "[" * 100_000
        elif behaviour == "fenced":
            text = f"```json\n{text}\n```"
        elif behaviour == "reasoning":
            text = f"<think>\nThe learner needs a plan.\n</think>\n\n{text}"
        payload = self._completion(body, text, finish_reason)
        if behaviour == "trickle":  # a good answer, sent a byte at a time: the handler sends it so
            return 200, {_TRICKLE: "0.2"}, payload
        if behaviour == "oversized":  # a good answer after 17 MiB of blanks, which JSON allows
            return 200, {}, b" " * (17 * 1024 * 1024) + payload
        if behaviour == "gzipped":  # a good answer, compressed though the client asked for none
            return 200, {"Content-Encoding": "gzip"}, gzip.compress(payload)
        return 200, {}, payload

    def _completion(self, body: dict, text: str, finish_reason: str) -> bytes:
        message = {"role": "assistant", "content": text}
        choice = {"index": 0, "message": message, "finish_reason": finish_reason}
        return _completion_with([choice], number=next(self._numbers), model=body["model"])

    def document_for(self, body: dict, language: str) -> dict:
        """The answer to a request, before any scripted behaviour changes it."""
        schema = body["response_format"]["json_schema"]["schema"]
        document = self.fill(schema, PHRASES[language])
        passages = passages_in(body)
        if "questions" in document:
            if passages:
                write_grounded_questions(document, schema, passages)
            else:
                write_questions(document, schema, language)
        elif passages:
            cite_passages(document, passages)
        return document

    def fill(self, schema: dict, phrase: str):
        """A value that fits the (strict, inlined) JSON schema."""
        kind = schema.get("type")
        if kind == "object":
            return {name: self.fill(sub, phrase) for name, sub in schema["properties"].items()}
        if kind == "array":
            count = min(max(schema.get("minItems", 1), 4), schema.get("maxItems", 4))
            return [self.fill(schema["items"], phrase) for _ in range(count)]
        if kind == "boolean":
            return True
        if kind == "integer":
            return schema.get("minimum", 0)
        if "enum" in schema:
            return schema["enum"][next(self._numbers) % len(schema["enum"])]
        return f"{phrase} {next(self._numbers)}"


_TRICKLE = "X-Fake-Trickle"  # seconds between the bytes of the answer, read by the handler


def _completion_with(choices, *, number: int = 0, model: str = "m") -> bytes:
    completion = {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": 1767225600,
        "model": model,
        "choices": choices,
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }
    return json.dumps(completion).encode()


# 200 answers whose body breaks a reader: not JSON, not UTF-8, nested past any parser's depth, a number
# of 5,000 digits, or a completion of the wrong shape.
_BROKEN_BODIES = {
    "body_not_json": b"not json{",
    "body_not_utf8": b'{"choices": "' + bytes([0xFF, 0xFE]) + b'"}',
    "body_nested_too_deep": b"[" * 100_000,
    "body_huge_number": b'{"created": ' + b"9" * 5000 + b"}",
    "choices_not_a_list": _completion_with("x"),
    "message_null": _completion_with([{"index": 0, "message": None, "finish_reason": "stop"}]),
}


def _handler_for(fake: FakeOpenAI):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            # A request through a proxy names the whole URL: the fake is that proxy, for any host.
            path = urllib.parse.urlsplit(self.path).path
            if path not in ("/v1/chat/completions", "/v1/embeddings"):
                self._send(404, {}, b'{"error": {"message": "not found"}}')
                return
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            fake.headers_seen.append({name.lower(): value for name, value in self.headers.items()})
            fake.urls.append(self.path)
            if path == "/v1/embeddings":
                self._send(*fake.embed(body))
                return
            self._send(*fake.answer(body, authorization=self.headers.get("Authorization")))

        def _send(self, status: int, headers: dict, payload: bytes):
            pause = float(headers.pop(_TRICKLE, 0))
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            if not pause:
                self.wfile.write(payload)
                return
            for byte in payload:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                if fake.release.wait(pause):  # the test is over
                    return

        def log_message(self, *args):
            pass

    return Handler


def closed_port_url() -> str:
    """A loopback URL where nothing listens (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
