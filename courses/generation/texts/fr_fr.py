"""The offline generator's words in French (France)."""


def _typography(value):
    """French spacing: a non-breaking space before : and inside « », a narrow one before ? ! ;."""
    if isinstance(value, dict):
        return {key: _typography(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_typography(item) for item in value)
    if not isinstance(value, str):
        return value
    for plain, fixed in (
        (" :", "\u00a0:"),
        (" ?", "\u202f?"),
        (" !", "\u202f!"),
        (" ;", "\u202f;"),
        ("« ", "«\u00a0"),
        (" »", "\u00a0»"),
    ):
        value = value.replace(plain, fixed)
    return value


TEXTS = _typography(
    {
        "quotes": ("« ", " »"),
        "headline": "Un cours pratique, pas à pas, sur {s}",
        "intro_opening": "Bienvenue dans ce cours sur {s}.",
        "intro_auto": (
            "Le cours est un parcours structuré en cinq chapitres : il commence par les bases, aborde "
            "ensuite les idées essentielles, les met en pratique, présente les erreurs les plus fréquentes "
            "et se termine par un plan pour continuer à progresser."
        ),
        "intro_outline": (
            "Le cours suit ce plan :\n\n{chapters}\n\n"
            "Chaque chapitre explique en quoi consiste son sujet, montre comment l'appliquer pas à pas et "
            "signale les erreurs les plus fréquentes."
        ),
        "intro_usage": (
            "**Mode d'emploi :** suivez les chapitres dans l'ordre, prenez des notes avec vos propres mots "
            "et faites chaque activité avant de passer à la suite. Quand une leçon vous demande des "
            "exemples ou des sources, choisissez-les dans votre propre contexte : c'est ce qui ancre les "
            "connaissances."
        ),
        "intro_note": (
            "*Ce cours a été construit à partir d'un modèle. Il vous donne la structure et la méthode ; le "
            "contenu précis sur {s} vient des sources et des exemples que vous rassemblerez en chemin.*"
        ),
        "themes": [
            {
                "title": "Premiers pas",
                "summary": "Ce qu'est {s}, où on l'utilise et les termes clés dont vous avez besoin.",
                "takeaway": "Partez d'une définition de travail claire de {s} et d'un objectif concret et vérifiable.",
                "objectives": [
                    {
                        "verb": "expliquer",
                        "object": "ce qu'est {s}, qui l'utilise et quel résultat il produit",
                    },
                    {
                        "verb": "définir",
                        "object": "les termes clés de {s} avec des mots simples, chacun avec un exemple",
                    },
                ],
                "questions": [
                    {
                        "objective": 0,
                        "prompt": "Quelle est la meilleure première étape quand vous commencez à étudier {s} ?",
                        "options": [
                            "Rédiger une définition de travail avec vos mots et la tester sur des exemples",
                            "Mémoriser une longue liste de termes techniques avant de lire autre chose",
                            "Commencer par les contenus avancés pour que les bases paraissent faciles ensuite",
                            "Rassembler et lire les sources disponibles sur le sujet avant de vous exercer",
                        ],
                        "explanation": "Une définition de travail, vérifiée sur des exemples, vous donne un cadre dans lequel chaque détail ultérieur trouve sa place.",
                    },
                    {
                        "objective": 1,
                        "prompt": "Quelle démarche permet de construire un glossaire utile d'un domaine nouveau ?",
                        "options": [
                            "Noter les termes récurrents dans les sources et définir chacun par un exemple",
                            "Recopier les définitions d'un manuel exactement comme elles y sont imprimées",
                            "Traduire chaque mot technique par le mot courant le plus proche que vous connaissez",
                            "Relever les mots les plus rares que vous croisez, car les experts y tiennent beaucoup",
                        ],
                        "explanation": "Les termes qui reviennent d'une source à l'autre sont la base du domaine ; une définition avec vos mots et un exemple montre que vous savez les employer.",
                    },
                ],
            },
            {
                "title": "Les idées essentielles",
                "summary": "Les principes sur lesquels repose {s}, leur articulation et un exemple commenté.",
                "takeaway": "Quelques principes essentiels expliquent l'essentiel de ce que font les praticiens de {s}.",
                "objectives": [
                    {
                        "verb": "décrire",
                        "object": "les principes essentiels de {s} et la raison d'être de chacun",
                    },
                    {
                        "verb": "analyser",
                        "object": "un exemple commenté de {s} étape par étape, en nommant le principe que chaque étape applique",
                    },
                ],
                "questions": [
                    {
                        "objective": 0,
                        "prompt": "Comment savoir si un principe que vous avez noté est utile ?",
                        "options": [
                            "Il aide à prévoir ou à expliquer ce qui se passe dans un cas que vous avez vu",
                            "Il semble convaincant et il est facile à retenir quand vous le relisez plus tard",
                            "Il figure au début de la plupart des manuels d'initiation",
                            "Il regroupe beaucoup de règles à la fois, ce qui laisse moins de choses à retenir",
                        ],
                        "explanation": "Un principe vaut par ce qu'il permet de prévoir ou d'expliquer dans des cas réels, bien plus que par son air convaincant.",
                    },
                    {
                        "objective": 1,
                        "prompt": "Quel est le but principal de l'étude d'un exemple commenté ?",
                        "options": [
                            "Voir chaque étape de la mise en œuvre d'une idée avec le raisonnement qui la guide",
                            "Obtenir un résultat fini que vous pouvez recopier sans devoir l'élaborer vous-même",
                            "Passer les principes et aller droit aux réponses qui comptent dans la pratique",
                            "Confirmer que le sujet est plus facile que ce que laissaient croire les leçons",
                        ],
                        "explanation": "Un exemple commenté rend le raisonnement visible, et c'est ce qui permet d'appliquer l'idée à de nouveaux cas.",
                    },
                ],
            },
            {
                "title": "Passer à la pratique",
                "summary": "Une méthode pas à pas, les bons outils et un premier petit projet avec {s}.",
                "takeaway": "Appliquez {s} par petites étapes menées à terme, et notez chaque essai dans un journal.",
                "objectives": [
                    {
                        "verb": "appliquer",
                        "object": "{s} à un petit cas sans risque avec une méthode en quatre étapes",
                    },
                    {
                        "verb": "planifier",
                        "object": "un premier projet avec {s} dont le résultat est clair et vérifiable",
                    },
                ],
                "questions": [
                    {
                        "objective": 0,
                        "prompt": "Votre premier essai sur une tâche nouvelle a donné un résultat surprenant. Que faire maintenant ?",
                        "options": [
                            "Comparer l'issue avec ce que vous attendiez, changer une chose et recommencer",
                            "Modifier plusieurs réglages à la fois pour trouver plus vite une configuration qui marche",
                            "Passer aussitôt à une version plus grande de la tâche pour avoir plus de données",
                            "Abandonner cette approche et chercher une méthode qui vous convienne mieux",
                        ],
                        "explanation": "Comparer l'issue avec ce que vous attendiez et changer une chose à la fois vous montre l'effet de chaque changement.",
                    },
                    {
                        "objective": 1,
                        "prompt": "Qu'est-ce qui fait un bon premier projet ?",
                        "options": [
                            "Un petit travail que vous terminez en quelques jours, avec un résultat vérifiable",
                            "Le plus grand chantier que vous puissiez imaginer, pour repousser vos limites",
                            "Une tâche fondée sur les techniques les plus avancées dont vous avez entendu parler",
                            "Un effort ouvert, sans fin fixée, pour que vous continuiez à apprendre longtemps",
                        ],
                        "explanation": "Un petit projet mené à terme vous donne vite un retour et vous montre quoi améliorer.",
                    },
                ],
            },
            {
                "title": "Erreurs et dépannage",
                "summary": "Les pièges courants de {s}, la résolution de problèmes et le contrôle de la qualité.",
                "takeaway": "Décrivez les problèmes avec précision, changez une seule chose à la fois et vérifiez les résultats avec des critères clairs.",
                "objectives": [
                    {
                        "verb": "diagnostiquer",
                        "object": "les problèmes de {s} en décrivant le symptôme et en changeant une chose à la fois",
                    },
                    {
                        "verb": "évaluer",
                        "object": "la qualité de votre travail sur {s} à l'aide de critères clairs",
                    },
                ],
                "questions": [
                    {
                        "objective": 0,
                        "prompt": "Dans {s}, quelque chose se comporte autrement que prévu. Que faites-vous d'abord ?",
                        "options": [
                            "Décrire précisément le symptôme : ce que vous vouliez, ce que vous avez vu",
                            "Changer plusieurs choses à la fois, pour trouver la cause plus rapidement",
                            "Reprendre le travail entier depuis le début, étape par étape, avec calme",
                            "Supposer que l'outil est défectueux et en chercher un autre pour le remplacer",
                        ],
                        "explanation": "Une description précise du symptôme est la base pour reproduire le problème et en cerner la cause.",
                    },
                    {
                        "objective": 1,
                        "prompt": "Comment jugez-vous si votre propre travail est assez bon ?",
                        "options": [
                            "En le confrontant à une courte liste de critères écrite à l'avance",
                            "En comparant le temps passé avec celui dont les autres ont besoin",
                            "En vous fiant au sentiment de satisfaction ressenti une fois la tâche finie",
                            "En attendant qu'une autre personne signale des problèmes avant d'améliorer",
                        ],
                        "explanation": "Des critères écrits à l'avance transforment une impression vague en une vérification que vous pouvez répéter.",
                    },
                ],
            },
            {
                "title": "Continuer à progresser",
                "summary": "La pratique régulière, les pistes pour approfondir {s} et la mesure de vos progrès.",
                "takeaway": "Une pratique courte et régulière et une évaluation honnête vous font progresser durablement.",
                "objectives": [
                    {
                        "verb": "concevoir",
                        "object": "un plan de séances de pratique courtes et régulières pour {s}",
                    },
                    {
                        "verb": "évaluer",
                        "object": "vos progrès en {s} au regard de l'objectif fixé au départ",
                    },
                ],
                "questions": [
                    {
                        "objective": 0,
                        "prompt": "Quel est le moyen le plus sûr de continuer à progresser en {s} après le cours ?",
                        "options": [
                            "Des séances de pratique courtes et régulières, chacune avec un but précis",
                            "Une très longue séance chaque trimestre, quand vous trouvez un moment libre",
                            "Relire souvent les leçons plutôt que d'exercer les compétences elles-mêmes",
                            "S'exercer sur des tâches qui semblent déjà faciles, pour prendre confiance",
                        ],
                        "explanation": "Une pratique régulière et délibérée, à la limite de vos capacités et avec des révisions espacées, construit des compétences durables.",
                    },
                    {
                        "objective": 1,
                        "prompt": "Quelle preuve montre le plus clairement vos progrès ?",
                        "options": [
                            "Refaire un exercice du début et le comparer avec votre première tentative",
                            "Le nombre d'heures consacrées au cours depuis le jour où vous l'avez commencé",
                            "La confiance que vous ressentez quand vous lisez sur le sujet ces jours-ci",
                            "La quantité de documents que vous avez lus et surlignés jusqu'à présent",
                        ],
                        "explanation": "Refaire un ancien exercice vous donne la preuve de ce que vous savez faire désormais, plutôt qu'une impression.",
                    },
                ],
            },
        ],
        "outline_chapter": {
            "summary": "En quoi consiste {t}, comment l'appliquer pas à pas et les erreurs courantes à éviter.",
            "takeaway": "{t} : expliquez-le avec vos mots, appliquez-le pas à pas et surveillez les erreurs courantes.",
            "objectives": [
                {"verb": "expliquer", "object": "en quoi consiste {t} et pourquoi c'est important"},
                {"verb": "appliquer", "object": "{t} pas à pas en évitant les erreurs courantes"},
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Quelle est la meilleure façon de vérifier que vous comprenez {t} ?",
                    "options": [
                        "L'expliquer avec vos mots et tester cette explication sur deux exemples",
                        "Relire la leçon jusqu'à pouvoir en réciter par cœur les phrases principales",
                        "Chercher la définition la plus longue possible et la recopier dans vos notes",
                        "Compter combien de fois le terme apparaît dans les sources pour juger de son poids",
                    ],
                    "explanation": "Expliquer {t} avec vos mots et le tester sur des exemples montre ce que vous savez en faire, et pas seulement ce que vous savez répéter.",
                },
                {
                    "objective": 1,
                    "prompt": "Vous appliquez {t} pour la première fois. Quelle méthode aide le plus ?",
                    "options": [
                        "Essayer un petit cas sans risque, vérifier le résultat et ajuster une chose",
                        "Commencer par le plus grand cas dont vous disposez, pour que l'exercice compte",
                        "Changer plusieurs éléments à la fois, pour couvrir davantage",
                        "Garder la vérification des résultats pour la fin, quand il y aura plus à comparer",
                    ],
                    "explanation": "De petits essais, vérifiés et ajustés un par un, montrent comment {t} fonctionne et où il coince.",
                },
                {
                    "objective": 0,
                    "prompt": "Pourquoi est-il utile de savoir à quoi sert {t} avant d'en étudier les détails ?",
                    "options": [
                        "La finalité donne un cadre dans lequel chaque point ultérieur trouve sa place",
                        "Cela permet de sauter les parties du sujet qui semblent plus difficiles au début",
                        "Cela remplace la pratique que les leçons suivantes vous demandent de faire",
                        "Cela fait paraître le sujet plus simple qu'il ne l'est, ce qui entretient l'élan",
                    ],
                    "explanation": "Savoir à quoi sert {t} donne une place à chaque détail : les détails prennent sens et restent en mémoire.",
                },
                {
                    "objective": 1,
                    "prompt": "Quelle habitude vous aide à éviter les erreurs courantes de {t} ?",
                    "options": [
                        "Relire votre journal d'essais à la recherche des fautes déjà commises",
                        "Travailler plus vite, pour avoir moins de temps pour commettre des fautes",
                        "Suivre le premier tutoriel trouvé sans en changer la moindre ligne",
                        "Attendre de vous sentir très sûr de vous avant un premier essai",
                    ],
                    "explanation": "Votre journal montre les erreurs que vous faites souvent, pour que vous les surveilliez au prochain essai.",
                },
            ],
        },
        "lessons": {
            "what_it_is": {
                "title": "De quoi s'agit-il et pourquoi est-ce important ?",
                "title_in_chapter": "{chapter} : de quoi s'agit-il et pourquoi est-ce important ?",
                "body": (
                    "Avant d'apprendre les détails de {t}, faites-vous une idée claire de ce dont il s'agit "
                    "et de ce à quoi cela sert.\n\n"
                    "### Une définition de travail\n\n"
                    "Écrivez une ou deux phrases qui décrivent {t} avec vos propres mots. Une bonne "
                    "définition de travail répond à trois questions :\n\n"
                    "- **Quoi** : s'agit-il d'une compétence, d'un outil, d'une méthode, d'un ensemble de "
                    "connaissances ?\n"
                    "- **Qui** l'utilise, et dans quelles situations ?\n"
                    "- **Quel résultat** cela produit-il ?\n\n"
                    "### Pourquoi c'est important\n\n"
                    "Demandez-vous ce qui se passe quand {t} est bien maîtrisé, et ce qui ne va pas quand il "
                    "manque ou qu'il est mal appliqué. Les conséquences concrètes, comme le temps gagné, les "
                    "erreurs évitées ou de meilleures décisions, sont ce qui fait qu'un sujet mérite vos efforts.\n\n"
                    "### Vérifiez votre compréhension\n\n"
                    "Comparez votre définition avec une source fiable. Gardez ce qui concorde, corrigez le "
                    "reste et notez chaque terme que vous ne savez pas encore expliquer : vous y reviendrez."
                ),
                "exercise": {
                    "task": "Rédigez une définition de travail de {t} et mettez-la à l'épreuve avec des exemples.",
                    "steps": [
                        "Écrivez une ou deux phrases qui disent ce qu'est {t}, qui l'utilise et quel résultat cela produit.",
                        "Trouvez deux exemples réels d'utilisation et une situation où cela ne s'applique pas.",
                        "Ajustez votre définition pour qu'elle convienne aux trois cas.",
                    ],
                    "expected_result": (
                        "Une définition courte que vous savez expliquer à quelqu'un d'autre, appuyée par deux "
                        "exemples et un contre-exemple."
                    ),
                },
                "video": "{topic} explication",
            },
            "where_it_fits": {
                "title": "Où l'utilise-t-on ?",
                "body": (
                    "{s} n'existe pas isolément : des personnes s'en servent, dans des contextes précis, pour "
                    "atteindre des objectifs précis. Cartographier ce contexte vous montre quelles parties "
                    "apprendre en premier.\n\n"
                    "### Cartographiez le contexte\n\n"
                    "- **Situations :** citez trois situations où l'on utilise {s}. Laquelle est la plus "
                    "proche de vos besoins ?\n"
                    "- **Personnes :** qui est concerné : débutants, spécialistes, clients, équipes ?\n"
                    "- **Sujets voisins :** que devez-vous déjà savoir, et qu'est-ce qui vient généralement "
                    "ensuite ?\n\n"
                    "### Fixez votre propre objectif\n\n"
                    "Complétez la phrase : *À la fin de ce cours, je veux être capable de … avec {s}.* "
                    "Rendez-la concrète et vérifiable (« rédiger un rapport simple », « animer une première "
                    "séance », « résoudre les problèmes courants ») plutôt que « tout comprendre ».\n\n"
                    "Gardez cet objectif sous les yeux : le dernier chapitre vous demande de mesurer vos "
                    "progrès par rapport à lui."
                ),
                "exercise": {
                    "task": "Décrivez le contexte dans lequel vous utiliserez {s}.",
                    "steps": [
                        "Citez trois situations où l'on utilise {s} et marquez celle qui vous correspond le mieux.",
                        "Indiquez ce que vous savez déjà et qui vous aide, ainsi qu'une chose que vous devrez apprendre.",
                        "Formulez votre objectif pour le cours en une phrase concrète et vérifiable.",
                    ],
                    "expected_result": "Une carte du contexte tenant sur une page, avec un objectif personnel à vérifier à la fin du cours.",
                },
                "video": "{topic} introduction",
            },
            "key_terms": {
                "title": "Les termes et idées clés",
                "body": (
                    "Chaque domaine a son propre vocabulaire. Apprendre la dizaine de termes qui reviennent "
                    "sans cesse dans {s} rend toutes les sources suivantes plus faciles à lire.\n\n"
                    "### Constituez un glossaire\n\n"
                    "1. Parcourez deux sources d'introduction et notez chaque terme présent dans les deux.\n"
                    "2. Pour chaque terme, écrivez une définition en langage simple et un exemple.\n"
                    "3. Regroupez les termes apparentés : les groupes révèlent souvent les idées principales "
                    "du sujet.\n\n"
                    "### Attention aux pièges\n\n"
                    "- **Les synonymes :** des sources différentes peuvent employer des mots différents pour "
                    "la même chose.\n"
                    "- **Les mots courants au sens particulier :** ce sont les plus faciles à mal comprendre.\n\n"
                    "Votre glossaire est un document vivant : complétez-le à chaque chapitre."
                ),
                "exercise": {
                    "task": "Commencez un glossaire des termes clés de {s}.",
                    "steps": [
                        "Rassemblez au moins huit termes qui apparaissent dans plus d'une source.",
                        "Écrivez pour chaque terme une définition en langage simple et un exemple.",
                        "Regroupez les termes en deux à quatre thèmes et donnez un nom à chaque thème.",
                    ],
                    "expected_result": "Un glossaire d'au moins huit termes, chacun avec une définition et un exemple, regroupés par thème.",
                },
                "video": "{topic} notions de base",
            },
            "core_principles": {
                "title": "Les principes essentiels",
                "body": (
                    "Derrière les détails de {s}, il y a quelques principes qui expliquent l'essentiel de ce "
                    "que font les praticiens. Les repérer vous évite d'apprendre les règles une à une.\n\n"
                    "### Repérez les principes\n\n"
                    "- Regardez les groupes de votre glossaire : quelle idée relie les termes de chaque groupe ?\n"
                    "- Lisez comment deux praticiens expérimentés justifient leurs choix. Quelles raisons "
                    "reviennent sans cesse ?\n"
                    "- Formulez chaque principe comme une règle courte : *Faites X, parce que Y.*\n\n"
                    "### Mettez-les à l'épreuve\n\n"
                    "Un principe est utile s'il vous aide à prévoir ou à expliquer quelque chose. Pour chacun, "
                    "trouvez un cas où le suivre mène à un bon résultat, et un cas où l'ignorer pose problème.\n\n"
                    "Visez trois à cinq principes. Si vous en avez davantage, certains ne sont sans doute que "
                    "des détails d'une idée plus large."
                ),
                "exercise": {
                    "task": "Notez les trois à cinq principes les plus importants de {s}.",
                    "steps": [
                        "Formulez chaque principe comme une règle courte avec sa raison : faites X, parce que Y.",
                        "Pour chaque principe, notez un exemple où il aide et un autre où l'ignorer pose problème.",
                        "Classez les principes selon la fréquence à laquelle ils s'appliquent à votre objectif.",
                    ],
                    "expected_result": "Une liste classée de trois à cinq principes, chacun avec sa raison et deux exemples contrastés.",
                },
                "video": "{topic} principes fondamentaux",
            },
            "how_parts_fit": {
                "title": "Comment les éléments s'articulent",
                "body": (
                    "Connaître les éléments de {s} ne suffit pas : il faut aussi voir comment ils "
                    "s'influencent les uns les autres.\n\n"
                    "### Dessinez une carte\n\n"
                    "Placez les idées principales de votre glossaire sur une page et reliez-les par des "
                    "flèches. Donnez un nom à chaque flèche : *a besoin de*, *produit*, *limite*, *est une "
                    "sorte de*.\n\n"
                    "### Suivez un déroulement\n\n"
                    "Choisissez une tâche typique et suivez-la sur votre carte du début à la fin :\n\n"
                    "1. Qu'est-ce qui vient en premier, et de quoi cela dépend-il ?\n"
                    "2. Où les décisions sont-elles prises, et sur quelle base ?\n"
                    "3. Quel est le résultat final, et comment savez-vous qu'il est bon ?\n\n"
                    "### Cherchez les trous\n\n"
                    "Les endroits où vous ne savez pas tracer de flèche, ou pas dans quel sens, vous montrent "
                    "exactement ce qu'il vous reste à apprendre."
                ),
                "exercise": {
                    "task": "Dessinez une carte conceptuelle de {s}.",
                    "steps": [
                        "Placez six à dix idées clés de votre glossaire sur une page.",
                        "Reliez-les par des flèches nommées : a besoin de, produit, limite, est une sorte de.",
                        "Suivez une tâche typique sur la carte et marquez les endroits où vous avez un doute.",
                    ],
                    "expected_result": "Une carte conceptuelle d'une page, avec des liens nommés et les lacunes de vos connaissances repérées.",
                },
                "video": "{topic} vue d'ensemble",
            },
            "worked_example": {
                "title": "Un exemple commenté",
                "body": (
                    "Un exemple commenté montre chaque étape de la mise en œuvre de {s}, y compris le "
                    "raisonnement qui reste d'habitude implicite. C'est le pont entre comprendre une idée et "
                    "s'en servir.\n\n"
                    "### Étudiez un exemple de près\n\n"
                    "Trouvez un exemple complet dans une source fiable : un tutoriel, une étude de cas, un "
                    "problème résolu. Pour chaque étape, notez :\n\n"
                    "- **ce qui** a été fait ;\n"
                    "- **pourquoi** cela a été fait à ce moment-là ;\n"
                    "- **quel principe** de la leçon précédente cela applique.\n\n"
                    "### Refaites-le vous-même\n\n"
                    "Fermez la source et refaites l'exemple à partir de vos notes. Là où vous bloquez, notez "
                    "l'étape : c'est là que votre compréhension reste fragile.\n\n"
                    "### Changez une chose\n\n"
                    "Enfin, modifiez une donnée ou une condition, prévoyez comment le résultat va changer et "
                    "vérifiez votre prévision."
                ),
                "exercise": {
                    "task": "Refaites un exemple commenté de {s} à partir de vos notes.",
                    "steps": [
                        "Choisissez un exemple complet dans une source fiable et notez pour chaque étape ce qui a été fait, pourquoi et quel principe est appliqué.",
                        "Refaites l'exemple sans regarder la source.",
                        "Modifiez une condition, prévoyez le nouveau résultat et vérifiez-le.",
                    ],
                    "expected_result": (
                        "Un exemple annoté que vous savez reproduire seul, et une variante dont vous avez prévu "
                        "ou compris le résultat."
                    ),
                },
                "video": "{topic} exemple pratique",
            },
            "step_by_step": {
                "title": "Appliquer pas à pas",
                "title_in_chapter": "{chapter} : appliquer pas à pas",
                "body": (
                    "Comprendre {t} ne devient une compétence que lorsque vous passez à la pratique. Une "
                    "méthode simple et répétable vous aide à vous lancer sans vous sentir dépassé.\n\n"
                    "### Une méthode en quatre étapes\n\n"
                    "1. **Préparez :** dites ce que vous voulez obtenir et rassemblez ce dont vous avez besoin.\n"
                    "2. **Faites une petite version :** appliquez d'abord {t} à un cas réduit et sans grand risque.\n"
                    "3. **Vérifiez :** comparez le résultat avec ce que vous attendiez. Qu'est-ce qui diffère ?\n"
                    "4. **Ajustez et recommencez :** changez une seule chose et réessayez, un peu plus "
                    "grand à chaque fois.\n\n"
                    "### Tenez un journal\n\n"
                    "Pour chaque essai, notez la date, ce que vous avez tenté, le résultat et ce que vous "
                    "changerez la prochaine fois. Après quelques tours, le journal montre vos progrès et les "
                    "schémas de vos erreurs.\n\n"
                    "Commencez petit : trois essais courts et aboutis vous apprennent plus qu'un grand essai "
                    "inachevé."
                ),
                "exercise": {
                    "task": "Appliquez {t} à un petit cas avec la méthode en quatre étapes.",
                    "steps": [
                        "Notez l'objectif de votre essai et ce dont vous avez besoin.",
                        "Réalisez une petite version et consignez le résultat dans votre journal.",
                        "Comparez le résultat avec ce que vous attendiez, changez une chose et réessayez.",
                    ],
                    "expected_result": "Deux essais aboutis et consignés dans un journal, avec ce qui a changé entre les deux et pourquoi.",
                },
                "video": "{topic} tutoriel pas à pas",
            },
            "tools_resources": {
                "title": "Outils et ressources",
                "body": (
                    "Les bons outils et les bonnes sources accélèrent l'apprentissage de {s}, mais trop "
                    "d'outils deviennent une distraction. Choisissez un petit ensemble fiable.\n\n"
                    "### Choisissez vos sources\n\n"
                    "- **Une référence** fiable pour les définitions et les règles : documentation "
                    "officielle, manuel de référence ou guide reconnu.\n"
                    "- **Une source pratique** avec des exemples à suivre : tutoriels, études de cas, "
                    "communauté.\n"
                    "- **Une personne ou un groupe** à qui poser vos questions quand vous bloquez.\n\n"
                    "### Choisissez vos outils\n\n"
                    "Faites la liste de ce que les praticiens de {s} utilisent vraiment. Préférez l'outil le "
                    "plus simple qui fait le travail ; vous pourrez en changer plus tard, quand vous saurez "
                    "ce qu'il vous faut.\n\n"
                    "### Évaluez la qualité\n\n"
                    "Vérifiez qui a écrit chaque source, quand elle a été mise à jour et si elle montre son "
                    "raisonnement. Méfiez-vous des sources qui promettent des résultats sans effort."
                ),
                "exercise": {
                    "task": "Constituez votre boîte à outils pour {s}.",
                    "steps": [
                        "Choisissez une source de référence, une source pratique et une personne ou une communauté à qui poser vos questions.",
                        "Listez les outils dont vous avez besoin et choisissez l'option la plus simple pour chacun.",
                        "Vérifiez l'auteur, la date et le raisonnement de chaque source, et remplacez celles qui ne conviennent pas.",
                    ],
                    "expected_result": "Une liste courte et vérifiée des sources et des outils que vous utiliserez pendant le reste du cours.",
                },
                "video": "{topic} outils",
            },
            "first_project": {
                "title": "Votre premier petit projet",
                "body": (
                    "Un petit projet transforme des exercices isolés en un résultat que vous pouvez montrer. "
                    "C'est le meilleur test de ce que vous avez appris jusqu'ici sur {s}.\n\n"
                    "### Choisissez la bonne taille\n\n"
                    "Un bon premier projet :\n\n"
                    "- peut être terminé en quelques heures ou quelques jours ;\n"
                    "- produit quelque chose que vous pouvez montrer, utiliser ou vérifier ;\n"
                    "- mobilise la plupart des principes que vous avez repérés, mais pas les aspects avancés.\n\n"
                    "### Planifiez-le sur une page\n\n"
                    "Notez l'objectif, les étapes, ce que *terminé* veut dire, et un risque avec la façon "
                    "dont vous y ferez face.\n\n"
                    "### Terminez et faites le bilan\n\n"
                    "Menez le projet à son terme, même s'il reste imparfait. Puis écrivez trois lignes : ce "
                    "qui a marché, ce qui n'a pas marché et ce que vous feriez autrement la prochaine fois."
                ),
                "exercise": {
                    "task": "Planifiez et menez à bien un petit projet avec {s}.",
                    "steps": [
                        "Rédigez un plan d'une page : objectif, étapes, définition de terminé et un risque.",
                        "Réalisez le projet et notez les endroits où vous avez bloqué.",
                        "Faites le bilan en trois lignes : ce qui a marché, ce qui n'a pas marché, ce que vous changeriez.",
                    ],
                    "expected_result": "Un petit projet terminé et un bilan court qui vous indique sur quoi travailler ensuite.",
                },
                "video": "{topic} projet pour débutants",
            },
            "common_mistakes": {
                "title": "Les erreurs fréquentes et comment les éviter",
                "title_in_chapter": "{chapter} : les erreurs fréquentes et comment les éviter",
                "body": (
                    "La plupart des débutants en {t} commettent les mêmes quelques erreurs. Les connaître "
                    "à l'avance vous fait gagner du temps et vous épargne bien des frustrations.\n\n"
                    "### Les erreurs typiques\n\n"
                    "- **Sauter les bases :** passer aux techniques avancées avant d'avoir des fondations solides.\n"
                    "- **Copier sans comprendre :** suivre une recette qui cesse de fonctionner dès que la "
                    "situation change.\n"
                    "- **En faire trop à la fois :** changer plusieurs choses ensemble, si bien qu'on ne sait "
                    "plus ce qui a aidé.\n"
                    "- **Ne pas vérifier les résultats :** supposer que cela a marché au lieu de le vérifier.\n\n"
                    "### Comment les éviter\n\n"
                    "Avant chaque essai, demandez-vous : *Est-ce que je sais pourquoi je fais cette étape ? "
                    "Comment vais-je vérifier le résultat ?* Si la réponse est non, revenez une étape en arrière.\n\n"
                    "### Apprenez des autres\n\n"
                    "Cherchez une liste d'erreurs fréquentes dans une source ou une communauté fiable et "
                    "comparez-la avec votre journal."
                ),
                "exercise": {
                    "task": "Passez en revue votre propre travail sur {t} pour y repérer les erreurs fréquentes.",
                    "steps": [
                        "Parcourez votre journal ou vos notes et marquez chaque endroit où l'une des erreurs typiques s'est produite.",
                        "Pour chaque erreur, écrivez ce que vous ferez autrement la prochaine fois.",
                        "Ajoutez une erreur propre à ce sujet, trouvée dans une source fiable.",
                    ],
                    "expected_result": "Une liste personnelle d'erreurs à surveiller, chacune avec une parade concrète.",
                },
                "video": "{topic} erreurs courantes",
            },
            "troubleshooting": {
                "title": "Dépanner quand quelque chose ne va pas",
                "body": (
                    "Tôt ou tard, quelque chose dans {s} ne fonctionnera pas comme prévu. Une démarche calme "
                    "et méthodique trouve la cause plus vite que les essais au hasard.\n\n"
                    "### Une méthode de dépannage\n\n"
                    "1. **Décrivez le symptôme avec précision :** qu'attendiez-vous, et que s'est-il passé à la place ?\n"
                    "2. **Reproduisez-le :** pouvez-vous le faire réapparaître volontairement ?\n"
                    "3. **Circonscrivez-le :** changez une seule chose à la fois et observez si le symptôme change.\n"
                    "4. **Remettez en question vos hypothèses :** la cause se cache souvent là où vous étiez "
                    "sûr que tout allait bien.\n"
                    "5. **Posez de bonnes questions :** si vous bloquez, décrivez votre objectif, ce que vous "
                    "avez essayé et le résultat exact.\n\n"
                    "### Tenez un journal des problèmes\n\n"
                    "Notez chaque problème avec sa cause et sa solution. Beaucoup de problèmes reviennent, et "
                    "la deuxième fois votre journal les résout en quelques secondes."
                ),
                "exercise": {
                    "task": "Résolvez un vrai problème de {s} avec la méthode de dépannage.",
                    "steps": [
                        "Décrivez un problème que vous avez rencontré : le résultat attendu et le résultat obtenu.",
                        "Reproduisez-le et changez une seule chose à la fois jusqu'à ce que le symptôme change.",
                        "Consignez la cause et la solution dans un journal des problèmes.",
                    ],
                    "expected_result": "Une entrée de journal avec une description précise, la cause trouvée et la solution qui a fonctionné.",
                },
                "video": "{topic} résoudre les problèmes",
            },
            "quality_check": {
                "title": "Vérifier la qualité de votre travail",
                "body": (
                    "Comment savoir si votre travail avec {s} est bon ? Des critères clairs transforment une "
                    "impression vague en une vérification que vous pouvez refaire.\n\n"
                    "### Définissez vos critères\n\n"
                    "Listez trois à cinq qualités d'un bon travail en {s}, par exemple l'exactitude, la "
                    "clarté, la sécurité, l'efficacité ou l'utilité pour les autres. Pour chacune, écrivez "
                    "comment vous la reconnaîtriez.\n\n"
                    "### Utilisez une liste de contrôle\n\n"
                    "Transformez ces critères en une courte liste de contrôle et passez-la en revue avant de "
                    "considérer quoi que ce soit comme terminé. Une liste de contrôle repère les petits "
                    "détails que seule l'expérience repère d'habitude.\n\n"
                    "### Demandez des retours\n\n"
                    "Montrez votre travail à une personne plus expérimentée, ou comparez-le avec un bon "
                    "exemple. Posez des questions précises : *Cette étape est-elle correcte ?* obtient une "
                    "réponse plus utile que *Est-ce que c'est bien ?*"
                ),
                "exercise": {
                    "task": "Créez une liste de contrôle qualité pour votre travail en {s}.",
                    "steps": [
                        "Écrivez trois à cinq critères de qualité et la façon de reconnaître chacun.",
                        "Appliquez la liste à votre premier projet et notez ce qu'elle révèle.",
                        "Demandez à une personne un retour sur un point précis et mettez la liste à jour.",
                    ],
                    "expected_result": "Une liste de contrôle testée, de trois à cinq critères, améliorée grâce aux retours.",
                },
                "video": "{topic} bonnes pratiques",
            },
            "practice_plan": {
                "title": "Un plan de pratique régulière",
                "body": (
                    "Les compétences en {s} progressent davantage avec une pratique régulière et délibérée "
                    "qu'avec de longues séances occasionnelles.\n\n"
                    "### Prévoyez des séances courtes et régulières\n\n"
                    "- Choisissez un rythme que vous pouvez tenir, par exemple trois séances de 30 minutes "
                    "par semaine.\n"
                    "- Donnez à chaque séance un objectif précis (*m'exercer à X sur un nouvel exemple*), pas "
                    "seulement *travailler dessus*.\n"
                    "- Terminez chaque séance en notant ce que vous ferez la fois suivante.\n\n"
                    "### Entraînez-vous à la limite de vos capacités\n\n"
                    "Les tâches faciles font plaisir mais apprennent peu ; les tâches impossibles "
                    "découragent. Choisissez des tâches que vous pouvez réussir avec effort et quelques erreurs.\n\n"
                    "### Mélangez l'ancien et le nouveau\n\n"
                    "Commencez chaque séance en reprenant brièvement un point d'un chapitre précédent. "
                    "Espacer les révisions est l'un des moyens les plus sûrs de retenir."
                ),
                "exercise": {
                    "task": "Rédigez un plan de pratique de quatre semaines pour {s}.",
                    "steps": [
                        "Décidez combien de séances par semaine vous pouvez tenir et la durée de chacune.",
                        "Donnez à chaque séance de la première semaine un objectif précis.",
                        "Prévoyez une courte révision des acquis au début de chaque séance.",
                    ],
                    "expected_result": "Un plan réaliste de quatre semaines, avec des objectifs précis pour la première semaine et des révisions régulières.",
                },
                "video": "{topic} exercices pratiques",
            },
            "going_deeper": {
                "title": "Aller plus loin",
                "body": (
                    "Une fois les bases de {s} en place, vous pouvez choisir où approfondir. Toutes les "
                    "directions ne sont pas également utiles pour votre objectif.\n\n"
                    "### Repérez les directions\n\n"
                    "Consultez la table des matières d'une source avancée, ou les sujets dont discutent les "
                    "praticiens expérimentés. Listez les grands domaines que vous n'avez pas encore abordés.\n\n"
                    "### Choisissez-en un\n\n"
                    "Pour chaque domaine, demandez-vous : *Dans quelle mesure m'aiderait-il à atteindre mon "
                    "objectif ? Est-il difficile, compte tenu de ce que je sais ?* Commencez par celui qui "
                    "aide le plus et qui est à votre portée.\n\n"
                    "### Apprenez des praticiens\n\n"
                    "Lisez ou regardez comment travaillent les personnes expérimentées, et observez les "
                    "décisions qu'elles prennent, pas seulement les résultats. Une communauté ou un mentor "
                    "accélère beaucoup ce travail."
                ),
                "exercise": {
                    "task": "Choisissez votre prochain domaine d'étude en {s}.",
                    "steps": [
                        "Listez au moins quatre domaines avancés, tirés d'une source avancée ou d'une communauté.",
                        "Évaluez chaque domaine selon son utilité pour votre objectif et sa difficulté.",
                        "Choisissez-en un et indiquez la première ressource que vous utiliserez pour l'étudier.",
                    ],
                    "expected_result": "Une liste évaluée de domaines avancés et un choix clair du prochain, avec une première ressource.",
                },
                "video": "{topic} niveau avancé",
            },
            "measuring_progress": {
                "title": "Mesurer vos progrès",
                "body": (
                    "On sous-estime facilement ses progrès en {s}, parce qu'on oublie le peu qu'on savait au "
                    "départ. Les mesurer entretient votre motivation et vous montre où concentrer vos efforts.\n\n"
                    "### Revenez à votre objectif\n\n"
                    "Relisez l'objectif que vous avez écrit au premier chapitre. Savez-vous maintenant faire "
                    "ce que vous aviez décrit ? Où avez-vous encore des doutes ?\n\n"
                    "### Appuyez-vous sur des preuves, pas sur des impressions\n\n"
                    "- Refaites un exercice du début et comparez le résultat avec votre premier essai.\n"
                    "- Comptez ce que vous savez désormais faire sans aide.\n"
                    "- Demandez à quelqu'un de vous confier une petite tâche et voyez comment vous vous en sortez.\n\n"
                    "### Fixez l'objectif suivant\n\n"
                    "Écrivez un nouvel objectif qui va un pas plus loin que le premier, et une date pour le "
                    "réexaminer."
                ),
                "exercise": {
                    "task": "Mesurez vos progrès en {s} par rapport à votre objectif.",
                    "steps": [
                        "Relisez l'objectif du cours et évaluez, preuves à l'appui, dans quelle mesure vous l'avez atteint.",
                        "Refaites un exercice du début et comparez-le avec votre premier essai.",
                        "Écrivez votre prochain objectif et une date pour le vérifier.",
                    ],
                    "expected_result": "Une évaluation honnête de vos progrès, appuyée sur des preuves, et un nouvel objectif avec une date de bilan.",
                },
                "video": "{topic} prochaines étapes",
            },
        },
        "article": {
            "title": "Pour aller plus loin : {chapter}",
            "body": (
                "Cet article accompagne le chapitre {t} du cours sur {s}. Lisez-le après les leçons, pour "
                "consolider ce que vous avez appris et aller plus loin.\n\n"
                "### Ce que couvre le chapitre\n\n"
                "{lessons}\n\n"
                "### Questions auxquelles répondre avec vos mots\n\n"
                "- Quel problème {t} résout-il, et pour qui ?\n"
                "- Quelle partie expliqueriez-vous en premier à un collègue, et comment ?\n"
                "- À quoi ressemblerait un résultat que vous jugeriez bon ?\n\n"
                "### Comment aller plus loin\n\n"
                "1. Trouvez une source qui fait autorité (documentation officielle, manuel ou expert reconnu) "
                "et notez ce qu'elle ajoute aux leçons.\n"
                "2. Comparez deux exemples tirés de la pratique : qu'est-ce qu'ils font de la même façon, et "
                "en quoi diffèrent-ils ?\n"
                "3. Rédigez un court résumé de cinq à dix phrases et gardez-le avec vos notes.\n\n"
                "> Quand deux sources se contredisent, notez les deux points de vue et cherchez pourquoi : "
                "souvent, elles ne répondent pas à la même question."
            ),
        },
        "wrapup": {
            "summary": (
                "Vous avez parcouru tous les chapitres de ce cours sur {s} : d'une définition de travail et "
                "des idées clés à la pratique, puis aux erreurs à éviter et à la manière de continuer à "
                "progresser.\n\n"
                "Ce que vous avez produit en chemin (glossaire, notes, journal et listes de contrôle) est "
                "désormais votre référence personnelle sur {s}. Tenez-la à jour.\n\n"
                "**Et ensuite :** relisez l'objectif du cours, fixez votre prochain objectif et prévoyez "
                "votre première séance de pratique dès cette semaine."
            ),
            "takeaways": [
                "Partez d'une définition de travail claire et d'un objectif concret.",
                "Appliquez ce que vous apprenez par petites étapes et vérifiez chaque résultat.",
                "Tenez des notes, un glossaire et un journal : ils transforment l'expérience en savoir.",
            ],
        },
        "agreement": (
            "Je confirme avoir suivi le cours sur {s} jusqu'au bout. J'en ai parcouru les chapitres et les "
            "activités de bonne foi. Je comprends qu'il s'agit d'une introduction structurée et non d'une "
            "qualification professionnelle, et j'appliquerai ce que j'ai appris sur {s} avec soin, en "
            "vérifiant mon travail et en demandant de l'aide en cas de doute."
        ),
        # A second wording, for an agreement generated again.
        "agreement_variant": (
            "En signant, je déclare avoir participé à chaque chapitre du cours sur {s} et en avoir fait "
            "les activités moi-même. Je sais que ce cours présente le sujet et ne me certifie pas dans ce "
            "domaine. Je m'engage à utiliser de manière responsable ce que j'ai appris sur {s} et à "
            "demander conseil dès qu'une situation dépasse ce que le cours a abordé."
        ),
        "grounded": {
            "headline": "{s}, à partir de vos propres documents",
            "intro_sources": "Ce cours est construit à partir de {sources} et en suit la structure :\n\n{chapters}",
            "intro_method": (
                "Chaque leçon reprend les phrases clés d'une section des sources, dans leurs propres mots, "
                "choisies selon leur place centrale dans la section. Une marque numérotée après un passage "
                "indique d'où il vient : survolez-la, touchez-la ou atteignez-la au clavier pour lire la "
                "citation. Toutes les sources sont listées à la fin."
            ),
            "intro_note": (
                "*Rien n'est ajouté à ce que disent les sources : le cours est exactement aussi juste et aussi "
                "à jour qu'elles.*"
            ),
            "chapter_summary": "Ce que {source} dit de {t}.",
            "chapter_summary_outline": "Ce que vos sources disent de {t}.",
            "lesson_part": "{chapter} ({number} sur {count})",
            "objectives": [
                {"verb": "rappeler", "object": "les termes clés de {t} tels que les sources les emploient"},
                {"verb": "identifier", "object": "ce que les sources affirment sur {t}"},
            ],
            "exercise": {
                "task": "Mettez en pratique dans votre propre contexte ce que les sources disent de {t}.",
                "steps": [
                    "Relisez le passage : {quote}",
                    "Notez les termes clés qu'il emploie : {terms}.",
                    "Écrivez trois phrases sur la façon dont cela s'applique à votre travail, avec ces termes.",
                    "Confrontez chaque phrase à la source et corrigez ce qu'elle ne dit pas.",
                ],
                "expected_result": "Une courte note, dans vos mots, qui emploie {terms} et n'affirme rien que la source ne dise pas.",
            },
            "article_title": "{chapter} : le passage central",
            "article_lead": "Le passage au cœur de ce chapitre, tel que {source} le formule{page} :",
            "page": ", page {page}",
            "slide": ", diapositive {page}",
            "wrapup_summary": (
                "Vous avez parcouru ce que vos sources disent de {s}. En une phrase chacun, les chapitres "
                "disaient :\n\n{chapters}\n\nRevenez aux sources dès qu'un détail compte : les marques après "
                "chaque passage indiquent où regarder."
            ),
            "question": "Quel terme complète cette phrase de la source ? {sentence}",
            "explanation": "La source dit : {sentence}",
        },
    }
)
