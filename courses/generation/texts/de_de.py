"""The offline generator's words in German (Germany)."""

TEXTS = {
    "quotes": ("„", "“"),
    "headline": "Ein praxisnaher Kurs zu {s}, Schritt für Schritt",
    "intro_opening": "Willkommen zu diesem Kurs über {s}.",
    "intro_auto": (
        "Der Kurs ist ein strukturierter Lernweg in fünf Kapiteln: Er beginnt mit den Grundlagen, "
        "führt zu den zentralen Ideen, setzt sie in die Praxis um, zeigt die häufigsten Fehler und "
        "endet mit einem Plan, wie Sie sich weiter verbessern."
    ),
    "intro_outline": (
        "Der Kurs folgt dieser Gliederung:\n\n{chapters}\n\n"
        "Jedes Kapitel erklärt, worum es bei seinem Thema geht, zeigt, wie Sie es Schritt für Schritt "
        "anwenden, und weist auf die häufigsten Fehler hin."
    ),
    "intro_usage": (
        "**So nutzen Sie den Kurs:** Arbeiten Sie die Kapitel der Reihe nach durch, machen Sie sich "
        "Notizen in eigenen Worten und erledigen Sie jede Aktivität, bevor Sie weitergehen. Wenn eine "
        "Lektion Sie nach Beispielen oder Quellen fragt, wählen Sie diese aus Ihrem eigenen Umfeld: "
        "Genau das sorgt dafür, dass das Wissen hängen bleibt."
    ),
    "intro_note": (
        "*Dieser Kurs wurde aus einer Vorlage erstellt. Er gibt Ihnen Struktur und Methode vor; die "
        "Einzelheiten zu {s} stammen aus den Quellen und Beispielen, die Sie unterwegs sammeln.*"
    ),
    "themes": [
        {
            "title": "Der Einstieg",
            "summary": "Was {s} ist, wo es eingesetzt wird und welche Schlüsselbegriffe Sie brauchen.",
            "takeaway": "Beginnen Sie mit einer klaren Arbeitsdefinition von {s} und einem konkreten, überprüfbaren Ziel.",
            "objectives": [
                {"verb": "erklären", "object": "Bedeutung, Nutzer und Ergebnis von {s}"},
                {
                    "verb": "definieren",
                    "object": "die Schlüsselbegriffe von {s} in einfacher Sprache und mit je einem Beispiel",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Was ist der beste erste Schritt, wenn Sie beginnen, sich mit {s} zu beschäftigen?",
                    "options": [
                        "Eine Arbeitsdefinition in eigenen Worten schreiben und an Beispielen testen",
                        "Eine lange Liste von Fachbegriffen auswendig lernen, bevor Sie etwas lesen",
                        "Mit dem anspruchsvollsten Material anfangen, damit die Grundlagen leicht wirken",
                        "Die verfügbaren Quellen zum Thema sammeln und lesen, bevor Sie selbst üben",
                    ],
                    "explanation": "Eine Arbeitsdefinition, an Beispielen überprüft, gibt Ihnen einen Rahmen, in den sich jedes spätere Detail einfügt.",
                },
                {
                    "objective": 1,
                    "prompt": "Welches Vorgehen ergibt ein brauchbares Glossar eines neuen Fachgebiets?",
                    "options": [
                        "Begriffe notieren, die in mehreren Quellen vorkommen, und mit Beispiel erklären",
                        "Die Definitionen eines Lehrbuchs genau so abschreiben, wie sie gedruckt sind",
                        "Fachwörter durch das ähnlichste Alltagswort ersetzen, das Sie kennen",
                        "Die seltensten Wörter sammeln, die Ihnen begegnen, weil Fachleute sie sehr schätzen",
                    ],
                    "explanation": "Begriffe, die in mehreren Quellen vorkommen, tragen das Fachgebiet; eine Erklärung in eigenen Worten mit Beispiel zeigt, dass Sie sie anwenden können.",
                },
            ],
        },
        {
            "title": "Die zentralen Ideen",
            "summary": "Die Prinzipien hinter {s}, wie sie zusammenhängen, und ein durchgerechnetes Beispiel.",
            "takeaway": "Wenige Grundprinzipien erklären den Großteil dessen, was Fachleute für {s} tun.",
            "objectives": [
                {"verb": "beschreiben", "object": "die Grundprinzipien von {s} samt ihrer Begründung"},
                {
                    "verb": "analysieren",
                    "object": "ein durchgerechnetes Beispiel zu {s} Schritt für Schritt samt den angewandten Prinzipien",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Woran erkennen Sie, dass ein notiertes Prinzip brauchbar ist?",
                    "options": [
                        "Es hilft, vorherzusagen oder zu erklären, was in einem bekannten Fall passiert",
                        "Es klingt überzeugend und lässt sich beim erneuten Lesen besonders leicht merken",
                        "Es steht im ersten Absatz der meisten einführenden Lehrbücher",
                        "Es fasst viele Regeln auf einmal zusammen, sodass weniger zu lernen bleibt",
                    ],
                    "explanation": "Ein Prinzip ist etwas wert, wenn es reale Fälle vorhersagen oder erklären hilft, und weniger, wenn es bloß richtig klingt.",
                },
                {
                    "objective": 1,
                    "prompt": "Wozu dient es vor allem, ein durchgerechnetes Beispiel zu studieren?",
                    "options": [
                        "Jeden Schritt der Anwendung einer Idee samt der Überlegung dahinter zu sehen",
                        "Ein fertiges Ergebnis zu bekommen, das Sie ohne eigene Arbeit kopieren können",
                        "Die Prinzipien zu überspringen und direkt zu den praxisrelevanten Antworten zu kommen",
                        "Zu bestätigen, dass das Thema leichter ist, als die Einführung vermuten ließ",
                    ],
                    "explanation": "Ein durchgerechnetes Beispiel macht die Überlegungen sichtbar, und genau das erlaubt es, die Idee auf neue Fälle anzuwenden.",
                },
            ],
        },
        {
            "title": "Ab in die Praxis",
            "summary": "Eine Schritt-für-Schritt-Routine, die passenden Werkzeuge und ein erstes kleines Projekt mit {s}.",
            "takeaway": "Wenden Sie {s} in kleinen, abgeschlossenen Schritten an und halten Sie jeden Versuch in einem Lernprotokoll fest.",
            "objectives": [
                {
                    "verb": "anwenden",
                    "object": "{s} mit einer Routine in vier Schritten auf einen kleinen, risikoarmen Fall",
                },
                {
                    "verb": "planen",
                    "object": "ein erstes Projekt mit {s} und einem klaren, überprüfbaren Ergebnis",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Ihr erster Versuch bei einer neuen Aufgabe brachte ein überraschendes Ergebnis. Was ist jetzt am sinnvollsten?",
                    "options": [
                        "Den Ausgang mit Ihrer Erwartung vergleichen, eine Sache ändern und wiederholen",
                        "Mehrere Einstellungen gleichzeitig ändern, um schneller eine passende Lösung zu finden",
                        "Sofort eine größere Fassung der Aufgabe angehen, um mehr Daten zu bekommen",
                        "Den Ansatz aufgeben und eine andere Methode suchen, die besser zu Ihnen passt",
                    ],
                    "explanation": "Den Ausgang mit der Erwartung zu vergleichen und eine Sache auf einmal zu ändern zeigt Ihnen, was jede Änderung bewirkt.",
                },
                {
                    "objective": 1,
                    "prompt": "Was zeichnet ein gutes erstes Projekt aus?",
                    "options": [
                        "Etwas Kleines, das Sie in wenigen Tagen abschließen, mit prüfbarem Ergebnis",
                        "Das größte Vorhaben, das Sie sich vorstellen können, um Ihre Grenzen zu testen",
                        "Eine Aufgabe, die auf den fortgeschrittensten Techniken beruht, die Sie kennen",
                        "Ein offenes Unterfangen ohne festes Ende, damit Sie lange weiterlernen",
                    ],
                    "explanation": "Ein kleines, abgeschlossenes Projekt gibt Ihnen schnell Rückmeldung und zeigt, was Sie verbessern können.",
                },
            ],
        },
        {
            "title": "Fehler und Fehlersuche",
            "summary": "Die typischen Stolperfallen bei {s}, wie Sie Probleme lösen und wie Sie die Qualität prüfen.",
            "takeaway": "Beschreiben Sie Probleme genau, ändern Sie immer nur eine Sache und prüfen Sie Ergebnisse an klaren Kriterien.",
            "objectives": [
                {
                    "verb": "diagnostizieren",
                    "object": "Probleme bei {s} durch genaue Beschreibung des Symptoms und Änderung je einer Sache",
                },
                {
                    "verb": "beurteilen",
                    "object": "die Qualität Ihrer Arbeit mit {s} anhand klarer Kriterien",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Etwas bei {s} verhält sich anders als erwartet. Was tun Sie zuerst?",
                    "options": [
                        "Das Symptom genau beschreiben: was Sie wollten und was Sie beobachtet haben",
                        "Mehrere Dinge gleichzeitig ändern, um die Ursache schneller zu finden",
                        "Die gesamte Arbeit von vorn beginnen, Schritt für Schritt und in Ruhe",
                        "Annehmen, dass das Werkzeug defekt ist, und nach einem passenden Ersatz suchen",
                    ],
                    "explanation": "Eine genaue Beschreibung des Symptoms ist die Grundlage, um das Problem nachzustellen und einzugrenzen.",
                },
                {
                    "objective": 1,
                    "prompt": "Wie beurteilen Sie, ob Ihre eigene Arbeit gut genug ist?",
                    "options": [
                        "Sie prüfen sie anhand einer kurzen Liste von vorher notierten Kriterien",
                        "Sie vergleichen Ihren Zeitaufwand mit dem, den andere üblicherweise brauchen",
                        "Sie verlassen sich auf das Gefühl der Zufriedenheit nach dem Abschluss",
                        "Sie warten, bis jemand auf Probleme hinweist, bevor Sie etwas verbessern",
                    ],
                    "explanation": "Vorher notierte Kriterien machen aus einem vagen Gefühl eine Prüfung, die Sie wiederholen können.",
                },
            ],
        },
        {
            "title": "Dranbleiben und besser werden",
            "summary": "Regelmäßiges Üben, wo Sie bei {s} tiefer einsteigen und wie Sie Ihren Fortschritt messen.",
            "takeaway": "Kurze, regelmäßige Übung und eine ehrliche Bestandsaufnahme bringen Sie stetig weiter.",
            "objectives": [
                {
                    "verb": "entwerfen",
                    "object": "einen Plan mit kurzen, regelmäßigen Übungseinheiten für {s}",
                },
                {"verb": "bewerten", "object": "Ihren Fortschritt bei {s} am Ziel vom Kursbeginn"},
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Wie verbessern Sie sich nach dem Kurs am zuverlässigsten weiter in {s}?",
                    "options": [
                        "Mit kurzen, regelmäßigen Übungseinheiten mit je einem konkreten Ziel",
                        "Mit einer sehr langen Sitzung pro Quartal, wenn sich gerade Zeit findet",
                        "Indem Sie die Lektionen häufig erneut lesen, statt die Fertigkeiten zu üben",
                        "Indem Sie Aufgaben üben, die schon leichtfallen, um Sicherheit zu gewinnen",
                    ],
                    "explanation": "Regelmäßiges, gezieltes Üben an der Grenze Ihres Könnens, mit Wiederholungen in Abständen, baut dauerhafte Fähigkeiten auf.",
                },
                {
                    "objective": 1,
                    "prompt": "Welcher Beleg zeigt Ihren Fortschritt am deutlichsten?",
                    "options": [
                        "Eine frühe Übung erneut machen und mit dem ersten Versuch vergleichen",
                        "Die Zahl der Stunden, die Sie seit Beginn in den Kurs gesteckt haben",
                        "Wie sicher Sie sich fühlen, wenn Sie heute etwas über das Thema lesen",
                        "Die Menge an Material, die Sie bisher gelesen und markiert haben",
                    ],
                    "explanation": "Eine frühe Übung erneut zu machen liefert Belege dafür, was Sie jetzt können, statt eines bloßen Gefühls.",
                },
            ],
        },
    ],
    "outline_chapter": {
        "summary": "Worum es bei {t} geht, wie Sie es Schritt für Schritt anwenden und welche typischen Fehler Sie vermeiden sollten.",
        "takeaway": "{t}: in eigenen Worten erklären, Schritt für Schritt anwenden und auf die typischen Fehler achten.",
        "objectives": [
            {"verb": "erklären", "object": "Wesen und Bedeutung von {t}"},
            {"verb": "anwenden", "object": "{t} Schritt für Schritt und ohne die typischen Fehler"},
        ],
        "questions": [
            {
                "objective": 0,
                "prompt": "Wie prüfen Sie am besten, ob Sie {t} verstanden haben?",
                "options": [
                    "Es in eigenen Worten erklären und diese Erklärung an zwei Beispielen testen",
                    "Die Lektion so oft lesen, bis Sie die Hauptsätze auswendig aufsagen können",
                    "Die längste Definition suchen, die sich finden lässt, und sie abschreiben",
                    "Zählen, wie oft der Begriff in Quellen vorkommt, um sein Gewicht zu schätzen",
                ],
                "explanation": "{t} in eigenen Worten zu erklären und an Beispielen zu testen zeigt, was Sie damit anfangen können, und nicht bloß, was Sie wiederholen können.",
            },
            {
                "objective": 1,
                "prompt": "Sie wenden {t} zum ersten Mal an. Welche Routine hilft am meisten?",
                "options": [
                    "Einen kleinen, risikoarmen Fall ausprobieren, prüfen und eine Sache anpassen",
                    "Mit dem größten Fall beginnen, den Sie haben, damit sich die Übung lohnt",
                    "Mehrere Teile gleichzeitig ändern, damit ein Versuch mehr abdeckt",
                    "Die Prüfung der Ergebnisse ans Ende verschieben, wenn es mehr zu vergleichen gibt",
                ],
                "explanation": "Kleine Versuche, einzeln geprüft und angepasst, zeigen, wie {t} funktioniert und wo es hakt.",
            },
            {
                "objective": 0,
                "prompt": "Warum hilft es, den Zweck von {t} zu kennen, bevor Sie die Einzelheiten lernen?",
                "options": [
                    "Die Funktion gibt einen Rahmen, in den sich jeder spätere Punkt einfügt",
                    "Es erlaubt, die Teile des Themas zu überspringen, die anfangs schwer wirken",
                    "Es ersetzt die Übung, die die folgenden Lektionen von Ihnen verlangen",
                    "Es lässt das Thema einfacher wirken, als es ist, und hält so die Motivation",
                ],
                "explanation": "Wer den Zweck von {t} kennt, kann jedes Detail einordnen, sodass die Details Sinn ergeben und haften bleiben.",
            },
            {
                "objective": 1,
                "prompt": "Welche Gewohnheit hilft Ihnen, die typischen Fehler bei {t} zu vermeiden?",
                "options": [
                    "Ihr Lernprotokoll nach Fehlern durchsehen, die Ihnen schon passiert sind",
                    "Schneller arbeiten, damit weniger Zeit bleibt, um Fehler zu machen",
                    "Der ersten Anleitung folgen, die Sie finden, ohne etwas daran zu ändern",
                    "Warten, bis Sie sich ganz sicher fühlen, bevor Sie es zum ersten Mal versuchen",
                ],
                "explanation": "Ihr Lernprotokoll zeigt die Fehler, die Ihnen häufig passieren, damit Sie beim nächsten Versuch darauf achten.",
            },
        ],
    },
    "lessons": {
        "what_it_is": {
            "title": "Worum es geht und warum es wichtig ist",
            "title_in_chapter": "{chapter}: worum es geht und warum es wichtig ist",
            "body": (
                "Bevor Sie sich mit den Einzelheiten von {t} befassen, verschaffen Sie sich ein klares "
                "Bild davon, worum es geht und wozu es dient.\n\n"
                "### Eine Arbeitsdefinition\n\n"
                "Beschreiben Sie {t} in ein oder zwei Sätzen mit eigenen Worten. Eine gute "
                "Arbeitsdefinition beantwortet drei Fragen:\n\n"
                "- **Was** ist es? Eine Fähigkeit, ein Werkzeug, eine Methode, ein Wissensgebiet?\n"
                "- **Wer** nutzt es, und in welchen Situationen?\n"
                "- **Welches Ergebnis** bringt es hervor?\n\n"
                "### Warum es wichtig ist\n\n"
                "Fragen Sie sich, was passiert, wenn {t} gut umgesetzt wird, und was schiefgeht, wenn es "
                "fehlt oder schlecht umgesetzt wird. Konkrete Folgen wie gesparte Zeit, weniger Fehler "
                "oder bessere Entscheidungen machen ein Thema die Mühe wert.\n\n"
                "### Prüfen Sie Ihr Verständnis\n\n"
                "Vergleichen Sie Ihre Definition mit einer verlässlichen Quelle. Behalten Sie, was "
                "übereinstimmt, korrigieren Sie den Rest und notieren Sie jeden Begriff, den Sie noch "
                "nicht erklären können: Sie kommen später darauf zurück."
            ),
            "exercise": {
                "task": "Formulieren Sie eine Arbeitsdefinition von {t} und prüfen Sie sie an Beispielen.",
                "steps": [
                    "Schreiben Sie in ein oder zwei Sätzen, was {t} ist, wer es nutzt und welches Ergebnis es hervorbringt.",
                    "Suchen Sie zwei echte Anwendungsbeispiele und eine Situation, in der es nicht passt.",
                    "Passen Sie Ihre Definition so an, dass sie zu allen drei Fällen passt.",
                ],
                "expected_result": (
                    "Eine kurze Definition, die Sie jemand anderem erklären können, gestützt durch zwei "
                    "Beispiele und ein Gegenbeispiel."
                ),
            },
            "video": "{topic} einfach erklärt",
        },
        "where_it_fits": {
            "title": "Wo es eingesetzt wird",
            "body": (
                "{s} steht nicht für sich allein: Menschen setzen es an bestimmten Orten ein, um "
                "bestimmte Ziele zu erreichen. Wenn Sie dieses Umfeld kennen, wissen Sie, was Sie zuerst "
                "lernen sollten.\n\n"
                "### Das Umfeld erfassen\n\n"
                "- **Situationen:** Nennen Sie drei Situationen, in denen {s} eingesetzt wird. Welche "
                "kommt Ihrem eigenen Bedarf am nächsten?\n"
                "- **Menschen:** Wer ist beteiligt: Einsteiger, Fachleute, Kunden, Teams?\n"
                "- **Angrenzende Themen:** Was müssen Sie schon wissen, und was kommt üblicherweise danach?\n\n"
                "### Ihr eigenes Ziel festlegen\n\n"
                "Vervollständigen Sie den Satz: *Nach diesem Kurs möchte ich mit {s} … können.* Machen "
                "Sie das Ziel konkret und überprüfbar („einen einfachen Bericht schreiben“, „eine erste "
                "Sitzung leiten“, „die üblichen Probleme beheben“) statt „alles verstehen“.\n\n"
                "Behalten Sie das Ziel im Blick: Im letzten Kapitel messen Sie Ihren Fortschritt daran."
            ),
            "exercise": {
                "task": "Beschreiben Sie das Umfeld, in dem Sie {s} einsetzen werden.",
                "steps": [
                    "Nennen Sie drei Situationen, in denen {s} eingesetzt wird, und markieren Sie die, die Ihrer am nächsten ist.",
                    "Notieren Sie, welches Vorwissen Ihnen hilft und was Sie noch lernen müssen.",
                    "Formulieren Sie Ihr Ziel für den Kurs in einem konkreten, überprüfbaren Satz.",
                ],
                "expected_result": "Eine einseitige Übersicht über das Umfeld mit einem persönlichen Ziel, das Sie am Kursende überprüfen können.",
            },
            "video": "{topic} Einführung",
        },
        "key_terms": {
            "title": "Schlüsselbegriffe und Grundideen",
            "body": (
                "Jedes Fachgebiet hat sein eigenes Vokabular. Wenn Sie die rund zehn Begriffe kennen, "
                "die bei {s} immer wieder auftauchen, lesen sich alle weiteren Quellen leichter.\n\n"
                "### Legen Sie ein Glossar an\n\n"
                "1. Überfliegen Sie zwei einführende Quellen und notieren Sie jeden Begriff, der in beiden vorkommt.\n"
                "2. Schreiben Sie zu jedem Begriff eine Erklärung in einfacher Sprache und ein Beispiel.\n"
                "3. Gruppieren Sie zusammengehörige Begriffe: Die Gruppen zeigen oft die Hauptideen des Themas.\n\n"
                "### Achten Sie auf\n\n"
                "- **Synonyme:** Verschiedene Quellen verwenden für dieselbe Sache oft verschiedene Wörter.\n"
                "- **Alltagswörter mit besonderer Bedeutung:** Sie werden am leichtesten missverstanden.\n\n"
                "Ihr Glossar ist ein lebendes Dokument: Ergänzen Sie es in jedem Kapitel."
            ),
            "exercise": {
                "task": "Beginnen Sie ein Glossar der Schlüsselbegriffe von {s}.",
                "steps": [
                    "Sammeln Sie mindestens acht Begriffe, die in mehr als einer Quelle vorkommen.",
                    "Schreiben Sie zu jedem Begriff eine Erklärung in einfacher Sprache und ein Beispiel.",
                    "Ordnen Sie die Begriffe zwei bis vier Themen zu und geben Sie jedem Thema einen Namen.",
                ],
                "expected_result": "Ein Glossar mit mindestens acht Begriffen, jeweils mit Erklärung und Beispiel, nach Themen geordnet.",
            },
            "video": "{topic} Grundbegriffe",
        },
        "core_principles": {
            "title": "Die Grundprinzipien",
            "body": (
                "Hinter den Einzelheiten von {s} stehen einige wenige Prinzipien, die den Großteil "
                "dessen erklären, was Fachleute tun. Wer sie kennt, muss nicht jede Regel einzeln "
                "auswendig lernen.\n\n"
                "### Die Prinzipien finden\n\n"
                "- Schauen Sie sich die Gruppen in Ihrem Glossar an: Welche Idee verbindet die Begriffe "
                "jeder Gruppe?\n"
                "- Lesen Sie, wie zwei erfahrene Fachleute ihre Entscheidungen begründen. Welche Gründe "
                "tauchen immer wieder auf?\n"
                "- Formulieren Sie jedes Prinzip als kurze Regel: *Tu X, weil Y.*\n\n"
                "### Die Prinzipien prüfen\n\n"
                "Ein Prinzip ist nützlich, wenn es Ihnen hilft, etwas vorherzusagen oder zu erklären. "
                "Suchen Sie zu jedem einen Fall, in dem es zu einem guten Ergebnis führt, und einen Fall, "
                "in dem seine Missachtung ein Problem verursacht.\n\n"
                "Drei bis fünf Prinzipien sind ein gutes Ziel. Haben Sie mehr, sind einige davon "
                "vermutlich Details einer größeren Idee."
            ),
            "exercise": {
                "task": "Schreiben Sie die drei bis fünf wichtigsten Prinzipien von {s} auf.",
                "steps": [
                    "Formulieren Sie jedes Prinzip als kurze Regel mit Begründung: Tu X, weil Y.",
                    "Notieren Sie zu jedem Prinzip ein Beispiel, in dem es hilft, und eines, in dem seine Missachtung Probleme macht.",
                    "Ordnen Sie die Prinzipien danach, wie oft sie für Ihr eigenes Ziel gelten.",
                ],
                "expected_result": "Eine geordnete Liste mit drei bis fünf Prinzipien, jeweils mit Begründung und zwei gegensätzlichen Beispielen.",
            },
            "video": "{topic} Grundlagen",
        },
        "how_parts_fit": {
            "title": "Wie die Teile zusammenhängen",
            "body": (
                "Die einzelnen Teile von {s} zu kennen, reicht nicht: Sie müssen auch sehen, wie sie "
                "sich gegenseitig beeinflussen.\n\n"
                "### Zeichnen Sie eine Karte\n\n"
                "Schreiben Sie die Hauptideen aus Ihrem Glossar auf eine Seite und verbinden Sie sie mit "
                "Pfeilen. Beschriften Sie jeden Pfeil: *braucht*, *erzeugt*, *begrenzt*, *ist eine Art von*.\n\n"
                "### Folgen Sie einem Ablauf\n\n"
                "Wählen Sie eine typische Aufgabe und verfolgen Sie sie auf Ihrer Karte von Anfang bis Ende:\n\n"
                "1. Was kommt zuerst, und wovon hängt es ab?\n"
                "2. Wo werden Entscheidungen getroffen, und auf welcher Grundlage?\n"
                "3. Was ist das Endergebnis, und woran erkennen Sie, dass es gut ist?\n\n"
                "### Suchen Sie die Lücken\n\n"
                "Stellen, an denen Sie keinen Pfeil ziehen können oder seine Richtung nicht kennen, "
                "zeigen Ihnen genau, was Sie als Nächstes lernen sollten."
            ),
            "exercise": {
                "task": "Zeichnen Sie eine Begriffslandkarte zu {s}.",
                "steps": [
                    "Schreiben Sie sechs bis zehn Schlüsselideen aus Ihrem Glossar auf eine Seite.",
                    "Verbinden Sie sie mit beschrifteten Pfeilen: braucht, erzeugt, begrenzt, ist eine Art von.",
                    "Verfolgen Sie eine typische Aufgabe über die Karte und markieren Sie die Stellen, an denen Sie unsicher sind.",
                ],
                "expected_result": "Eine einseitige Begriffslandkarte mit beschrifteten Verbindungen, auf der Ihre Wissenslücken markiert sind.",
            },
            "video": "{topic} Überblick",
        },
        "worked_example": {
            "title": "Ein durchgerechnetes Beispiel",
            "body": (
                "Ein durchgerechnetes Beispiel zeigt jeden Schritt bei der Anwendung von {s}, auch die "
                "Überlegungen, die sonst unausgesprochen bleiben. Es ist die Brücke zwischen dem "
                "Verstehen einer Idee und ihrer Anwendung.\n\n"
                "### Ein Beispiel genau studieren\n\n"
                "Suchen Sie ein vollständiges Beispiel in einer verlässlichen Quelle: eine Anleitung, "
                "eine Fallstudie, eine gelöste Aufgabe. Notieren Sie zu jedem Schritt:\n\n"
                "- **was** getan wurde;\n"
                "- **warum** es gerade in diesem Moment getan wurde;\n"
                "- **welches Prinzip** aus der vorigen Lektion es anwendet.\n\n"
                "### Selbst nachbauen\n\n"
                "Schließen Sie die Quelle und bauen Sie das Beispiel aus Ihren Notizen nach. Wo Sie "
                "hängen bleiben, notieren Sie den Schritt: Dort ist Ihr Verständnis noch dünn.\n\n"
                "### Eine Sache ändern\n\n"
                "Ändern Sie zum Schluss eine Eingabe oder Bedingung, sagen Sie voraus, wie sich das "
                "Ergebnis ändert, und prüfen Sie Ihre Vorhersage."
            ),
            "exercise": {
                "task": "Bauen Sie ein durchgerechnetes Beispiel zu {s} aus Ihren Notizen nach.",
                "steps": [
                    "Wählen Sie ein vollständiges Beispiel aus einer verlässlichen Quelle und notieren Sie zu jedem Schritt, was getan wurde, warum und nach welchem Prinzip.",
                    "Bauen Sie das Beispiel nach, ohne in die Quelle zu schauen.",
                    "Ändern Sie eine Bedingung, sagen Sie das neue Ergebnis voraus und prüfen Sie es.",
                ],
                "expected_result": (
                    "Ein kommentiertes Beispiel, das Sie allein nachvollziehen können, und eine Variante, "
                    "deren Ergebnis Sie vorhergesagt oder jetzt verstanden haben."
                ),
            },
            "video": "{topic} Beispiel",
        },
        "step_by_step": {
            "title": "Schritt für Schritt anwenden",
            "title_in_chapter": "{chapter}: Schritt für Schritt anwenden",
            "body": (
                "Verständnis von {t} wird erst dann zur Fähigkeit, wenn Sie es anwenden. Eine einfache, "
                "wiederholbare Routine hilft Ihnen beim Einstieg, ohne Sie zu überfordern.\n\n"
                "### Eine Routine in vier Schritten\n\n"
                "1. **Vorbereiten:** Legen Sie fest, was Sie erreichen wollen, und legen Sie sich zurecht, "
                "was Sie brauchen.\n"
                "2. **Klein anfangen:** Wenden Sie {t} zuerst auf einen kleinen Fall mit geringem Risiko an.\n"
                "3. **Prüfen:** Vergleichen Sie das Ergebnis mit Ihrer Erwartung. Was ist anders?\n"
                "4. **Anpassen und wiederholen:** Ändern Sie eine Sache und versuchen Sie es erneut, "
                "jedes Mal etwas größer.\n\n"
                "### Führen Sie ein Lernprotokoll\n\n"
                "Notieren Sie bei jedem Versuch das Datum, was Sie probiert haben, das Ergebnis und was "
                "Sie beim nächsten Mal ändern. Nach einigen Runden zeigt das Protokoll Ihren Fortschritt "
                "und die Muster in Ihren Fehlern.\n\n"
                "Fangen Sie klein an: Drei kurze, abgeschlossene Versuche lehren mehr als ein großer, "
                "unvollendeter."
            ),
            "exercise": {
                "task": "Wenden Sie {t} mit der Vier-Schritte-Routine auf einen kleinen Fall an.",
                "steps": [
                    "Notieren Sie das Ziel Ihres Versuchs und was Sie dafür brauchen.",
                    "Führen Sie eine kleine Version durch und halten Sie das Ergebnis im Lernprotokoll fest.",
                    "Vergleichen Sie das Ergebnis mit Ihrer Erwartung, ändern Sie eine Sache und versuchen Sie es erneut.",
                ],
                "expected_result": "Zwei abgeschlossene Versuche im Lernprotokoll, mit dem, was sich dazwischen geändert hat, und warum.",
            },
            "video": "{topic} Schritt für Schritt Anleitung",
        },
        "tools_resources": {
            "title": "Werkzeuge und Quellen",
            "body": (
                "Die richtigen Werkzeuge und Quellen machen das Lernen von {s} schneller, aber zu viele "
                "davon lenken ab. Wählen Sie eine kleine, verlässliche Auswahl.\n\n"
                "### Ihre Quellen\n\n"
                "- **Ein Nachschlagewerk**, dem Sie bei Definitionen und Regeln vertrauen: offizielle "
                "Dokumentation, ein Standardlehrbuch oder ein anerkannter Leitfaden.\n"
                "- **Eine praktische Quelle** mit Beispielen zum Nachmachen: Anleitungen, Fallstudien, "
                "eine Community.\n"
                "- **Eine Person oder Gruppe**, die Sie fragen können, wenn Sie nicht weiterkommen.\n\n"
                "### Ihre Werkzeuge\n\n"
                "Listen Sie auf, was Fachleute für {s} tatsächlich verwenden. Nehmen Sie das einfachste "
                "Werkzeug, das die Aufgabe erfüllt; wechseln können Sie später, wenn Sie wissen, was Sie "
                "brauchen.\n\n"
                "### Qualität beurteilen\n\n"
                "Prüfen Sie, wer eine Quelle verfasst hat, wann sie zuletzt aktualisiert wurde und ob sie "
                "ihre Begründungen offenlegt. Seien Sie skeptisch bei Quellen, die Ergebnisse ohne Mühe "
                "versprechen."
            ),
            "exercise": {
                "task": "Stellen Sie Ihren Werkzeugkasten für {s} zusammen.",
                "steps": [
                    "Wählen Sie ein Nachschlagewerk, eine praktische Quelle und eine Person oder Community, die Sie fragen können.",
                    "Listen Sie die Werkzeuge auf, die Sie brauchen, und wählen Sie jeweils die einfachste Möglichkeit.",
                    "Prüfen Sie bei jeder Quelle Verfasser, Datum und Begründungen und ersetzen Sie, was nicht besteht.",
                ],
                "expected_result": "Eine kurze, geprüfte Liste der Quellen und Werkzeuge, die Sie im weiteren Kurs verwenden.",
            },
            "video": "{topic} Werkzeuge",
        },
        "first_project": {
            "title": "Ihr erstes kleines Projekt",
            "body": (
                "Ein kleines Projekt macht aus einzelnen Übungen ein Ergebnis, das Sie zeigen können. Es "
                "ist der beste Test dafür, was Sie bisher über {s} gelernt haben.\n\n"
                "### Die richtige Größe wählen\n\n"
                "Ein gutes erstes Projekt:\n\n"
                "- lässt sich in einigen Stunden oder Tagen abschließen;\n"
                "- bringt etwas hervor, das Sie zeigen, nutzen oder überprüfen können;\n"
                "- nutzt die meisten der gefundenen Prinzipien, aber nicht die fortgeschrittenen Teile.\n\n"
                "### Auf einer Seite planen\n\n"
                "Notieren Sie das Ziel, die Schritte, was *fertig* bedeutet, und ein Risiko samt Ihrer "
                "Gegenmaßnahme.\n\n"
                "### Abschließen und auswerten\n\n"
                "Schließen Sie das Projekt ab, auch wenn es nicht perfekt ist. Schreiben Sie danach drei "
                "Zeilen: was funktioniert hat, was nicht und was Sie beim nächsten Mal anders machen würden."
            ),
            "exercise": {
                "task": "Planen Sie ein kleines Projekt mit {s} und schließen Sie es ab.",
                "steps": [
                    "Schreiben Sie einen einseitigen Plan: Ziel, Schritte, was fertig bedeutet und ein Risiko.",
                    "Führen Sie das Projekt durch und notieren Sie, wo Sie hängen geblieben sind.",
                    "Werten Sie das Ergebnis in drei Zeilen aus: was funktioniert hat, was nicht und was Sie ändern würden.",
                ],
                "expected_result": "Ein abgeschlossenes kleines Projekt und eine kurze Auswertung, die zeigt, woran Sie als Nächstes arbeiten.",
            },
            "video": "{topic} Projekt für Anfänger",
        },
        "common_mistakes": {
            "title": "Typische Fehler und wie Sie sie vermeiden",
            "title_in_chapter": "{chapter}: typische Fehler und wie Sie sie vermeiden",
            "body": (
                "Die meisten Einsteiger in {t} machen dieselben wenigen Fehler. Wenn Sie sie vorher "
                "kennen, sparen Sie Zeit und Frust.\n\n"
                "### Typische Fehler\n\n"
                "- **Die Grundlagen überspringen:** zu fortgeschrittenen Techniken greifen, bevor die "
                "Basis sitzt.\n"
                "- **Kopieren ohne Verstehen:** einem Rezept folgen, das nicht mehr funktioniert, sobald "
                "sich die Lage ändert.\n"
                "- **Zu viel auf einmal:** mehrere Dinge gleichzeitig ändern, sodass unklar bleibt, was "
                "geholfen hat.\n"
                "- **Ergebnisse nicht prüfen:** annehmen, dass etwas funktioniert hat, statt es zu überprüfen.\n\n"
                "### So vermeiden Sie sie\n\n"
                "Fragen Sie sich vor jedem Versuch: *Weiß ich, warum ich diesen Schritt mache? Wie prüfe "
                "ich das Ergebnis?* Lautet die Antwort nein, gehen Sie einen Schritt zurück.\n\n"
                "### Von anderen lernen\n\n"
                "Suchen Sie in einer verlässlichen Quelle oder Community nach einer Liste häufiger Fehler "
                "und vergleichen Sie sie mit Ihrem Lernprotokoll."
            ),
            "exercise": {
                "task": "Prüfen Sie Ihre eigene Arbeit zu {t} auf typische Fehler.",
                "steps": [
                    "Gehen Sie Ihr Lernprotokoll oder Ihre Notizen durch und markieren Sie jede Stelle, an der einer der typischen Fehler passiert ist.",
                    "Schreiben Sie zu jedem Fehler, was Sie beim nächsten Mal anders machen.",
                    "Ergänzen Sie einen themenspezifischen Fehler, den Sie in einer verlässlichen Quelle gefunden haben.",
                ],
                "expected_result": "Eine persönliche Liste von Fehlern, auf die Sie achten, jeweils mit einer konkreten Gegenmaßnahme.",
            },
            "video": "{topic} häufige Fehler",
        },
        "troubleshooting": {
            "title": "Fehlersuche, wenn etwas schiefgeht",
            "body": (
                "Früher oder später wird bei {s} etwas nicht wie erwartet funktionieren. Ein ruhiges, "
                "systematisches Vorgehen findet die Ursache schneller als Ausprobieren.\n\n"
                "### Eine Routine zur Fehlersuche\n\n"
                "1. **Das Symptom genau beschreiben:** Was haben Sie erwartet, und was ist stattdessen passiert?\n"
                "2. **Nachstellen:** Können Sie den Fehler absichtlich noch einmal auslösen?\n"
                "3. **Eingrenzen:** Ändern Sie immer nur eine Sache und beobachten Sie, ob sich das Symptom ändert.\n"
                "4. **Annahmen prüfen:** Die Ursache liegt oft dort, wo Sie sicher waren, dass alles stimmt.\n"
                "5. **Gut fragen:** Wenn Sie nicht weiterkommen, beschreiben Sie Ihr Ziel, was Sie "
                "versucht haben und das genaue Ergebnis.\n\n"
                "### Führen Sie ein Problemtagebuch\n\n"
                "Notieren Sie jedes Problem mit Ursache und Lösung. Viele Probleme tauchen wieder auf, "
                "und beim zweiten Mal löst Ihr Tagebuch sie in Sekunden."
            ),
            "exercise": {
                "task": "Lösen Sie ein echtes Problem bei {s} mit der Routine zur Fehlersuche.",
                "steps": [
                    "Beschreiben Sie ein Problem, auf das Sie gestoßen sind: erwartetes und tatsächliches Ergebnis.",
                    "Stellen Sie es nach und ändern Sie immer nur eine Sache, bis sich das Symptom ändert.",
                    "Halten Sie Ursache und Lösung in einem Problemtagebuch fest.",
                ],
                "expected_result": "Ein Tagebucheintrag mit einer genauen Beschreibung, der gefundenen Ursache und der Lösung, die funktioniert hat.",
            },
            "video": "{topic} Fehlersuche",
        },
        "quality_check": {
            "title": "Die Qualität Ihrer Arbeit prüfen",
            "body": (
                "Woran erkennen Sie, ob Ihre Arbeit mit {s} gut ist? Klare Kriterien machen aus einem "
                "vagen Gefühl eine Prüfung, die Sie wiederholen können.\n\n"
                "### Kriterien festlegen\n\n"
                "Nennen Sie drei bis fünf Eigenschaften guter Arbeit bei {s}, zum Beispiel Korrektheit, "
                "Klarheit, Sicherheit, Effizienz oder Nutzen für andere. Schreiben Sie zu jeder auf, "
                "woran Sie sie erkennen würden.\n\n"
                "### Eine Checkliste verwenden\n\n"
                "Machen Sie aus den Kriterien eine kurze Checkliste und gehen Sie sie durch, bevor Sie "
                "etwas für fertig erklären. Eine Checkliste findet die kleinen Dinge, die sonst nur "
                "Erfahrung findet.\n\n"
                "### Rückmeldung einholen\n\n"
                "Zeigen Sie Ihre Arbeit jemandem mit mehr Erfahrung oder vergleichen Sie sie mit einem "
                "guten Beispiel. Stellen Sie konkrete Fragen: *Ist dieser Schritt richtig?* bringt eine "
                "nützlichere Antwort als *Ist das gut?*"
            ),
            "exercise": {
                "task": "Erstellen Sie eine Qualitätscheckliste für Ihre Arbeit mit {s}.",
                "steps": [
                    "Schreiben Sie drei bis fünf Qualitätskriterien auf und woran Sie jedes erkennen.",
                    "Wenden Sie die Checkliste auf Ihr erstes Projekt an und notieren Sie, was sie zeigt.",
                    "Bitten Sie eine Person um Rückmeldung zu einem bestimmten Punkt und aktualisieren Sie die Checkliste.",
                ],
                "expected_result": "Eine erprobte Checkliste mit drei bis fünf Kriterien, verbessert durch Rückmeldungen.",
            },
            "video": "{topic} Tipps und bewährte Methoden",
        },
        "practice_plan": {
            "title": "Ein Plan für regelmäßiges Üben",
            "body": (
                "Fähigkeiten bei {s} wachsen durch regelmäßiges, gezieltes Üben stärker als durch "
                "gelegentliche lange Sitzungen.\n\n"
                "### Kurze, regelmäßige Einheiten planen\n\n"
                "- Wählen Sie einen Rhythmus, den Sie durchhalten, zum Beispiel dreimal pro Woche 30 Minuten.\n"
                "- Geben Sie jeder Einheit ein konkretes Ziel (*X an einem neuen Beispiel üben*), nicht "
                "nur *daran arbeiten*.\n"
                "- Beenden Sie jede Einheit, indem Sie notieren, was Sie beim nächsten Mal tun.\n\n"
                "### An der Grenze Ihres Könnens üben\n\n"
                "Leichte Aufgaben fühlen sich gut an, bringen aber wenig; unlösbare entmutigen. Wählen "
                "Sie Aufgaben, die Sie mit Anstrengung und einigen Fehlern schaffen.\n\n"
                "### Altes und Neues mischen\n\n"
                "Beginnen Sie jede Einheit mit einer kurzen Wiederholung aus einem früheren Kapitel. "
                "Verteilte Wiederholung ist eine der verlässlichsten Methoden, sich etwas zu merken."
            ),
            "exercise": {
                "task": "Schreiben Sie einen Übungsplan für vier Wochen zu {s}.",
                "steps": [
                    "Legen Sie fest, wie viele Einheiten pro Woche Sie durchhalten und wie lange jede dauert.",
                    "Geben Sie jeder Einheit der ersten Woche ein konkretes Ziel.",
                    "Planen Sie zu Beginn jeder Einheit eine kurze Wiederholung von früherem Stoff ein.",
                ],
                "expected_result": "Ein realistischer Vierwochenplan mit konkreten Zielen für die erste Woche und eingeplanten Wiederholungen.",
            },
            "video": "{topic} Übungen",
        },
        "going_deeper": {
            "title": "Tiefer einsteigen",
            "body": (
                "Wenn die Grundlagen von {s} sitzen, können Sie wählen, wo Sie tiefer einsteigen. Nicht "
                "jede Richtung ist für Ihr Ziel gleich nützlich.\n\n"
                "### Die Richtungen finden\n\n"
                "Sehen Sie sich das Inhaltsverzeichnis einer weiterführenden Quelle an oder die Themen, "
                "über die erfahrene Fachleute sprechen. Listen Sie die wichtigsten Bereiche auf, die Sie "
                "noch nicht behandelt haben.\n\n"
                "### Einen auswählen\n\n"
                "Fragen Sie bei jedem Bereich: *Wie sehr hilft er meinem Ziel? Wie schwer ist er mit "
                "meinem jetzigen Wissen?* Beginnen Sie mit dem Bereich, der am meisten hilft und in "
                "Reichweite liegt.\n\n"
                "### Von Praktikern lernen\n\n"
                "Lesen oder schauen Sie, wie erfahrene Menschen arbeiten, und achten Sie auf die "
                "Entscheidungen, die sie treffen, nicht nur auf die Ergebnisse. Eine Community oder eine "
                "Mentorin oder ein Mentor beschleunigt das erheblich."
            ),
            "exercise": {
                "task": "Wählen Sie Ihr nächstes Lerngebiet bei {s}.",
                "steps": [
                    "Listen Sie mindestens vier fortgeschrittene Bereiche auf, aus einer weiterführenden Quelle oder einer Community.",
                    "Bewerten Sie jeden Bereich nach Nutzen für Ihr Ziel und nach Schwierigkeit.",
                    "Wählen Sie einen aus und nennen Sie die erste Quelle, mit der Sie ihn angehen.",
                ],
                "expected_result": "Eine bewertete Liste fortgeschrittener Bereiche und eine klare Wahl des nächsten, mit einer ersten Quelle.",
            },
            "video": "{topic} für Fortgeschrittene",
        },
        "measuring_progress": {
            "title": "Ihren Fortschritt messen",
            "body": (
                "Den eigenen Fortschritt bei {s} unterschätzt man leicht, weil man vergisst, wie wenig "
                "man am Anfang wusste. Ihn zu messen, hält Sie motiviert und zeigt, worauf Sie sich "
                "konzentrieren sollten.\n\n"
                "### Zurück zu Ihrem Ziel\n\n"
                "Lesen Sie das Ziel, das Sie im ersten Kapitel aufgeschrieben haben. Können Sie jetzt, "
                "was Sie beschrieben haben? Wo sind Sie noch unsicher?\n\n"
                "### Belege statt Gefühle\n\n"
                "- Machen Sie eine frühe Übung noch einmal und vergleichen Sie das Ergebnis mit Ihrem "
                "ersten Versuch.\n"
                "- Zählen Sie, was Sie jetzt ohne Hilfe können.\n"
                "- Bitten Sie jemanden, Ihnen eine kleine Aufgabe zu stellen, und sehen Sie, wie Sie sie lösen.\n\n"
                "### Das nächste Ziel setzen\n\n"
                "Schreiben Sie ein neues Ziel auf, das einen Schritt über das erste hinausgeht, und ein "
                "Datum, an dem Sie es überprüfen."
            ),
            "exercise": {
                "task": "Messen Sie Ihren Fortschritt bei {s} an Ihrem Ziel.",
                "steps": [
                    "Lesen Sie Ihr Kursziel und bewerten Sie mit Belegen, wie weit Sie es erreicht haben.",
                    "Machen Sie eine frühe Übung noch einmal und vergleichen Sie sie mit Ihrem ersten Versuch.",
                    "Schreiben Sie Ihr nächstes Ziel und ein Datum für die Überprüfung auf.",
                ],
                "expected_result": "Eine ehrliche, belegte Einschätzung Ihres Fortschritts und ein neues Ziel mit einem Überprüfungsdatum.",
            },
            "video": "{topic} nächste Schritte",
        },
    },
    "article": {
        "title": "Zum Weiterlesen: {chapter}",
        "body": (
            "Dieser Artikel gehört zum Kapitel {t} des Kurses über {s}. Lesen Sie ihn nach den "
            "Lektionen, um das Gelernte zu festigen und weiterzudenken.\n\n"
            "### Worum es im Kapitel geht\n\n"
            "{lessons}\n\n"
            "### Fragen, die Sie in eigenen Worten beantworten\n\n"
            "- Welches Problem löst {t}, und für wen?\n"
            "- Welchen Teil würden Sie einer Kollegin oder einem Kollegen zuerst erklären, und wie?\n"
            "- Wie sähe ein Ergebnis aus, das Sie als gut bezeichnen würden?\n\n"
            "### So kommen Sie weiter\n\n"
            "1. Suchen Sie eine maßgebliche Quelle (offizielle Dokumentation, ein Lehrbuch oder eine "
            "anerkannte Fachperson) und notieren Sie, was sie den Lektionen hinzufügt.\n"
            "2. Vergleichen Sie zwei Beispiele aus der Praxis: Was machen sie gleich, und worin "
            "unterscheiden sie sich?\n"
            "3. Schreiben Sie eine kurze Zusammenfassung von fünf bis zehn Sätzen und legen Sie sie zu "
            "Ihren Notizen.\n\n"
            "> Wenn zwei Quellen sich widersprechen, notieren Sie beide Sichtweisen und suchen Sie nach "
            "dem Grund: Oft beantworten sie unterschiedliche Fragen."
        ),
    },
    "wrapup": {
        "summary": (
            "Sie haben alle Kapitel dieses Kurses über {s} durchgearbeitet: von einer "
            "Arbeitsdefinition und den zentralen Ideen über die Praxis bis zu den Fehlern, die Sie "
            "vermeiden, und dem Weg, wie Sie sich weiter verbessern.\n\n"
            "Was Sie unterwegs erstellt haben (Glossar, Notizen, Lernprotokoll und Checklisten), ist "
            "jetzt Ihr persönliches Nachschlagewerk zu {s}. Halten Sie es aktuell.\n\n"
            "**Als Nächstes:** Lesen Sie Ihr Kursziel noch einmal, setzen Sie Ihr nächstes Ziel und "
            "planen Sie Ihre erste Übungseinheit für diese Woche."
        ),
        "takeaways": [
            "Beginnen Sie mit einer klaren Arbeitsdefinition und einem konkreten Ziel.",
            "Wenden Sie das Gelernte in kleinen Schritten an und prüfen Sie jedes Ergebnis.",
            "Führen Sie Notizen, ein Glossar und ein Lernprotokoll: Sie machen aus Erfahrung Wissen.",
        ],
    },
    "agreement": (
        "Ich bestätige, dass ich den Kurs über {s} abgeschlossen habe. Ich habe seine Kapitel und "
        "Aktivitäten nach bestem Wissen durchgearbeitet. Mir ist bewusst, dass er eine strukturierte "
        "Einführung und keine berufliche Qualifikation ist, und ich werde das Gelernte über {s} "
        "sorgfältig anwenden, meine Arbeit überprüfen und um Hilfe bitten, wenn ich unsicher bin."
    ),
    # A second wording, for an agreement generated again.
    "agreement_variant": (
        "Mit meiner Unterschrift erkläre ich, dass ich an jedem Kapitel des Kurses über {s} teilgenommen "
        "und seine Aktivitäten selbst bearbeitet habe. Ich weiß, dass dieser Kurs in das Thema einführt "
        "und mich darin nicht zertifiziert. Ich verpflichte mich, das Gelernte über {s} verantwortungsvoll "
        "zu nutzen und mir Rat zu holen, sobald eine Situation über den Kursinhalt hinausgeht."
    ),
    "grounded": {
        "headline": "{s}, vermittelt aus Ihren eigenen Dokumenten",
        "intro_sources": "Dieser Kurs ist aus {sources} aufgebaut und folgt deren Gliederung:\n\n{chapters}",
        "intro_method": (
            "Jede Lektion gibt die Kernsätze eines Abschnitts der Quellen in deren eigenen Worten wieder, "
            "ausgewählt danach, wie zentral sie für den Abschnitt sind. Eine nummerierte Markierung nach "
            "einer Passage zeigt, woher sie stammt: Zeigen Sie darauf, tippen Sie darauf oder steuern Sie "
            "sie mit der Tastatur an, um das Zitat zu lesen. Alle Quellen stehen am Ende."
        ),
        "intro_note": (
            "*Nichts wird dem hinzugefügt, was die Quellen sagen: Der Kurs ist genau so korrekt und so "
            "aktuell wie sie.*"
        ),
        "chapter_summary": "Was {source} über {t} sagt.",
        "chapter_summary_outline": "Was Ihre Quellen über {t} sagen.",
        "lesson_part": "{chapter} ({number} von {count})",
        "objectives": [
            {"verb": "wiedergeben", "object": "die Schlüsselbegriffe von {t} im Sinne der Quellen"},
            {"verb": "identifizieren", "object": "die Aussagen der Quellen über {t}"},
        ],
        "exercise": {
            "task": "Übertragen Sie, was die Quellen über {t} sagen, auf Ihr eigenes Umfeld.",
            "steps": [
                "Lesen Sie die Passage noch einmal: {quote}",
                "Notieren Sie die Schlüsselbegriffe, die sie verwendet: {terms}.",
                "Schreiben Sie drei Sätze dazu, wie das für Ihre Arbeit gilt, mit diesen Begriffen.",
                "Prüfen Sie jeden Satz an der Quelle und korrigieren Sie, was sie nicht sagt.",
            ],
            "expected_result": "Eine kurze Notiz in eigenen Worten, die {terms} verwendet und nichts behauptet, was die Quelle nicht sagt.",
        },
        "article_title": "{chapter}: die zentrale Passage",
        "article_lead": "Die Passage im Mittelpunkt dieses Kapitels, wie {source} sie formuliert{page}:",
        "page": ", Seite {page}",
        "slide": ", Folie {page}",
        "wrapup_summary": (
            "Sie haben durchgearbeitet, was Ihre Quellen über {s} sagen. In je einem Satz sagten die "
            "Kapitel:\n\n{chapters}\n\nGehen Sie zu den Quellen zurück, wann immer ein Detail zählt: Die "
            "Markierungen nach jeder Passage zeigen, wo Sie nachsehen."
        ),
        "question": "Welcher Begriff vervollständigt diesen Satz aus der Quelle? {sentence}",
        "explanation": "Die Quelle sagt: {sentence}",
    },
}
