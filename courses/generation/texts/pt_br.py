"""The offline generator's words in Brazilian Portuguese."""

TEXTS = {
    "quotes": ("“", "”"),
    "headline": "Um curso prático, passo a passo, sobre {s}",
    "intro_opening": "Boas-vindas a este curso sobre {s}.",
    "intro_auto": (
        "O curso é um caminho estruturado em cinco capítulos: começa pelos fundamentos, passa pelas "
        "ideias centrais, coloca tudo em prática, mostra os erros mais comuns e termina com um plano "
        "para você continuar evoluindo."
    ),
    "intro_outline": (
        "O curso segue este roteiro:\n\n{chapters}\n\n"
        "Cada capítulo explica o que é o tema, mostra como aplicá-lo passo a passo e aponta os erros "
        "mais comuns."
    ),
    "intro_usage": (
        "**Como usar:** siga os capítulos na ordem, faça anotações com as suas próprias palavras e "
        "realize cada atividade antes de seguir em frente. Quando uma lição pedir exemplos ou fontes, "
        "escolha-os no seu próprio contexto: é isso que faz o conhecimento ficar."
    ),
    "intro_note": (
        "*Este curso foi montado a partir de um modelo. Ele oferece a estrutura e o método; os detalhes "
        "de {s} vêm das fontes e dos exemplos que você reunir ao longo do caminho.*"
    ),
    "themes": [
        {
            "title": "Primeiros passos",
            "summary": "O que é {s}, onde se usa e os termos-chave de que você precisa.",
            "takeaway": "Comece com uma definição de trabalho clara de {s} e uma meta concreta e verificável.",
            "objectives": [
                {"verb": "explicar", "object": "o que é {s}, quem usa e que resultado produz"},
                {
                    "verb": "definir",
                    "object": "os termos-chave de {s} em linguagem simples, cada um com um exemplo",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Qual é o melhor primeiro passo quando você começa a estudar {s}?",
                    "options": [
                        "Escrever uma definição de trabalho com suas palavras e testá-la em exemplos",
                        "Decorar uma longa lista de termos técnicos antes de ler qualquer outra coisa",
                        "Começar pelo material mais avançado para que o básico pareça fácil depois",
                        "Reunir e ler as fontes disponíveis sobre o tema antes de começar a praticar",
                    ],
                    "explanation": "Uma definição de trabalho, conferida com exemplos, dá a você uma estrutura na qual cada detalhe posterior se encaixa.",
                },
                {
                    "objective": 1,
                    "prompt": "Que abordagem constrói um glossário útil de uma área nova?",
                    "options": [
                        "Anotar os termos que se repetem nas fontes e definir cada um com um exemplo",
                        "Copiar as definições de um livro didático exatamente como estão impressas",
                        "Traduzir cada palavra técnica pela palavra cotidiana mais próxima que conhece",
                        "Listar as palavras mais raras que encontrar, porque os especialistas as valorizam",
                    ],
                    "explanation": "Os termos que se repetem nas fontes são a base da área; uma definição com suas palavras e um exemplo mostra que você sabe usá-los.",
                },
            ],
        },
        {
            "title": "Ideias centrais",
            "summary": "Os princípios por trás de {s}, como eles se encaixam e um exemplo resolvido.",
            "takeaway": "Poucos princípios centrais explicam a maior parte do que fazem os profissionais de {s}.",
            "objectives": [
                {
                    "verb": "descrever",
                    "object": "os princípios centrais de {s} e a razão por trás de cada um",
                },
                {
                    "verb": "analisar",
                    "object": "um exemplo resolvido de {s} passo a passo, nomeando o princípio que cada passo aplica",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Como saber se um princípio que você anotou é útil?",
                    "options": [
                        "Ele ajuda a prever ou explicar o que acontece em um caso que você já viu",
                        "Ele soa convincente e é fácil de lembrar quando você o relê mais tarde",
                        "Ele aparece no parágrafo de abertura da maioria dos livros introdutórios",
                        "Ele reúne muitas regras de uma vez, e assim há menos coisas para decorar",
                    ],
                    "explanation": "Um princípio vale quando permite prever ou explicar casos reais, e não quando apenas soa correto.",
                },
                {
                    "objective": 1,
                    "prompt": "Qual é o principal propósito de estudar um exemplo resolvido?",
                    "options": [
                        "Ver cada passo da aplicação de uma ideia junto com o raciocínio por trás dela",
                        "Obter um resultado pronto que você pode copiar sem precisar elaborá-lo",
                        "Pular os princípios e ir direto às respostas que importam na prática",
                        "Confirmar que o tema é mais fácil do que as lições introdutórias davam a entender",
                    ],
                    "explanation": "Um exemplo resolvido torna o raciocínio visível, e é isso que permite aplicar a ideia a casos novos.",
                },
            ],
        },
        {
            "title": "Mãos à obra",
            "summary": "Uma rotina passo a passo, as ferramentas certas e um primeiro projeto pequeno com {s}.",
            "takeaway": "Aplique {s} em passos pequenos e concluídos, e registre cada tentativa em um diário.",
            "objectives": [
                {
                    "verb": "aplicar",
                    "object": "{s} a um caso pequeno e de baixo risco com uma rotina de quatro passos",
                },
                {
                    "verb": "planejar",
                    "object": "um primeiro projeto com {s} que tenha um resultado claro e verificável",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Sua primeira tentativa em uma tarefa nova deu um resultado surpreendente. Qual é a melhor jogada agora?",
                    "options": [
                        "Comparar o desfecho com o que você esperava, mudar uma coisa e fazer outra vez",
                        "Mudar várias configurações ao mesmo tempo para achar uma que funcione mais cedo",
                        "Partir logo para uma versão maior da tarefa para ter mais dados para estudar",
                        "Abandonar essa abordagem e procurar outro método que combine mais com você",
                    ],
                    "explanation": "Comparar o desfecho com a sua expectativa e mudar uma coisa de cada vez mostra o efeito de cada mudança.",
                },
                {
                    "objective": 1,
                    "prompt": "O que caracteriza um bom primeiro projeto?",
                    "options": [
                        "Algo pequeno que você conclui em poucos dias, com um resultado verificável",
                        "O maior trabalho que você consegue imaginar, para desafiar as suas capacidades",
                        "Uma tarefa baseada nas técnicas mais avançadas sobre as quais você já leu algo",
                        "Um esforço aberto, sem um fim definido, para que você continue aprendendo",
                    ],
                    "explanation": "Um projeto pequeno e concluído dá retorno rápido e mostra o que melhorar.",
                },
            ],
        },
        {
            "title": "Erros e solução de problemas",
            "summary": "As armadilhas mais comuns de {s}, como resolver problemas e como verificar a qualidade.",
            "takeaway": "Descreva os problemas com precisão, mude uma coisa de cada vez e confira os resultados com critérios claros.",
            "objectives": [
                {
                    "verb": "diagnosticar",
                    "object": "problemas em {s} descrevendo o sintoma e mudando uma coisa de cada vez",
                },
                {"verb": "avaliar", "object": "a qualidade do seu trabalho em {s} com critérios claros"},
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Algo em {s} se comporta de um jeito diferente do que você esperava. O que fazer primeiro?",
                    "options": [
                        "Descrever o sintoma com precisão: o que você queria e o que observou",
                        "Mudar várias coisas ao mesmo tempo, para achar a causa mais depressa",
                        "Recomeçar o trabalho inteiro desde o início, passo a passo, com calma",
                        "Supor que a ferramenta está com defeito e procurar outra para usar",
                    ],
                    "explanation": "Uma descrição precisa do sintoma é a base para reproduzir o problema e delimitá-lo.",
                },
                {
                    "objective": 1,
                    "prompt": "Como julgar se o seu próprio trabalho está bom o suficiente?",
                    "options": [
                        "Conferi-lo com uma lista curta de critérios escrita com antecedência",
                        "Comparar quanto tempo levou com o tempo que outras pessoas costumam levar",
                        "Confiar na sensação de satisfação que aparece depois de terminar a tarefa",
                        "Esperar que alguém aponte problemas antes de decidir melhorar alguma coisa",
                    ],
                    "explanation": "Critérios escritos com antecedência transformam uma impressão vaga em uma verificação que pode ser repetida.",
                },
            ],
        },
        {
            "title": "Continue evoluindo",
            "summary": "Prática regular, onde se aprofundar em {s} e como medir o seu progresso.",
            "takeaway": "Prática curta e regular e uma avaliação honesta mantêm você evoluindo.",
            "objectives": [
                {
                    "verb": "projetar",
                    "object": "um plano de sessões de prática curtas e regulares para {s}",
                },
                {
                    "verb": "avaliar",
                    "object": "o seu progresso em {s} em relação à meta definida no início",
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": "Qual é a forma mais confiável de continuar evoluindo em {s} depois do curso?",
                    "options": [
                        "Sessões de prática curtas e regulares, cada uma com uma meta específica",
                        "Uma sessão muito longa a cada trimestre, quando você encontrar um tempo",
                        "Reler as lições com frequência em vez de praticar as habilidades",
                        "Praticar as tarefas que já parecem fáceis, para ganhar confiança",
                    ],
                    "explanation": "A prática regular e deliberada, no limite da sua capacidade e com revisões espaçadas, constrói habilidades duradouras.",
                },
                {
                    "objective": 1,
                    "prompt": "Que evidência mostra o seu progresso com mais clareza?",
                    "options": [
                        "Refazer um exercício do início e comparar com a sua primeira tentativa",
                        "O número de horas que você dedicou ao curso desde o dia em que começou",
                        "A confiança que você sente quando lê sobre o tema nos dias de hoje",
                        "A quantidade de material que você leu e destacou até este momento",
                    ],
                    "explanation": "Refazer um exercício antigo dá evidências do que você já consegue fazer, em vez de uma impressão.",
                },
            ],
        },
    ],
    "outline_chapter": {
        "summary": "O que é {t}, como aplicar passo a passo e os erros comuns que você deve evitar.",
        "takeaway": "{t}: explique com as suas palavras, aplique passo a passo e fique atento aos erros comuns.",
        "objectives": [
            {"verb": "explicar", "object": "o que é {t} e por que importa"},
            {"verb": "aplicar", "object": "{t} passo a passo, evitando os erros comuns"},
        ],
        "questions": [
            {
                "objective": 0,
                "prompt": "Qual é a melhor forma de verificar que você entende {t}?",
                "options": [
                    "Explicar com as suas palavras e testar a explicação em dois exemplos",
                    "Reler a lição até conseguir recitar as frases principais de cor",
                    "Buscar a definição mais longa que encontrar e copiá-la nas anotações",
                    "Contar quantas vezes aparece nas fontes para julgar a sua importância",
                ],
                "explanation": "Explicar {t} com as suas palavras e testar isso em exemplos mostra o que você consegue fazer com o tema, e não o que consegue repetir.",
            },
            {
                "objective": 1,
                "prompt": "Você vai aplicar {t} pela primeira vez. Que rotina ajuda mais?",
                "options": [
                    "Tentar um caso pequeno e de baixo risco, conferir e ajustar uma coisa",
                    "Começar pelo maior caso que você tem, para que a prática valha a pena",
                    "Mudar várias partes de uma vez, para que cada tentativa cubra mais terreno",
                    "Deixar a conferência dos resultados para o final, quando houver mais dados",
                ],
                "explanation": "Tentativas pequenas, cada uma conferida e ajustada, mostram como {t} funciona e onde dá errado.",
            },
            {
                "objective": 0,
                "prompt": "Por que ajuda saber para que serve {t} antes de estudar os detalhes?",
                "options": [
                    "A finalidade dá uma estrutura na qual cada ponto posterior se encaixa",
                    "Permite pular as partes do tema que parecem mais difíceis logo no começo",
                    "Substitui a prática que as lições seguintes pedem que você faça",
                    "Faz o tema parecer mais simples do que é, o que mantém a motivação",
                ],
                "explanation": "Saber para que serve {t} dá um lugar a cada detalhe, e assim os detalhes fazem sentido e ficam na memória.",
            },
            {
                "objective": 1,
                "prompt": "Que hábito ajuda você a evitar os erros comuns de {t}?",
                "options": [
                    "Revisar o seu diário de tentativas em busca de falhas já cometidas",
                    "Trabalhar mais depressa, para ter menos tempo de cometer falhas",
                    "Seguir o primeiro tutorial que encontrar sem mudar coisa alguma",
                    "Esperar até se sentir bem confiante antes de uma primeira tentativa",
                ],
                "explanation": "O seu diário mostra os erros que você costuma cometer, para que possa ficar atento a eles na próxima tentativa.",
            },
        ],
    },
    "lessons": {
        "what_it_is": {
            "title": "O que é e por que importa",
            "title_in_chapter": "{chapter}: o que é e por que importa",
            "body": (
                "Antes de aprender os detalhes de {t}, forme uma ideia clara do que é e para que serve.\n\n"
                "### Uma definição de trabalho\n\n"
                "Escreva uma ou duas frases que descrevam {t} com as suas próprias palavras. Uma boa "
                "definição de trabalho responde a três perguntas:\n\n"
                "- **O que** é? Uma habilidade, uma ferramenta, um método, um conjunto de conhecimentos?\n"
                "- **Quem** usa, e em quais situações?\n"
                "- **Que resultado** produz?\n\n"
                "### Por que importa\n\n"
                "Pergunte a si mesmo o que acontece quando {t} é bem aplicado e o que dá errado quando "
                "falta ou é mal aplicado. Consequências concretas, como tempo economizado, menos erros ou decisões "
                "melhores, são o que fazem um tema valer o seu esforço.\n\n"
                "### Confira o seu entendimento\n\n"
                "Compare a sua definição com uma fonte confiável. Mantenha o que coincide, corrija o que "
                "não coincide e anote todo termo que você ainda não consegue explicar: você vai voltar a ele."
            ),
            "exercise": {
                "task": "Escreva uma definição de trabalho de {t} e teste-a com exemplos.",
                "steps": [
                    "Escreva uma ou duas frases dizendo o que é {t}, quem usa isso e que resultado produz.",
                    "Encontre dois exemplos reais de uso e uma situação em que não se aplica.",
                    "Ajuste a sua definição para que ela sirva para os três casos.",
                ],
                "expected_result": (
                    "Uma definição curta que você consegue explicar a outra pessoa, apoiada em dois exemplos "
                    "e um contraexemplo."
                ),
            },
            "video": "{topic} explicação",
        },
        "where_it_fits": {
            "title": "Onde é usado",
            "body": (
                "{s} não existe isoladamente: pessoas usam isso em lugares específicos para alcançar "
                "objetivos específicos. Mapear esse contexto mostra quais partes aprender primeiro.\n\n"
                "### Mapeie o contexto\n\n"
                "- **Situações:** liste três situações em que se usa {s}. Qual delas está mais próxima "
                "das suas necessidades?\n"
                "- **Pessoas:** quem está envolvido: iniciantes, especialistas, clientes, equipes?\n"
                "- **Temas vizinhos:** o que você já precisa saber, e o que costuma vir depois?\n\n"
                "### Defina a sua meta\n\n"
                "Complete a frase: *Depois deste curso, quero ser capaz de … com {s}.* Deixe a meta "
                "concreta e verificável (“escrever um relatório simples”, “conduzir uma primeira "
                "sessão”, “resolver os problemas mais comuns”) em vez de “entender tudo”.\n\n"
                "Deixe a meta à vista: o último capítulo pede que você meça o seu progresso em relação a ela."
            ),
            "exercise": {
                "task": "Descreva o contexto em que você vai usar {s}.",
                "steps": [
                    "Liste três situações em que se usa {s} e marque a que está mais próxima de você.",
                    "Diga o que você já sabe que ajuda e uma coisa que ainda precisa aprender.",
                    "Escreva a sua meta para o curso em uma frase concreta e verificável.",
                ],
                "expected_result": "Um mapa do contexto em uma página, com uma meta pessoal que você pode conferir no fim do curso.",
            },
            "video": "{topic} introdução",
        },
        "key_terms": {
            "title": "Termos e ideias-chave",
            "body": (
                "Toda área tem o seu próprio vocabulário. Aprender os dez ou tantos termos que aparecem o "
                "tempo todo em {s} torna mais fácil a leitura de qualquer fonte depois.\n\n"
                "### Monte um glossário\n\n"
                "1. Dê uma olhada em duas fontes introdutórias e anote todo termo que aparece nas duas.\n"
                "2. Para cada termo, escreva uma definição em linguagem simples e um exemplo.\n"
                "3. Agrupe os termos relacionados: os grupos costumam revelar as ideias principais do tema.\n\n"
                "### Cuidado com\n\n"
                "- **Sinônimos:** fontes diferentes podem usar palavras diferentes para a mesma coisa.\n"
                "- **Palavras do dia a dia com sentido especial:** são as mais fáceis de entender errado.\n\n"
                "O seu glossário é um documento vivo: acrescente termos a ele em todos os capítulos."
            ),
            "exercise": {
                "task": "Comece um glossário dos termos-chave de {s}.",
                "steps": [
                    "Reúna pelo menos oito termos que aparecem em mais de uma fonte.",
                    "Escreva para cada termo uma definição em linguagem simples e um exemplo.",
                    "Agrupe os termos em dois a quatro temas e dê um nome a cada tema.",
                ],
                "expected_result": "Um glossário com pelo menos oito termos, cada um com definição e exemplo, agrupados por tema.",
            },
            "video": "{topic} conceitos básicos",
        },
        "core_principles": {
            "title": "Os princípios centrais",
            "body": (
                "Por trás dos detalhes de {s} existem alguns princípios que explicam a maior parte do que "
                "os profissionais fazem. Encontrá-los poupa você de decorar regras uma por uma.\n\n"
                "### Encontre os princípios\n\n"
                "- Observe os grupos do seu glossário: que ideia liga os termos de cada grupo?\n"
                "- Leia como dois profissionais experientes explicam as suas escolhas. Quais motivos "
                "aparecem de novo e de novo?\n"
                "- Escreva cada princípio como uma regra curta: *Faça X, porque Y.*\n\n"
                "### Teste-os\n\n"
                "Um princípio é útil se ajuda você a prever ou explicar algo. Para cada um, encontre um "
                "caso em que segui-lo leva a um bom resultado e um caso em que ignorá-lo causa um problema.\n\n"
                "Procure chegar a três a cinco princípios. Se tiver mais, alguns provavelmente são "
                "detalhes de uma ideia maior."
            ),
            "exercise": {
                "task": "Anote os três a cinco princípios mais importantes de {s}.",
                "steps": [
                    "Escreva cada princípio como uma regra curta com o seu motivo: faça X, porque Y.",
                    "Para cada princípio, anote um exemplo em que ele ajuda e outro em que ignorá-lo causa problemas.",
                    "Ordene os princípios pela frequência com que se aplicam à sua meta.",
                ],
                "expected_result": "Uma lista ordenada de três a cinco princípios, cada um com um motivo e dois exemplos contrastantes.",
            },
            "video": "{topic} fundamentos",
        },
        "how_parts_fit": {
            "title": "Como as partes se encaixam",
            "body": (
                "Conhecer as partes de {s} não basta: você também precisa ver como elas influenciam "
                "umas às outras.\n\n"
                "### Desenhe um mapa\n\n"
                "Coloque as ideias principais do seu glossário em uma página e ligue-as com setas. Dê um "
                "rótulo a cada seta: *precisa de*, *produz*, *limita*, *é um tipo de*.\n\n"
                "### Siga um fluxo\n\n"
                "Escolha uma tarefa típica e percorra o seu mapa do começo ao fim:\n\n"
                "1. O que vem primeiro, e do que isso depende?\n"
                "2. Onde as decisões são tomadas, e com base em quê?\n"
                "3. Qual é o resultado final, e como você sabe que ele é bom?\n\n"
                "### Procure as lacunas\n\n"
                "Os pontos em que você não consegue desenhar uma seta, ou não tem certeza da direção "
                "dela, mostram exatamente o que aprender a seguir."
            ),
            "exercise": {
                "task": "Desenhe um mapa conceitual de {s}.",
                "steps": [
                    "Coloque de seis a dez ideias-chave do seu glossário em uma página.",
                    "Ligue-as com setas rotuladas: precisa de, produz, limita, é um tipo de.",
                    "Percorra o mapa com uma tarefa típica e marque os pontos em que você não tem certeza.",
                ],
                "expected_result": "Um mapa conceitual de uma página, com ligações rotuladas e as lacunas do seu conhecimento marcadas.",
            },
            "video": "{topic} visão geral",
        },
        "worked_example": {
            "title": "Um exemplo resolvido",
            "body": (
                "Um exemplo resolvido mostra cada passo da aplicação de {s}, inclusive o raciocínio que "
                "normalmente fica implícito. Ele é a ponte entre entender uma ideia e usá-la.\n\n"
                "### Estude um exemplo de perto\n\n"
                "Encontre um exemplo completo em uma fonte confiável: um tutorial, um estudo de caso, um "
                "problema resolvido. Para cada passo, anote:\n\n"
                "- **o que** foi feito;\n"
                "- **por que** foi feito naquele momento;\n"
                "- **qual princípio** da lição anterior ele aplica.\n\n"
                "### Refaça você mesmo\n\n"
                "Feche a fonte e refaça o exemplo a partir das suas anotações. Onde você travar, anote o "
                "passo: é ali que o seu entendimento ainda está frágil.\n\n"
                "### Mude uma coisa\n\n"
                "Por fim, mude um dado ou uma condição, preveja como o resultado vai mudar e confira a "
                "sua previsão."
            ),
            "exercise": {
                "task": "Refaça um exemplo resolvido de {s} a partir das suas anotações.",
                "steps": [
                    "Escolha um exemplo completo de uma fonte confiável e anote em cada passo o que foi feito, por que e qual princípio aplica.",
                    "Refaça o exemplo sem olhar a fonte.",
                    "Mude uma condição, preveja o novo resultado e confira.",
                ],
                "expected_result": (
                    "Um exemplo comentado que você consegue reproduzir sozinho e uma variação cujo resultado "
                    "você previu ou agora entende."
                ),
            },
            "video": "{topic} exemplo prático",
        },
        "step_by_step": {
            "title": "Aplicando passo a passo",
            "title_in_chapter": "{chapter}: aplicando passo a passo",
            "body": (
                "Entender {t} só vira habilidade quando você aplica. Uma rotina simples e repetível ajuda "
                "você a começar sem se sentir sobrecarregado.\n\n"
                "### Uma rotina em quatro passos\n\n"
                "1. **Prepare:** diga o que quer alcançar e reúna o que precisa.\n"
                "2. **Faça uma versão pequena:** aplique {t} primeiro a um caso pequeno e de baixo risco.\n"
                "3. **Confira:** compare o resultado com o que você esperava. O que está diferente?\n"
                "4. **Ajuste e repita:** mude uma coisa e tente de novo, um pouco maior a cada vez.\n\n"
                "### Mantenha um diário\n\n"
                "Para cada tentativa, anote a data, o que você tentou, o resultado e o que vai mudar na "
                "próxima. Depois de algumas rodadas, o diário mostra o seu progresso e os padrões dos "
                "seus erros.\n\n"
                "Comece pequeno: três tentativas curtas e concluídas ensinam mais do que uma grande e inacabada."
            ),
            "exercise": {
                "task": "Aplique {t} a um caso pequeno usando a rotina em quatro passos.",
                "steps": [
                    "Anote o objetivo da sua tentativa e o que você precisa para ela.",
                    "Faça uma versão pequena e registre o resultado no seu diário.",
                    "Compare o resultado com o que você esperava, mude uma coisa e tente de novo.",
                ],
                "expected_result": "Duas tentativas concluídas e registradas em um diário, com o que mudou entre elas e por quê.",
            },
            "video": "{topic} passo a passo",
        },
        "tools_resources": {
            "title": "Ferramentas e recursos",
            "body": (
                "As ferramentas e fontes certas tornam o aprendizado de {s} mais rápido, mas o excesso "
                "delas vira distração. Escolha um conjunto pequeno e confiável.\n\n"
                "### Escolha as suas fontes\n\n"
                "- **Uma referência** confiável para definições e regras: documentação oficial, um livro "
                "de referência ou um guia reconhecido.\n"
                "- **Uma fonte prática** com exemplos que você possa seguir: tutoriais, estudos de caso, "
                "uma comunidade.\n"
                "- **Uma pessoa ou um grupo** a quem perguntar quando você travar.\n\n"
                "### Escolha as suas ferramentas\n\n"
                "Liste o que os profissionais de {s} realmente usam. Prefira a ferramenta mais simples "
                "que resolve; você pode trocar depois, quando souber do que precisa.\n\n"
                "### Avalie a qualidade\n\n"
                "Verifique quem escreveu a fonte, quando ela foi atualizada pela última vez e se mostra o "
                "seu raciocínio. Desconfie de fontes que prometem resultados sem esforço."
            ),
            "exercise": {
                "task": "Monte o seu kit de ferramentas para {s}.",
                "steps": [
                    "Escolha uma fonte de referência, uma fonte prática e uma pessoa ou comunidade a quem perguntar.",
                    "Liste as ferramentas de que você precisa e escolha a opção mais simples para cada uma.",
                    "Verifique autor, data e raciocínio de cada fonte e substitua as que não passarem.",
                ],
                "expected_result": "Uma lista curta e verificada das fontes e ferramentas que você vai usar no resto do curso.",
            },
            "video": "{topic} ferramentas",
        },
        "first_project": {
            "title": "O seu primeiro projeto pequeno",
            "body": (
                "Um projeto pequeno transforma exercícios soltos em um resultado que você pode mostrar. É "
                "o melhor teste do que você aprendeu até agora sobre {s}.\n\n"
                "### Escolha o tamanho certo\n\n"
                "Um bom primeiro projeto:\n\n"
                "- pode ser concluído em algumas horas ou dias;\n"
                "- produz algo que você pode mostrar, usar ou conferir;\n"
                "- usa a maioria dos princípios que você encontrou, mas não as partes avançadas.\n\n"
                "### Planeje em uma página\n\n"
                "Anote o objetivo, os passos, o que significa *pronto* e um risco, com o que você vai "
                "fazer a respeito.\n\n"
                "### Conclua e avalie\n\n"
                "Termine o projeto, mesmo que ele fique imperfeito. Depois escreva três linhas: o que "
                "funcionou, o que não funcionou e o que você faria diferente da próxima vez."
            ),
            "exercise": {
                "task": "Planeje e conclua um projeto pequeno com {s}.",
                "steps": [
                    "Escreva um plano de uma página: objetivo, passos, o que significa pronto e um risco.",
                    "Execute o projeto e anote onde você travou.",
                    "Avalie o resultado em três linhas: o que funcionou, o que não funcionou, o que você mudaria.",
                ],
                "expected_result": "Um projeto pequeno concluído e uma avaliação curta que mostra no que trabalhar a seguir.",
            },
            "video": "{topic} projeto para iniciantes",
        },
        "common_mistakes": {
            "title": "Erros comuns e como evitá-los",
            "title_in_chapter": "{chapter}: erros comuns e como evitá-los",
            "body": (
                "A maioria dos iniciantes em {t} comete os mesmos poucos erros. Conhecê-los com "
                "antecedência economiza tempo e frustração.\n\n"
                "### Erros típicos\n\n"
                "- **Pular o básico:** ir direto para técnicas avançadas antes de ter uma base sólida.\n"
                "- **Copiar sem entender:** seguir uma receita que deixa de funcionar assim que a "
                "situação muda.\n"
                "- **Fazer coisas demais de uma vez:** mudar várias coisas juntas, sem saber o que ajudou.\n"
                "- **Não conferir os resultados:** supor que algo funcionou em vez de verificar.\n\n"
                "### Como evitá-los\n\n"
                "Antes de cada tentativa, pergunte a si mesmo: *Sei por que estou fazendo este passo? "
                "Como vou conferir o resultado?* Se a resposta for não, volte um passo.\n\n"
                "### Aprenda com os outros\n\n"
                "Procure uma lista de erros frequentes em uma fonte ou comunidade confiável e compare-a "
                "com o seu diário."
            ),
            "exercise": {
                "task": "Revise o seu próprio trabalho com {t} em busca de erros comuns.",
                "steps": [
                    "Percorra o seu diário ou as suas anotações e marque cada ponto em que ocorreu um dos erros típicos.",
                    "Para cada erro, escreva o que você vai fazer diferente da próxima vez.",
                    "Acrescente um erro específico deste tema que você encontrou em uma fonte confiável.",
                ],
                "expected_result": "Uma lista pessoal de erros a vigiar, cada um com uma contramedida concreta.",
            },
            "video": "{topic} erros comuns",
        },
        "troubleshooting": {
            "title": "Resolvendo problemas quando algo dá errado",
            "body": (
                "Mais cedo ou mais tarde, algo em {s} não vai funcionar como você esperava. Uma "
                "abordagem calma e sistemática encontra a causa mais rápido do que tentativa e erro.\n\n"
                "### Uma rotina para resolver problemas\n\n"
                "1. **Descreva o sintoma com precisão:** o que você esperava e o que aconteceu?\n"
                "2. **Reproduza:** você consegue fazer o problema acontecer de novo de propósito?\n"
                "3. **Restrinja:** mude uma coisa de cada vez e observe se o sintoma muda.\n"
                "4. **Questione as suas suposições:** a causa muitas vezes é algo que você tinha certeza "
                "de que estava certo.\n"
                "5. **Pergunte bem:** quando travar, descreva o seu objetivo, o que você tentou e o "
                "resultado exato.\n\n"
                "### Mantenha um diário de problemas\n\n"
                "Anote cada problema com a sua causa e a sua solução. Muitos problemas voltam, e na "
                "segunda vez o seu diário resolve em segundos."
            ),
            "exercise": {
                "task": "Resolva um problema real de {s} com a rotina de solução de problemas.",
                "steps": [
                    "Descreva um problema que você encontrou: o resultado esperado e o resultado real.",
                    "Reproduza o problema e mude uma coisa de cada vez até o sintoma mudar.",
                    "Registre a causa e a solução em um diário de problemas.",
                ],
                "expected_result": "Uma entrada no diário com uma descrição precisa, a causa encontrada e a solução que funcionou.",
            },
            "video": "{topic} como resolver problemas",
        },
        "quality_check": {
            "title": "Verificando a qualidade do seu trabalho",
            "body": (
                "Como saber se o seu trabalho com {s} está bom? Critérios claros transformam uma "
                "impressão vaga em uma verificação que você pode repetir.\n\n"
                "### Defina os seus critérios\n\n"
                "Liste de três a cinco qualidades de um bom trabalho em {s}, por exemplo correção, "
                "clareza, segurança, eficiência ou utilidade para os outros. Para cada uma, escreva como "
                "você a reconheceria.\n\n"
                "### Use uma lista de verificação\n\n"
                "Transforme os critérios em uma lista de verificação curta e use-a antes de dar qualquer "
                "coisa por concluída. Uma lista de verificação pega os detalhes que normalmente só a "
                "experiência pega.\n\n"
                "### Peça feedback\n\n"
                "Mostre o seu trabalho a alguém mais experiente ou compare-o com um bom exemplo. Faça "
                "perguntas específicas: *Este passo está correto?* recebe uma resposta mais útil do que "
                "*Está bom?*"
            ),
            "exercise": {
                "task": "Crie uma lista de verificação de qualidade para o seu trabalho em {s}.",
                "steps": [
                    "Escreva de três a cinco critérios de qualidade e como você reconhece cada um.",
                    "Aplique a lista ao seu primeiro projeto e anote o que ela revela.",
                    "Peça a uma pessoa feedback sobre um ponto específico e atualize a lista.",
                ],
                "expected_result": "Uma lista de verificação testada, com três a cinco critérios, melhorada com feedback.",
            },
            "video": "{topic} boas práticas",
        },
        "practice_plan": {
            "title": "Um plano de prática regular",
            "body": (
                "As habilidades em {s} crescem mais com prática regular e deliberada do que com sessões "
                "longas e esporádicas.\n\n"
                "### Planeje sessões curtas e regulares\n\n"
                "- Escolha um ritmo que você consiga manter, por exemplo três sessões de 30 minutos por semana.\n"
                "- Dê a cada sessão um objetivo específico (*praticar X em um exemplo novo*), e não só "
                "*trabalhar nisso*.\n"
                "- Termine cada sessão anotando o que fazer na próxima.\n\n"
                "### Pratique no limite da sua capacidade\n\n"
                "Tarefas fáceis são agradáveis, mas ensinam pouco; tarefas impossíveis desanimam. Escolha "
                "tarefas que você consiga fazer com esforço e alguns erros.\n\n"
                "### Misture o antigo e o novo\n\n"
                "Comece cada sessão repetindo rapidamente algo de um capítulo anterior. Espaçar as "
                "revisões é uma das formas mais confiáveis de memorizar."
            ),
            "exercise": {
                "task": "Escreva um plano de prática de quatro semanas para {s}.",
                "steps": [
                    "Decida quantas sessões por semana você consegue manter e quanto tempo dura cada uma.",
                    "Dê a cada sessão da primeira semana um objetivo específico.",
                    "Planeje uma revisão curta de conteúdo anterior no início de cada sessão.",
                ],
                "expected_result": "Um plano realista de quatro semanas, com objetivos específicos para a primeira semana e revisões regulares.",
            },
            "video": "{topic} exercícios práticos",
        },
        "going_deeper": {
            "title": "Aprofundando",
            "body": (
                "Com o básico de {s} no lugar, você pode escolher onde se aprofundar. Nem toda direção é "
                "igualmente útil para a sua meta.\n\n"
                "### Encontre as direções\n\n"
                "Veja o sumário de uma fonte avançada ou os temas que profissionais experientes "
                "discutem. Liste as principais áreas que você ainda não estudou.\n\n"
                "### Escolha uma\n\n"
                "Para cada área, pergunte: *Quanto ela ajudaria a minha meta? Quão difícil é, com o que "
                "eu já sei?* Comece pela área que mais ajuda e está ao seu alcance.\n\n"
                "### Aprenda com quem pratica\n\n"
                "Leia ou assista como pessoas experientes trabalham e preste atenção às decisões que elas "
                "tomam, não só aos resultados. Uma comunidade ou um mentor acelera muito esse processo."
            ),
            "exercise": {
                "task": "Escolha a sua próxima área de estudo em {s}.",
                "steps": [
                    "Liste pelo menos quatro áreas avançadas, tiradas de uma fonte avançada ou de uma comunidade.",
                    "Avalie cada área pela utilidade para a sua meta e pela dificuldade.",
                    "Escolha uma e indique o primeiro recurso que você vai usar para estudá-la.",
                ],
                "expected_result": "Uma lista avaliada de áreas avançadas e uma escolha clara da próxima, com um primeiro recurso.",
            },
            "video": "{topic} avançado",
        },
        "measuring_progress": {
            "title": "Medindo o seu progresso",
            "body": (
                "É fácil subestimar o progresso em {s}, porque você esquece o pouco que sabia no "
                "começo. Medi-lo mantém a motivação e mostra onde concentrar os esforços.\n\n"
                "### Volte à sua meta\n\n"
                "Releia a meta que você escreveu no primeiro capítulo. Você já consegue fazer o que "
                "descreveu? Onde ainda tem dúvidas?\n\n"
                "### Use evidências, não impressões\n\n"
                "- Refaça um exercício do começo e compare o resultado com a sua primeira tentativa.\n"
                "- Conte o que você já consegue fazer sem ajuda.\n"
                "- Peça a alguém que lhe passe uma tarefa pequena e veja como você se sai.\n\n"
                "### Defina a próxima meta\n\n"
                "Escreva uma nova meta que vá um passo além da primeira e uma data para revisá-la."
            ),
            "exercise": {
                "task": "Meça o seu progresso em {s} em relação à sua meta.",
                "steps": [
                    "Releia a meta do curso e avalie, com evidências, o quanto você a alcançou.",
                    "Refaça um exercício do começo e compare-o com a sua primeira tentativa.",
                    "Escreva a sua próxima meta e uma data para conferi-la.",
                ],
                "expected_result": "Uma avaliação honesta do seu progresso, apoiada em evidências, e uma nova meta com data de revisão.",
            },
            "video": "{topic} próximos passos",
        },
    },
    "article": {
        "title": "Leitura complementar: {chapter}",
        "body": (
            "Este artigo acompanha o capítulo {t} do curso sobre {s}. Leia depois das lições, para "
            "consolidar o que você aprendeu e ir além.\n\n"
            "### O que o capítulo aborda\n\n"
            "{lessons}\n\n"
            "### Perguntas para responder com as suas palavras\n\n"
            "- Que problema {t} resolve, e para quem?\n"
            "- Que parte você explicaria primeiro a um colega, e como?\n"
            "- Como seria um resultado que você consideraria bom?\n\n"
            "### Como ir além\n\n"
            "1. Encontre uma fonte de autoridade (documentação oficial, um livro ou um especialista "
            "reconhecido) e anote o que ela acrescenta às lições.\n"
            "2. Compare dois exemplos da prática real: o que eles fazem do mesmo jeito, e em que diferem?\n"
            "3. Escreva um resumo curto, de cinco a dez frases, e guarde-o com as suas anotações.\n\n"
            "> Quando duas fontes discordarem, anote os dois pontos de vista e procure o motivo: muitas "
            "vezes elas estão respondendo a perguntas diferentes."
        ),
    },
    "wrapup": {
        "summary": (
            "Você percorreu todos os capítulos deste curso sobre {s}: de uma definição de trabalho e das "
            "ideias-chave, passando pela prática, até os erros a evitar e a forma de continuar "
            "evoluindo.\n\n"
            "O que você produziu pelo caminho (glossário, anotações, diário e listas de verificação) é "
            "agora a sua referência pessoal sobre {s}. Mantenha tudo atualizado.\n\n"
            "**Próximo passo:** releia a meta do curso, defina a próxima meta e marque a sua primeira "
            "sessão de prática para esta semana."
        ),
        "takeaways": [
            "Comece com uma definição de trabalho clara e uma meta concreta.",
            "Aplique o que você aprende em passos pequenos e confira cada resultado.",
            "Mantenha anotações, um glossário e um diário: eles transformam experiência em conhecimento.",
        ],
    },
    "agreement": (
        "Confirmo que concluí o curso sobre {s}. Percorri os seus capítulos e atividades de boa-fé. "
        "Entendo que se trata de uma introdução estruturada, e não de uma qualificação profissional, e "
        "vou aplicar o que aprendi sobre {s} com cuidado, conferindo o meu trabalho e pedindo ajuda "
        "quando tiver dúvidas."
    ),
    # A second wording, for an agreement generated again.
    "agreement_variant": (
        "Ao assinar, declaro que participei de todos os capítulos do curso sobre {s} e fiz as suas "
        "atividades por conta própria. Sei que este curso apresenta o tema e não me certifica nele. "
        "Comprometo-me a usar com responsabilidade o que aprendi sobre {s} e a buscar orientação sempre "
        "que uma situação ultrapassar o que o curso abordou."
    ),
    "grounded": {
        "headline": "{s}, ensinado a partir dos seus próprios documentos",
        "intro_sources": "Este curso foi construído a partir de {sources} e segue a estrutura deles:\n\n{chapters}",
        "intro_method": (
            "Cada lição traz as frases-chave de uma seção das fontes, com as palavras delas, escolhidas pela "
            "importância que têm na seção. Uma marca numerada depois de um trecho mostra de onde ele vem: "
            "aponte para ela, toque nela ou chegue a ela pelo teclado para ler a citação. Todas as fontes "
            "estão listadas no final."
        ),
        "intro_note": (
            "*Nada aqui foi acrescentado ao que as fontes dizem: o curso é exatamente tão correto e tão "
            "atual quanto elas.*"
        ),
        "chapter_summary": "O que {source} diz sobre {t}.",
        "chapter_summary_outline": "O que as suas fontes dizem sobre {t}.",
        "lesson_part": "{chapter} ({number} de {count})",
        "objectives": [
            {"verb": "recordar", "object": "os termos-chave de {t} como as fontes os usam"},
            {"verb": "identificar", "object": "o que as fontes afirmam sobre {t}"},
        ],
        "exercise": {
            "task": "Coloque em prática no seu próprio contexto o que as fontes dizem sobre {t}.",
            "steps": [
                "Leia o trecho de novo: {quote}",
                "Anote os termos-chave que ele usa: {terms}.",
                "Escreva três frases sobre como isso se aplica ao seu trabalho, usando esses termos.",
                "Confira cada frase com a fonte e corrija o que ela não diz.",
            ],
            "expected_result": "Uma nota curta, com as suas palavras, que usa {terms} e não afirma nada que a fonte não diga.",
        },
        "article_title": "{chapter}: o trecho central",
        "article_lead": "O trecho no centro deste capítulo, como {source} o apresenta{page}:",
        "page": ", página {page}",
        "slide": ", slide {page}",
        "wrapup_summary": (
            "Você percorreu o que as suas fontes dizem sobre {s}. Em uma frase cada, os capítulos "
            "disseram:\n\n{chapters}\n\nVolte às fontes sempre que um detalhe for importante: as marcas "
            "depois de cada trecho mostram onde procurar."
        ),
        "question": "Que termo completa esta frase da fonte? {sentence}",
        "explanation": "A fonte diz: {sentence}",
    },
}
