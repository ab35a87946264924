"""The offline generator's words in Spanish (Spain)."""

TEXTS = {
    "quotes": ("«", "»"),
    "headline": "Un curso práctico, paso a paso, sobre {s}",
    "intro_opening": "Te damos la bienvenida a este curso sobre {s}.",
    "intro_auto": (
        "El curso es un recorrido estructurado en cinco capítulos: empieza por los fundamentos, sigue "
        "con las ideas centrales, lo pone todo en práctica, muestra los errores más habituales y "
        "termina con un plan para que sigas mejorando."
    ),
    "intro_outline": (
        "El curso sigue este índice:\n\n{chapters}\n\n"
        "Cada capítulo explica en qué consiste su tema, muestra cómo aplicarlo paso a paso y señala "
        "los errores más habituales."
    ),
    "intro_usage": (
        "**Cómo usarlo:** sigue los capítulos en orden, toma notas con tus propias palabras y haz cada "
        "actividad antes de continuar. Cuando una lección te pida ejemplos o fuentes, elígelos de tu "
        "propio contexto: eso es lo que hace que el conocimiento se quede."
    ),
    "intro_note": (
        "*Este curso se ha creado a partir de una plantilla. Te da la estructura y el método; los "
        "detalles de {s} salen de las fuentes y los ejemplos que reúnas por el camino.*"
    ),
    "themes": [
        {
            "title": "Primeros pasos",
            "summary": "Qué es {s}, dónde se usa y los términos clave que necesitas.",
            "takeaway": "Parte de una definición de trabajo clara de {s} y de un objetivo concreto y comprobable.",
            "objectives": [
                {"verb": "explicar", "object": "qué es {s}, quién lo usa y qué resultado produce"},
                {
                    "verb": "definir",
                    "object": "los términos clave de {s} con palabras sencillas, cada uno con un ejemplo",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "¿Cuál es el mejor primer paso cuando empiezas a estudiar {s}?",
                    "options": [
                        "Escribir una definición de trabajo con tus palabras y probarla con ejemplos",
                        "Memorizar una larga lista de términos técnicos antes de leer cualquier otra cosa",
                        "Empezar por lo más avanzado para que lo básico parezca fácil más adelante",
                        "Reunir y leer las fuentes disponibles sobre el tema antes de ponerte a practicar",
                    ],
                    "explanation": "Una definición de trabajo, contrastada con ejemplos, te da un marco en el que encaja cada detalle posterior.",
                },
                {
                    "objective": 1,
                    "prompt": "¿Qué enfoque construye un glosario útil de un campo nuevo?",
                    "options": [
                        "Anotar los términos repetidos en las fuentes y definir cada uno con un ejemplo",
                        "Copiar las definiciones de un libro de texto exactamente como aparecen impresas",
                        "Traducir cada palabra técnica por la palabra cotidiana más cercana que conozcas",
                        "Apuntar las palabras más raras que encuentres, porque los expertos las valoran",
                    ],
                    "explanation": "Los términos que se repiten en las fuentes son la base del campo; una definición con tus palabras y un ejemplo demuestra que sabes usarlos.",
                },
            ],
        },
        {
            "title": "Ideas centrales",
            "summary": "Los principios en los que se basa {s}, cómo encajan entre sí y un ejemplo resuelto.",
            "takeaway": "Unos pocos principios centrales explican la mayor parte de lo que hacen los profesionales de {s}.",
            "objectives": [
                {"verb": "describir", "object": "los principios centrales de {s} y la razón de cada uno"},
                {
                    "verb": "analizar",
                    "object": "un ejemplo resuelto de {s} paso a paso, nombrando el principio que aplica cada paso",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "¿Cómo sabes si un principio que has anotado es útil?",
                    "options": [
                        "Te ayuda a predecir o explicar lo que ocurre en un caso que ya has visto",
                        "Suena convincente y es fácil de recordar cuando lo vuelves a leer después",
                        "Aparece en el párrafo inicial de la mayoría de los libros introductorios",
                        "Reúne muchas reglas a la vez, así que tienes menos cosas que memorizar",
                    ],
                    "explanation": "Un principio vale cuando te permite predecir o explicar casos reales, y lo de sonar bien importa poco.",
                },
                {
                    "objective": 1,
                    "prompt": "¿Cuál es el propósito principal de estudiar un ejemplo resuelto?",
                    "options": [
                        "Ver cada paso de la aplicación de una idea junto con el razonamiento que la guía",
                        "Obtener un resultado terminado que puedas copiar sin tener que elaborarlo",
                        "Saltarse los principios e ir directo a las respuestas que importan en la práctica",
                        "Confirmar que el tema es más fácil de lo que sugerían las lecciones iniciales",
                    ],
                    "explanation": "Un ejemplo resuelto hace visible el razonamiento, y eso es lo que permite aplicar la idea a casos nuevos.",
                },
            ],
        },
        {
            "title": "Manos a la obra",
            "summary": "Una rutina paso a paso, las herramientas adecuadas y un primer proyecto pequeño con {s}.",
            "takeaway": "Aplica {s} en pasos pequeños y terminados, y anota cada intento en un diario.",
            "objectives": [
                {
                    "verb": "aplicar",
                    "object": "{s} a un caso pequeño y de bajo riesgo con una rutina de cuatro pasos",
                },
                {
                    "verb": "planificar",
                    "object": "un primer proyecto con {s} que tenga un resultado claro y comprobable",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Tu primer intento en una tarea nueva dio un resultado sorprendente. ¿Qué conviene hacer ahora?",
                    "options": [
                        "Comparar el desenlace con lo que esperabas, cambiar una cosa y repetir la prueba",
                        "Cambiar varios ajustes a la vez para dar antes con una configuración que funcione",
                        "Pasar enseguida a una versión mayor de la tarea para reunir más datos que estudiar",
                        "Abandonar ese enfoque y buscar otro método que encaje mejor con tu forma de ser",
                    ],
                    "explanation": "Comparar el desenlace con lo que esperabas y cambiar una cosa cada vez te muestra el efecto de cada cambio.",
                },
                {
                    "objective": 1,
                    "prompt": "¿Qué caracteriza un buen primer proyecto?",
                    "options": [
                        "Algo pequeño que terminas en pocos días, con un resultado que puedes comprobar",
                        "El trabajo más grande que puedas imaginar, para poner a prueba tus capacidades",
                        "Una tarea basada en las técnicas más avanzadas sobre las que hayas leído algo",
                        "Un esfuerzo abierto, sin un final fijado, para que sigas aprendiendo sin parar",
                    ],
                    "explanation": "Un proyecto pequeño y terminado te da información enseguida y te muestra qué mejorar.",
                },
            ],
        },
        {
            "title": "Errores y resolución de problemas",
            "summary": "Los fallos más habituales con {s}, cómo resolver problemas y cómo comprobar la calidad.",
            "takeaway": "Describe los problemas con precisión, cambia una sola cosa cada vez y comprueba los resultados con criterios claros.",
            "objectives": [
                {
                    "verb": "diagnosticar",
                    "object": "problemas con {s} describiendo el síntoma y cambiando una cosa cada vez",
                },
                {"verb": "evaluar", "object": "la calidad de tu trabajo con {s} frente a criterios claros"},
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Algo en {s} se comporta de forma distinta a lo que esperabas. ¿Qué haces primero?",
                    "options": [
                        "Describir el síntoma con precisión: lo que querías y lo que observaste",
                        "Cambiar varias cosas a la vez, para encontrar la causa mucho más deprisa",
                        "Empezar de nuevo el trabajo completo desde el principio, paso a paso",
                        "Suponer que la herramienta está averiada y buscar otra para usarla",
                    ],
                    "explanation": "Una descripción precisa del síntoma es la base para reproducir el problema y acotarlo.",
                },
                {
                    "objective": 1,
                    "prompt": "¿Cómo juzgas si tu propio trabajo es lo bastante bueno?",
                    "options": [
                        "Lo compruebas con una lista breve de criterios escrita de antemano",
                        "Comparas lo que tardaste con el tiempo que suelen necesitar los demás",
                        "Te fías de la sensación de satisfacción que sientes al terminar la tarea",
                        "Esperas a que alguien señale problemas antes de decidir mejorar algo",
                    ],
                    "explanation": "Unos criterios escritos de antemano convierten una impresión vaga en una comprobación que puedes repetir.",
                },
            ],
        },
        {
            "title": "Sigue mejorando",
            "summary": "Práctica regular, dónde profundizar en {s} y cómo medir tu progreso.",
            "takeaway": "La práctica breve y regular y una evaluación honesta te mantienen en progreso.",
            "objectives": [
                {
                    "verb": "diseñar",
                    "object": "un plan de sesiones de práctica breves y regulares para {s}",
                },
                {
                    "verb": "evaluar",
                    "object": "tu progreso con {s} frente al objetivo que fijaste al principio",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "¿Cuál es la forma más fiable de seguir mejorando en {s} después del curso?",
                    "options": [
                        "Sesiones de práctica breves y regulares, cada una con una meta concreta",
                        "Una sesión muy larga cada trimestre, cuando encuentres un hueco libre",
                        "Releer las lecciones con frecuencia en lugar de practicar las habilidades",
                        "Practicar las tareas que ya te resultan fáciles, para ganar confianza",
                    ],
                    "explanation": "La práctica regular y deliberada, en el límite de tu capacidad y con repasos espaciados, construye habilidades duraderas.",
                },
                {
                    "objective": 1,
                    "prompt": "¿Qué prueba muestra tu progreso con más claridad?",
                    "options": [
                        "Rehacer un ejercicio del principio y compararlo con tu primer intento",
                        "El número de horas que has dedicado al curso desde el día en que empezaste",
                        "La confianza que sientes cuando lees sobre el tema en estos días",
                        "La cantidad de material que has leído y subrayado hasta el momento",
                    ],
                    "explanation": "Rehacer un ejercicio antiguo te da pruebas de lo que ya sabes hacer, en lugar de una impresión.",
                },
            ],
        },
    ],
    "outline_chapter": {
        "summary": "En qué consiste {t}, cómo aplicarlo paso a paso y los errores habituales que conviene evitar.",
        "takeaway": "{t}: explícalo con tus palabras, aplícalo paso a paso y vigila los errores habituales.",
        "objectives": [
            {"verb": "explicar", "object": "en qué consiste {t} y por qué importa"},
            {"verb": "aplicar", "object": "{t} paso a paso, evitando los errores habituales"},
        ],
        "questions": [
            {
                "objective": 0,
                "prompt": "¿Cuál es la mejor manera de comprobar que entiendes {t}?",
                "options": [
                    "Explicarlo con tus palabras y probar esa explicación con dos ejemplos",
                    "Releer la lección hasta poder recitar de memoria sus frases principales",
                    "Buscar la definición más larga que encuentres y copiarla en tus notas",
                    "Contar cuántas veces aparece en las fuentes para juzgar su importancia",
                ],
                "explanation": "Explicar {t} con tus palabras y probarlo con ejemplos muestra lo que sabes hacer con el tema, más allá de lo que sabes repetir.",
            },
            {
                "objective": 1,
                "prompt": "Vas a aplicar {t} por primera vez. ¿Qué rutina ayuda más?",
                "options": [
                    "Probar un caso pequeño y de bajo riesgo, revisar el resultado y ajustar una cosa",
                    "Empezar por el caso más grande que tengas, para que la práctica cuente de verdad",
                    "Cambiar varias partes a la vez, para que cada intento abarque más terreno",
                    "Dejar la revisión de resultados para el final, cuando haya más que comparar",
                ],
                "explanation": "Los intentos pequeños, revisados y ajustados uno a uno, muestran cómo funciona {t} y dónde falla.",
            },
            {
                "objective": 0,
                "prompt": "¿Por qué ayuda saber para qué sirve {t} antes de estudiar los detalles?",
                "options": [
                    "La finalidad te da un marco en el que encaja cada punto posterior",
                    "Permite saltarse las partes del tema que parecen más difíciles al inicio",
                    "Sustituye la práctica que te piden las lecciones siguientes",
                    "Hace que el tema parezca más sencillo de lo que es, y eso motiva",
                ],
                "explanation": "Saber para qué sirve {t} da un lugar a cada detalle, así que los detalles cobran sentido y se recuerdan.",
            },
            {
                "objective": 1,
                "prompt": "¿Qué hábito te ayuda a evitar los errores habituales de {t}?",
                "options": [
                    "Repasar tu diario de intentos en busca de fallos que ya cometiste",
                    "Trabajar más deprisa, para tener menos tiempo de cometer fallos",
                    "Seguir el primer tutorial que encuentres sin cambiarle una coma",
                    "Esperar a sentirte muy seguro antes de hacer un primer intento serio",
                ],
                "explanation": "Tu diario muestra los errores que sueles cometer, para que estés atento a ellos en el siguiente intento.",
            },
        ],
    },
    "lessons": {
        "what_it_is": {
            "title": "Qué es y por qué importa",
            "title_in_chapter": "{chapter}: qué es y por qué importa",
            "body": (
                "Antes de aprender los detalles de {t}, hazte una idea clara de qué es y para qué sirve.\n\n"
                "### Una definición de trabajo\n\n"
                "Escribe una o dos frases que describan {t} con tus propias palabras. Una buena "
                "definición de trabajo responde a tres preguntas:\n\n"
                "- **Qué** es: ¿una habilidad, una herramienta, un método, un conjunto de conocimientos?\n"
                "- **Quién** lo usa, y en qué situaciones.\n"
                "- **Qué resultado** produce.\n\n"
                "### Por qué importa\n\n"
                "Pregúntate qué ocurre cuando {t} se hace bien y qué falla cuando falta o se hace mal. "
                "Las consecuencias concretas, como el tiempo que se ahorra, los errores que se evitan o "
                "las mejores decisiones, son lo que hace que un tema merezca tu esfuerzo.\n\n"
                "### Comprueba lo que has entendido\n\n"
                "Compara tu definición con una fuente fiable. Quédate con lo que coincide, corrige lo que "
                "no y apunta cada término que todavía no sepas explicar: volverás a él."
            ),
            "exercise": {
                "task": "Escribe una definición de trabajo de {t} y ponla a prueba con ejemplos.",
                "steps": [
                    "Escribe una o dos frases que digan qué es {t}, quién lo usa y qué resultado produce.",
                    "Busca dos ejemplos reales de uso y una situación en la que no se aplique.",
                    "Ajusta tu definición para que encaje en los tres casos.",
                ],
                "expected_result": (
                    "Una definición breve que sabes explicar a otra persona, respaldada por dos ejemplos y "
                    "un contraejemplo."
                ),
            },
            "video": "{topic} explicación",
        },
        "where_it_fits": {
            "title": "Dónde se usa",
            "body": (
                "{s} no existe de forma aislada: hay personas que lo usan en lugares concretos para "
                "lograr objetivos concretos. Trazar ese contexto te muestra qué partes aprender primero.\n\n"
                "### Traza el contexto\n\n"
                "- **Situaciones:** enumera tres situaciones en las que se usa {s}. ¿Cuál se parece más "
                "a lo que tú necesitas?\n"
                "- **Personas:** ¿quién participa: principiantes, especialistas, clientes, equipos?\n"
                "- **Temas cercanos:** ¿qué necesitas saber ya, y qué suele venir después?\n\n"
                "### Fija tu propio objetivo\n\n"
                "Completa la frase: *Al terminar este curso quiero ser capaz de … con {s}.* Hazlo "
                "concreto y comprobable («redactar un informe sencillo», «dirigir una primera sesión», "
                "«resolver los problemas habituales») en lugar de «entenderlo todo».\n\n"
                "Ten el objetivo a la vista: el último capítulo te pide que midas tu progreso con respecto a él."
            ),
            "exercise": {
                "task": "Describe el contexto en el que vas a usar {s}.",
                "steps": [
                    "Enumera tres situaciones en las que se usa {s} y marca la que más se parece a la tuya.",
                    "Indica lo que ya sabes y te ayuda, y una cosa que tendrás que aprender.",
                    "Escribe tu objetivo para el curso en una frase concreta y comprobable.",
                ],
                "expected_result": "Un mapa del contexto en una página, con un objetivo personal que podrás comprobar al final del curso.",
            },
            "video": "{topic} introducción",
        },
        "key_terms": {
            "title": "Términos e ideas clave",
            "body": (
                "Cada campo tiene su propio vocabulario. Aprender la decena de términos que aparecen una "
                "y otra vez en {s} hace que cualquier fuente posterior sea más fácil de leer.\n\n"
                "### Crea un glosario\n\n"
                "1. Echa un vistazo a dos fuentes introductorias y apunta cada término que aparezca en ambas.\n"
                "2. Para cada término, escribe una definición en lenguaje sencillo y un ejemplo.\n"
                "3. Agrupa los términos relacionados: los grupos suelen revelar las ideas principales del tema.\n\n"
                "### Presta atención a\n\n"
                "- **Los sinónimos:** fuentes distintas pueden usar palabras distintas para lo mismo.\n"
                "- **Las palabras cotidianas con un significado especial:** son las más fáciles de "
                "malinterpretar.\n\n"
                "Tu glosario es un documento vivo: amplíalo en cada capítulo."
            ),
            "exercise": {
                "task": "Empieza un glosario de los términos clave de {s}.",
                "steps": [
                    "Reúne al menos ocho términos que aparezcan en más de una fuente.",
                    "Escribe para cada término una definición en lenguaje sencillo y un ejemplo.",
                    "Agrupa los términos en dos a cuatro temas y ponle nombre a cada tema.",
                ],
                "expected_result": "Un glosario de al menos ocho términos, cada uno con su definición y un ejemplo, agrupados por temas.",
            },
            "video": "{topic} conceptos básicos",
        },
        "core_principles": {
            "title": "Los principios centrales",
            "body": (
                "Detrás de los detalles de {s} hay unos pocos principios que explican la mayor parte de "
                "lo que hacen los profesionales. Encontrarlos te ahorra memorizar las reglas una a una.\n\n"
                "### Encuentra los principios\n\n"
                "- Mira los grupos de tu glosario: ¿qué idea une los términos de cada grupo?\n"
                "- Lee cómo explican sus decisiones dos profesionales con experiencia. ¿Qué motivos "
                "aparecen una y otra vez?\n"
                "- Escribe cada principio como una regla breve: *Haz X, porque Y.*\n\n"
                "### Ponlos a prueba\n\n"
                "Un principio es útil si te ayuda a predecir o explicar algo. Para cada uno, busca un "
                "caso en el que seguirlo lleve a un buen resultado y otro en el que ignorarlo cause un "
                "problema.\n\n"
                "Intenta quedarte con entre tres y cinco principios. Si tienes más, probablemente algunos "
                "sean detalles de una idea mayor."
            ),
            "exercise": {
                "task": "Anota los tres a cinco principios más importantes de {s}.",
                "steps": [
                    "Escribe cada principio como una regla breve con su motivo: haz X, porque Y.",
                    "Para cada principio, anota un ejemplo en el que ayude y otro en el que ignorarlo cause problemas.",
                    "Ordena los principios según la frecuencia con la que se aplican a tu objetivo.",
                ],
                "expected_result": "Una lista ordenada de tres a cinco principios, cada uno con su motivo y dos ejemplos contrapuestos.",
            },
            "video": "{topic} fundamentos",
        },
        "how_parts_fit": {
            "title": "Cómo encajan las piezas",
            "body": (
                "No basta con conocer las partes de {s}: también necesitas ver cómo se influyen entre sí.\n\n"
                "### Dibuja un mapa\n\n"
                "Pon las ideas principales de tu glosario en una página y únelas con flechas. Ponle una "
                "etiqueta a cada flecha: *necesita*, *produce*, *limita*, *es un tipo de*.\n\n"
                "### Sigue un flujo\n\n"
                "Elige una tarea típica y recórrela en tu mapa de principio a fin:\n\n"
                "1. ¿Qué va primero, y de qué depende?\n"
                "2. ¿Dónde se toman decisiones, y con qué criterio?\n"
                "3. ¿Cuál es el resultado final, y cómo sabes que es bueno?\n\n"
                "### Busca los huecos\n\n"
                "Los puntos en los que no puedes dibujar una flecha, o no estás seguro de su dirección, "
                "te muestran exactamente qué aprender a continuación."
            ),
            "exercise": {
                "task": "Dibuja un mapa conceptual de {s}.",
                "steps": [
                    "Coloca entre seis y diez ideas clave de tu glosario en una página.",
                    "Únelas con flechas etiquetadas: necesita, produce, limita, es un tipo de.",
                    "Recorre el mapa con una tarea típica y marca los puntos en los que tengas dudas.",
                ],
                "expected_result": "Un mapa conceptual de una página con las conexiones etiquetadas y los huecos de tu conocimiento marcados.",
            },
            "video": "{topic} visión general",
        },
        "worked_example": {
            "title": "Un ejemplo resuelto",
            "body": (
                "Un ejemplo resuelto muestra cada paso de la aplicación de {s}, incluido el razonamiento "
                "que normalmente no se dice. Es el puente entre entender una idea y usarla.\n\n"
                "### Estudia un ejemplo a fondo\n\n"
                "Busca un ejemplo completo en una fuente fiable: un tutorial, un caso práctico, un "
                "problema resuelto. Para cada paso, apunta:\n\n"
                "- **qué** se hizo;\n"
                "- **por qué** se hizo en ese momento;\n"
                "- **qué principio** de la lección anterior aplica.\n\n"
                "### Rehazlo tú\n\n"
                "Cierra la fuente y rehaz el ejemplo a partir de tus notas. Donde te atasques, anota el "
                "paso: ahí es donde tu comprensión todavía es débil.\n\n"
                "### Cambia una cosa\n\n"
                "Por último, cambia un dato o una condición, predice cómo cambiará el resultado y "
                "comprueba tu predicción."
            ),
            "exercise": {
                "task": "Rehaz un ejemplo resuelto de {s} a partir de tus notas.",
                "steps": [
                    "Elige un ejemplo completo de una fuente fiable y anota en cada paso qué se hizo, por qué y qué principio aplica.",
                    "Rehaz el ejemplo sin mirar la fuente.",
                    "Cambia una condición, predice el nuevo resultado y compruébalo.",
                ],
                "expected_result": (
                    "Un ejemplo comentado que sabes reproducir por tu cuenta y una variante cuyo resultado "
                    "predijiste o ahora entiendes."
                ),
            },
            "video": "{topic} ejemplo práctico",
        },
        "step_by_step": {
            "title": "Aplicarlo paso a paso",
            "title_in_chapter": "{chapter}: aplicarlo paso a paso",
            "body": (
                "Entender {t} solo se convierte en una habilidad cuando lo aplicas. Una rutina sencilla y "
                "repetible te ayuda a empezar sin agobiarte.\n\n"
                "### Una rutina en cuatro pasos\n\n"
                "1. **Prepara:** di qué quieres conseguir y reúne lo que necesitas.\n"
                "2. **Haz una versión pequeña:** aplica {t} primero a un caso pequeño y de poco riesgo.\n"
                "3. **Comprueba:** compara el resultado con lo que esperabas. ¿Qué es distinto?\n"
                "4. **Ajusta y repite:** cambia una sola cosa y vuelve a intentarlo, un poco más grande "
                "cada vez.\n\n"
                "### Lleva un diario\n\n"
                "En cada intento, apunta la fecha, lo que probaste, el resultado y lo que cambiarás la "
                "próxima vez. Tras unas cuantas rondas, el diario muestra tu progreso y los patrones de "
                "tus errores.\n\n"
                "Empieza por algo pequeño: tres intentos breves y terminados enseñan más que uno grande "
                "sin terminar."
            ),
            "exercise": {
                "task": "Aplica {t} a un caso pequeño con la rutina de cuatro pasos.",
                "steps": [
                    "Apunta el objetivo de tu intento y lo que necesitas para él.",
                    "Haz una versión pequeña y anota el resultado en tu diario.",
                    "Compara el resultado con lo que esperabas, cambia una cosa y vuelve a intentarlo.",
                ],
                "expected_result": "Dos intentos terminados y anotados en un diario, con lo que cambió entre ellos y por qué.",
            },
            "video": "{topic} paso a paso",
        },
        "tools_resources": {
            "title": "Herramientas y recursos",
            "body": (
                "Las herramientas y fuentes adecuadas hacen que aprender {s} sea más rápido, pero "
                "demasiadas se convierten en una distracción. Elige un conjunto pequeño y fiable.\n\n"
                "### Elige tus fuentes\n\n"
                "- **Una referencia** fiable para definiciones y reglas: documentación oficial, un manual "
                "de referencia o una guía reconocida.\n"
                "- **Una fuente práctica** con ejemplos que puedas seguir: tutoriales, casos prácticos, "
                "una comunidad.\n"
                "- **Una persona o un grupo** a quien preguntar cuando te atasques.\n\n"
                "### Elige tus herramientas\n\n"
                "Haz una lista de lo que usan de verdad los profesionales de {s}. Prefiere la herramienta "
                "más sencilla que cumpla su función; podrás cambiar más adelante, cuando sepas qué necesitas.\n\n"
                "### Valora la calidad\n\n"
                "Comprueba quién escribió cada fuente, cuándo se actualizó por última vez y si muestra su "
                "razonamiento. Desconfía de las fuentes que prometen resultados sin esfuerzo."
            ),
            "exercise": {
                "task": "Reúne tu caja de herramientas para {s}.",
                "steps": [
                    "Elige una fuente de referencia, una fuente práctica y una persona o comunidad a quien preguntar.",
                    "Haz una lista de las herramientas que necesitas y elige la opción más sencilla para cada una.",
                    "Comprueba el autor, la fecha y el razonamiento de cada fuente, y sustituye las que no pasen la prueba.",
                ],
                "expected_result": "Una lista breve y comprobada de las fuentes y herramientas que usarás durante el resto del curso.",
            },
            "video": "{topic} herramientas",
        },
        "first_project": {
            "title": "Tu primer proyecto pequeño",
            "body": (
                "Un proyecto pequeño convierte ejercicios sueltos en un resultado que puedes enseñar. Es "
                "la mejor prueba de lo que has aprendido hasta ahora sobre {s}.\n\n"
                "### Elige el tamaño adecuado\n\n"
                "Un buen primer proyecto:\n\n"
                "- se puede terminar en unas horas o unos días;\n"
                "- produce algo que puedes enseñar, usar o comprobar;\n"
                "- usa la mayoría de los principios que has encontrado, pero no las partes avanzadas.\n\n"
                "### Planifícalo en una página\n\n"
                "Escribe el objetivo, los pasos, qué significa *terminado* y un riesgo, con lo que harás "
                "al respecto.\n\n"
                "### Termina y revisa\n\n"
                "Completa el proyecto, aunque no quede perfecto. Después escribe tres líneas: qué "
                "funcionó, qué no y qué harías de otra manera la próxima vez."
            ),
            "exercise": {
                "task": "Planifica y termina un proyecto pequeño con {s}.",
                "steps": [
                    "Escribe un plan de una página: objetivo, pasos, qué significa terminado y un riesgo.",
                    "Lleva a cabo el proyecto y anota dónde te atascaste.",
                    "Revisa el resultado en tres líneas: qué funcionó, qué no y qué cambiarías.",
                ],
                "expected_result": "Un proyecto pequeño terminado y una revisión breve que te dice en qué trabajar a continuación.",
            },
            "video": "{topic} proyecto para principiantes",
        },
        "common_mistakes": {
            "title": "Errores habituales y cómo evitarlos",
            "title_in_chapter": "{chapter}: errores habituales y cómo evitarlos",
            "body": (
                "La mayoría de quienes empiezan con {t} cometen los mismos pocos errores. Conocerlos de "
                "antemano te ahorra tiempo y frustración.\n\n"
                "### Errores típicos\n\n"
                "- **Saltarse lo básico:** pasar a técnicas avanzadas antes de tener una base sólida.\n"
                "- **Copiar sin entender:** seguir una receta que deja de funcionar en cuanto cambia la "
                "situación.\n"
                "- **Hacer demasiado a la vez:** cambiar varias cosas juntas, de modo que no sabes qué ayudó.\n"
                "- **No comprobar los resultados:** dar por hecho que algo funcionó en lugar de verificarlo.\n\n"
                "### Cómo evitarlos\n\n"
                "Antes de cada intento, pregúntate: *¿Sé por qué hago este paso? ¿Cómo voy a comprobar el "
                "resultado?* Si la respuesta es no, vuelve un paso atrás.\n\n"
                "### Aprende de los demás\n\n"
                "Busca una lista de errores frecuentes en una fuente o comunidad fiable y compárala con "
                "tu diario."
            ),
            "exercise": {
                "task": "Revisa tu propio trabajo con {t} en busca de errores habituales.",
                "steps": [
                    "Recorre tu diario o tus notas y marca cada punto en el que se produjo uno de los errores típicos.",
                    "Para cada error, escribe qué harás de otra manera la próxima vez.",
                    "Añade un error propio de este tema que hayas encontrado en una fuente fiable.",
                ],
                "expected_result": "Una lista personal de errores que vigilar, cada uno con una medida concreta para evitarlo.",
            },
            "video": "{topic} errores comunes",
        },
        "troubleshooting": {
            "title": "Resolver problemas cuando algo falla",
            "body": (
                "Tarde o temprano, algo de {s} no funcionará como esperabas. Un enfoque tranquilo y "
                "sistemático encuentra la causa antes que el método de prueba y error.\n\n"
                "### Una rutina para resolver problemas\n\n"
                "1. **Describe el síntoma con precisión:** ¿qué esperabas y qué ha pasado en su lugar?\n"
                "2. **Reprodúcelo:** ¿puedes hacer que vuelva a ocurrir a propósito?\n"
                "3. **Acota:** cambia una sola cosa cada vez y observa si el síntoma cambia.\n"
                "4. **Revisa tus suposiciones:** la causa suele estar en algo que dabas por bueno.\n"
                "5. **Pregunta bien:** si te atascas, describe tu objetivo, lo que has probado y el "
                "resultado exacto.\n\n"
                "### Lleva un diario de problemas\n\n"
                "Anota cada problema con su causa y su solución. Muchos problemas vuelven, y la segunda "
                "vez tu diario los resuelve en segundos."
            ),
            "exercise": {
                "task": "Resuelve un problema real de {s} con la rutina de resolución de problemas.",
                "steps": [
                    "Describe un problema que hayas tenido: el resultado esperado y el resultado real.",
                    "Reprodúcelo y cambia una sola cosa cada vez hasta que cambie el síntoma.",
                    "Anota la causa y la solución en un diario de problemas.",
                ],
                "expected_result": "Una entrada del diario con una descripción precisa, la causa que encontraste y la solución que funcionó.",
            },
            "video": "{topic} solución de problemas",
        },
        "quality_check": {
            "title": "Comprobar la calidad de tu trabajo",
            "body": (
                "¿Cómo sabes si tu trabajo con {s} es bueno? Unos criterios claros convierten una "
                "sensación vaga en una comprobación que puedes repetir.\n\n"
                "### Define tus criterios\n\n"
                "Enumera entre tres y cinco cualidades de un buen trabajo en {s}, por ejemplo corrección, "
                "claridad, seguridad, eficiencia o utilidad para los demás. Para cada una, escribe cómo "
                "la reconocerías.\n\n"
                "### Usa una lista de control\n\n"
                "Convierte los criterios en una lista de control breve y repásala antes de dar nada por "
                "terminado. Una lista de control detecta los pequeños detalles que normalmente solo "
                "detecta la experiencia.\n\n"
                "### Pide opiniones\n\n"
                "Enseña tu trabajo a alguien con más experiencia o compáralo con un buen ejemplo. Haz "
                "preguntas concretas: *¿Es correcto este paso?* obtiene una respuesta más útil que "
                "*¿Está bien?*"
            ),
            "exercise": {
                "task": "Crea una lista de control de calidad para tu trabajo con {s}.",
                "steps": [
                    "Escribe entre tres y cinco criterios de calidad y cómo reconoces cada uno.",
                    "Aplica la lista a tu primer proyecto y anota lo que revela.",
                    "Pide a una persona su opinión sobre un punto concreto y actualiza la lista.",
                ],
                "expected_result": "Una lista de control probada, con tres a cinco criterios, mejorada con las opiniones recibidas.",
            },
            "video": "{topic} buenas prácticas",
        },
        "practice_plan": {
            "title": "Un plan de práctica regular",
            "body": (
                "Las habilidades en {s} crecen más con una práctica regular y deliberada que con sesiones "
                "largas de vez en cuando.\n\n"
                "### Planifica sesiones breves y regulares\n\n"
                "- Elige un ritmo que puedas mantener, por ejemplo tres sesiones de 30 minutos a la semana.\n"
                "- Dale a cada sesión un objetivo concreto (*practicar X con un ejemplo nuevo*) y no solo "
                "*trabajar en ello*.\n"
                "- Termina cada sesión apuntando qué harás en la siguiente.\n\n"
                "### Practica en el límite de tu capacidad\n\n"
                "Las tareas fáciles resultan agradables, pero enseñan poco; las imposibles desaniman. "
                "Elige tareas que puedas hacer con esfuerzo y algún error.\n\n"
                "### Mezcla lo antiguo y lo nuevo\n\n"
                "Empieza cada sesión repasando brevemente algo de un capítulo anterior. Espaciar los "
                "repasos es una de las formas más fiables de recordar."
            ),
            "exercise": {
                "task": "Escribe un plan de práctica de cuatro semanas para {s}.",
                "steps": [
                    "Decide cuántas sesiones a la semana puedes mantener y cuánto dura cada una.",
                    "Dale a cada sesión de la primera semana un objetivo concreto.",
                    "Programa un repaso breve de lo anterior al principio de cada sesión.",
                ],
                "expected_result": "Un plan realista de cuatro semanas, con objetivos concretos para la primera semana y repasos regulares.",
            },
            "video": "{topic} práctica",
        },
        "going_deeper": {
            "title": "Profundizar",
            "body": (
                "Una vez que tengas la base de {s}, puedes elegir en qué profundizar. No todas las "
                "direcciones son igual de útiles para tu objetivo.\n\n"
                "### Encuentra las direcciones\n\n"
                "Mira el índice de una fuente avanzada o los temas que tratan los profesionales con "
                "experiencia. Haz una lista de las áreas principales que todavía no has estudiado.\n\n"
                "### Elige una\n\n"
                "Para cada área, pregúntate: *¿Cuánto me ayudaría a lograr mi objetivo? ¿Qué dificultad "
                "tiene, con lo que ya sé?* Empieza por la que más ayuda y está a tu alcance.\n\n"
                "### Aprende de quienes lo practican\n\n"
                "Lee o mira cómo trabajan las personas con experiencia y fíjate en las decisiones que "
                "toman, no solo en los resultados. Una comunidad o un mentor aceleran mucho este proceso."
            ),
            "exercise": {
                "task": "Elige tu próxima área de estudio en {s}.",
                "steps": [
                    "Enumera al menos cuatro áreas avanzadas, sacadas de una fuente avanzada o de una comunidad.",
                    "Valora cada área según su utilidad para tu objetivo y su dificultad.",
                    "Elige una e indica el primer recurso que usarás para estudiarla.",
                ],
                "expected_result": "Una lista valorada de áreas avanzadas y una elección clara de la siguiente, con un primer recurso.",
            },
            "video": "{topic} nivel avanzado",
        },
        "measuring_progress": {
            "title": "Medir tu progreso",
            "body": (
                "Es fácil subestimar el progreso en {s}, porque olvidas lo poco que sabías al principio. "
                "Medirlo te mantiene motivado y te muestra dónde concentrarte.\n\n"
                "### Vuelve a tu objetivo\n\n"
                "Relee el objetivo que escribiste en el primer capítulo. ¿Ya eres capaz de hacer lo que "
                "describiste? ¿Dónde sigues teniendo dudas?\n\n"
                "### Usa pruebas, no impresiones\n\n"
                "- Rehaz un ejercicio del principio y compara el resultado con tu primer intento.\n"
                "- Cuenta lo que ya puedes hacer sin ayuda.\n"
                "- Pide a alguien que te ponga una tarea pequeña y observa cómo la resuelves.\n\n"
                "### Fija el siguiente objetivo\n\n"
                "Escribe un objetivo nuevo que vaya un paso más allá del primero y una fecha para revisarlo."
            ),
            "exercise": {
                "task": "Mide tu progreso en {s} con respecto a tu objetivo.",
                "steps": [
                    "Relee el objetivo del curso y valora, con pruebas, hasta qué punto lo has alcanzado.",
                    "Rehaz un ejercicio del principio y compáralo con tu primer intento.",
                    "Escribe tu siguiente objetivo y una fecha para comprobarlo.",
                ],
                "expected_result": "Una valoración honesta de tu progreso, respaldada por pruebas, y un objetivo nuevo con fecha de revisión.",
            },
            "video": "{topic} siguientes pasos",
        },
    },
    "article": {
        "title": "Lectura complementaria: {chapter}",
        "body": (
            "Este artículo acompaña al capítulo {t} del curso sobre {s}. Léelo después de las lecciones "
            "para afianzar lo que has aprendido y llegar más lejos.\n\n"
            "### Qué trata el capítulo\n\n"
            "{lessons}\n\n"
            "### Preguntas para responder con tus palabras\n\n"
            "- ¿Qué problema resuelve {t}, y para quién?\n"
            "- ¿Qué parte le explicarías primero a un compañero, y cómo?\n"
            "- ¿Cómo sería un resultado que considerarías bueno?\n\n"
            "### Cómo llegar más lejos\n\n"
            "1. Busca una fuente de referencia (documentación oficial, un manual o un experto reconocido) "
            "y anota lo que añade a las lecciones.\n"
            "2. Compara dos ejemplos de la práctica real: ¿qué hacen igual y en qué se diferencian?\n"
            "3. Escribe un resumen breve, de cinco a diez frases, y guárdalo con tus notas.\n\n"
            "> Cuando dos fuentes no estén de acuerdo, anota los dos puntos de vista y busca el motivo: a "
            "menudo responden a preguntas distintas."
        ),
    },
    "wrapup": {
        "summary": (
            "Has recorrido todos los capítulos de este curso sobre {s}: desde una definición de trabajo y "
            "las ideas clave, pasando por la práctica, hasta los errores que conviene evitar y la manera "
            "de seguir mejorando.\n\n"
            "Lo que has ido produciendo por el camino (glosario, notas, diario y listas de control) es "
            "ahora tu referencia personal sobre {s}. Mantenlo al día.\n\n"
            "**Siguiente paso:** relee el objetivo del curso, fija tu próximo objetivo y reserva tu "
            "primera sesión de práctica para esta semana."
        ),
        "takeaways": [
            "Parte de una definición de trabajo clara y de un objetivo concreto.",
            "Aplica lo que aprendes en pasos pequeños y comprueba cada resultado.",
            "Lleva notas, un glosario y un diario: convierten la experiencia en conocimiento.",
        ],
    },
    "agreement": (
        "Confirmo que he completado el curso sobre {s}. He trabajado sus capítulos y actividades de "
        "buena fe. Entiendo que se trata de una introducción estructurada y no de una cualificación "
        "profesional, y aplicaré lo que he aprendido sobre {s} con cuidado, comprobando mi trabajo y "
        "pidiendo ayuda cuando tenga dudas."
    ),
    # A second wording, for an agreement generated again.
    "agreement_variant": (
        "Al firmar, declaro que he participado en todos los capítulos del curso sobre {s} y que he "
        "realizado sus actividades por mi cuenta. Sé que este curso presenta el tema y no me certifica "
        "en él. Me comprometo a usar con responsabilidad lo que he aprendido sobre {s} y a pedir consejo "
        "siempre que una situación vaya más allá de lo que el curso ha tratado."
    ),
    "grounded": {
        "headline": "{s}, a partir de tus propios documentos",
        "intro_sources": "Este curso se ha construido a partir de {sources} y sigue su estructura:\n\n{chapters}",
        "intro_method": (
            "Cada lección recoge las frases clave de una sección de las fuentes, con sus propias palabras, "
            "elegidas según lo centrales que son en ella. Una marca numerada tras un pasaje indica de dónde "
            "procede: señálala, tócala o llega a ella con el teclado para leer la cita. Todas las fuentes "
            "aparecen al final."
        ),
        "intro_note": (
            "*No se añade nada a lo que dicen las fuentes: el curso es exactamente tan exacto y tan actual "
            "como ellas.*"
        ),
        "chapter_summary": "Lo que {source} dice sobre {t}.",
        "chapter_summary_outline": "Lo que tus fuentes dicen sobre {t}.",
        "lesson_part": "{chapter} ({number} de {count})",
        "objectives": [
            {"verb": "recordar", "object": "los términos clave de {t} tal como los usan las fuentes"},
            {"verb": "identificar", "object": "lo que las fuentes afirman sobre {t}"},
        ],
        "exercise": {
            "task": "Aplica a tu propio contexto lo que las fuentes dicen sobre {t}.",
            "steps": [
                "Vuelve a leer el pasaje: {quote}",
                "Anota los términos clave que usa: {terms}.",
                "Escribe tres frases sobre cómo se aplica esto a tu trabajo, con esos términos.",
                "Contrasta cada frase con la fuente y corrige lo que ella no dice.",
            ],
            "expected_result": "Una nota breve, con tus palabras, que usa {terms} y no afirma nada que la fuente no diga.",
        },
        "article_title": "{chapter}: el pasaje central",
        "article_lead": "El pasaje central de este capítulo, tal como lo expone {source}{page}:",
        "page": ", página {page}",
        "slide": ", diapositiva {page}",
        "wrapup_summary": (
            "Has recorrido lo que tus fuentes dicen sobre {s}. En una frase cada uno, los capítulos "
            "decían:\n\n{chapters}\n\nVuelve a las fuentes siempre que un detalle importe: las marcas "
            "tras cada pasaje indican dónde mirar."
        ),
        "question": "¿Qué término completa esta frase de la fuente? {sentence}",
        "explanation": "La fuente dice: {sentence}",
    },
}
