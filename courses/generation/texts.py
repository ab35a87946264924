"""
The offline generators' templates (courses/generation/offline.py and extractive.py): the structure of
a course's words, written once, in English. Each phrase is a message of the gettext catalogues
(courses.phrases); `in_language` gives the templates in a course language.

Placeholders: {s} the course subject and {t} the topic (a chapter title, or the subject) in
quotation marks; {topic} and {chapter} bare, in video queries and titles; {chapters} and {lessons}
Markdown lists. In a course built from sources: {sources} the sources' names in quotation marks,
{source} one of them, {page} ", page 3" or nothing, {number} and {count} a part of a chapter,
{quote} and {sentence} a sentence of a source, {terms} its key terms. An objective's verb translates
to a verb of the language's table in courses.quality.bloom, in the same form.
"""

import functools

from django.utils.translation import gettext_noop as _

from courses import phrases

TEXTS = {
    "headline": _("A practical, step-by-step course on {s}"),
    "intro_opening": _("Welcome to this course on {s}."),
    "intro_auto": _(
        "The course is a structured path in five chapters: it starts with the foundations, moves on "
        "to the core ideas, puts them into practice, shows the most common mistakes and ends with a "
        "plan to keep improving."
    ),
    "intro_outline": _(
        "The course follows this outline:\n\n{chapters}\n\n"
        "Each chapter explains what its topic is, shows how to apply it step by step and points out "
        "the most common mistakes."
    ),
    "intro_usage": _(
        "**How to use it:** work through the chapters in order, keep notes in your own words and do "
        "each activity before you move on. When a lesson asks you to find examples or sources, choose "
        "them from your own context: that is what makes the knowledge stick."
    ),
    "intro_note": _(
        "*This course was built from a template. It gives you the structure and the method; the "
        "specifics of {s} come from the sources and examples you gather along the way.*"
    ),
    "themes": [
        {
            "title": _("Getting started"),
            "summary": _("What {s} is, where it is used and the key terms you need."),
            "takeaway": _("Start from a clear working definition of {s} and a concrete, checkable goal."),
            "objectives": [
                {"verb": _("explain"), "object": _("what {s} is, who uses it and what result it produces")},
                {
                    "verb": _("define"),
                    "object": _("the key terms of {s} in plain language, each with an example"),
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": _("What is the best first step when you start learning {s}?"),
                    "options": [
                        _("Write a working definition in your own words and test it on examples"),
                        _("Memorize a long list of technical terms before you read anything"),
                        _("Begin with the most advanced material so that the basics seem easy later"),
                        _("Collect and read the available sources on the topic before you practice"),
                    ],
                    "explanation": _("A working definition, checked against examples, gives you a frame into which every later detail fits."),
                },
                {
                    "objective": 1,
                    "prompt": _("Which approach builds a useful glossary of a new field?"),
                    "options": [
                        _("Note the terms that recur across sources and define each with an example"),
                        _("Copy the definitions from one textbook exactly as they are printed there"),
                        _("Translate each technical word into the closest everyday word you know"),
                        _("List the rarest words you meet, since they are what experts value most"),
                    ],
                    "explanation": _("Terms that recur across sources are the ones the field is built on; a definition in your words with an example shows that you can use them."),
                },
            ],
        },
        {
            "title": _("Core ideas"),
            "summary": _("The principles behind {s}, how they fit together, and a worked example."),
            "takeaway": _("A few core principles explain most of what practitioners of {s} do."),
            "objectives": [
                {"verb": _("describe"), "object": _("the core principles of {s} and the reason behind each one")},
                {
                    "verb": _("analyze"),
                    "object": _("a worked example of {s} step by step, naming the principle each step applies"),
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": _("How can you tell that a principle you wrote down is useful?"),
                    "options": [
                        _("It helps you predict or explain what happens in a case you have met"),
                        _("It sounds convincing and it is easy to remember when you read it again"),
                        _("It appears in the opening paragraph of most introductory textbooks"),
                        _("It covers many rules at once, so that you have fewer items to memorize"),
                    ],
                    "explanation": _("A principle earns its place when it lets you predict or explain real cases, not when it merely sounds right."),
                },
                {
                    "objective": 1,
                    "prompt": _("What is the main purpose of studying a worked example?"),
                    "options": [
                        _("To see each step of applying an idea together with the reasoning behind it"),
                        _("To get a finished result that you can copy without working it out yourself"),
                        _("To skip the principles and go straight to the answers that matter in practice"),
                        _("To check that the topic is easier than the introductory lessons suggested"),
                    ],
                    "explanation": _("A worked example makes the reasoning visible, and that is what lets you apply the idea to new cases."),
                },
            ],
        },
        {
            "title": _("Putting it into practice"),
            "summary": _("A step-by-step routine, the right tools and a first small project with {s}."),
            "takeaway": _("Apply {s} in small, finished steps and keep a log of every attempt."),
            "objectives": [
                {"verb": _("apply"), "object": _("{s} to a small, low-risk case with a four-step routine")},
                {"verb": _("plan"), "object": _("a first project with {s} that has a clear, checkable result")},
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": _("Your first attempt at a new task gave a surprising result. What is the best next move?"),
                    "options": [
                        _("Compare the outcome with what you expected, change one thing, try again"),
                        _("Change several settings at once so that you find a working setup sooner"),
                        _("Start a larger version of the task right away to get more data to study"),
                        _("Drop this approach and look for a different method that suits you better"),
                    ],
                    "explanation": _("Comparing the result with your expectation and changing one thing at a time shows you what each change does."),
                },
                {
                    "objective": 1,
                    "prompt": _("What makes a good first project?"),
                    "options": [
                        _("Something small you can finish within days, with a result you can check"),
                        _("The largest piece of work you can imagine, to stretch your abilities"),
                        _("A task that relies on the most advanced techniques you have read about so far"),
                        _("An open-ended effort with no fixed end, so that you keep on learning"),
                    ],
                    "explanation": _("A small, finished project gives you feedback quickly and shows you what to improve."),
                },
            ],
        },
        {
            "title": _("Mistakes and troubleshooting"),
            "summary": _("The usual pitfalls of {s}, how to solve problems and how to check quality."),
            "takeaway": _("Describe problems precisely, change one thing at a time and check results against clear criteria."),
            "objectives": [
                {
                    "verb": _("diagnose"),
                    "object": _("problems in {s} by describing the symptom and changing one thing at a time"),
                },
                {"verb": _("assess"), "object": _("the quality of your work in {s} against clear criteria")},
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": _("Something in {s} behaves differently from what you expected. What should you do first?"),
                    "options": [
                        _("Describe the symptom precisely: what you wanted and what you observed"),
                        _("Change several things at once, so that you find the cause more quickly"),
                        _("Start the whole piece of work again from the beginning, step by step"),
                        _("Assume that the tool is faulty and look for a replacement to use instead"),
                    ],
                    "explanation": _("A precise description of the symptom is the basis for reproducing the problem and narrowing it down."),
                },
                {
                    "objective": 1,
                    "prompt": _("How do you judge whether your own work is good enough?"),
                    "options": [
                        _("Check it against a short list of criteria you wrote down in advance"),
                        _("Compare how long it took with the time that others usually need for it"),
                        _("Rely on your feeling of satisfaction once you have finished the task"),
                        _("Wait for someone to point out problems before you decide to improve it"),
                    ],
                    "explanation": _("Criteria written down in advance turn a vague feeling into a check you can repeat."),
                },
            ],
        },
        {
            "title": _("Keep improving"),
            "summary": _("Regular practice, where to go deeper with {s} and how to measure your progress."),
            "takeaway": _("Short, regular practice and honest measurement keep you improving."),
            "objectives": [
                {"verb": _("design"), "object": _("a plan of short, regular practice sessions for {s}")},
                {
                    "verb": _("evaluate"),
                    "object": _("your progress in {s} against the goal you set at the start"),
                },
            ],
            "questions": [
                {
                    "objective": 0,
                    "prompt": _("What is the most reliable way to keep improving in {s} after the course?"),
                    "options": [
                        _("Short, regular practice sessions, each one with a specific goal"),
                        _("One very long session each quarter, whenever you find the time"),
                        _("Rereading the lessons regularly instead of practicing the skills"),
                        _("Practicing the tasks that already feel easy, to build confidence"),
                    ],
                    "explanation": _("Regular, deliberate practice at the edge of your ability, with spaced review, builds lasting skill."),
                },
                {
                    "objective": 1,
                    "prompt": _("Which evidence shows your progress most clearly?"),
                    "options": [
                        _("Redoing an early exercise and comparing it with your first attempt"),
                        _("The number of hours you spent on the course since the day you started it"),
                        _("How confident you feel when you read about the topic these days"),
                        _("The amount of material you have read and highlighted so far"),
                    ],
                    "explanation": _("Redoing an early exercise gives you evidence of what you can now do, rather than a feeling."),
                },
            ],
        },
    ],
    "outline_chapter": {
        "summary": _("What {t} is, how to apply it step by step, and the common mistakes to avoid."),
        "takeaway": _("{t}: explain it in your own words, apply it step by step and watch for the common mistakes."),
        "objectives": [
            {"verb": _("explain"), "object": _("what {t} is and why it matters")},
            {"verb": _("apply"), "object": _("{t} step by step while avoiding its common mistakes")},
        ],
        "questions": [
            {
                "objective": 0,
                "prompt": _("Which is the best way to check that you understand {t}?"),
                "options": [
                    _("Explain it in your own words and test the explanation on two examples"),
                    _("Reread the lesson until you can recite its main sentences by heart"),
                    _("Look up the longest definition you can find and copy it into notes"),
                    _("Count how often it appears in sources to judge how important it really is"),
                ],
                "explanation": _("Explaining {t} in your own words and testing that on examples shows what you can do with it, not what you can repeat."),
            },
            {
                "objective": 1,
                "prompt": _("You are applying {t} for the first time. Which routine helps most?"),
                "options": [
                    _("Try a small, low-risk case, check the result and adjust one thing"),
                    _("Start with the largest case you have, so that the practice counts"),
                    _("Change several parts at once, so that each attempt covers more ground"),
                    _("Leave the check of results to the end, when there is more to compare"),
                ],
                "explanation": _("Small attempts, each checked and adjusted, show you how {t} works and where it goes wrong."),
            },
            {
                "objective": 0,
                "prompt": _("Why does it help to know what {t} is for before learning the details?"),
                "options": [
                    _("The purpose gives you a frame into which each later point fits"),
                    _("It lets you skip the parts of the topic that seem harder at first"),
                    _("It replaces the practice that the later lessons ask you to do"),
                    _("It makes the topic look simpler than it is, which keeps you going"),
                ],
                "explanation": _("Knowing what {t} is for gives every detail a place, so the details make sense and stick."),
            },
            {
                "objective": 1,
                "prompt": _("Which habit helps you avoid the common mistakes of {t}?"),
                "options": [
                    _("Reviewing your log of attempts for errors you have made before"),
                    _("Working faster, so that you have less time to make any errors"),
                    _("Following the first tutorial you find without changing a thing"),
                    _("Waiting until you feel fully confident before any first attempt"),
                ],
                "explanation": _("Your log shows the mistakes you tend to make, so you can watch for them in the next attempt."),
            },
        ],
    },
    "lessons": {
        "what_it_is": {
            "title": _("What it is and why it matters"),
            "title_in_chapter": _("{chapter}: what it is and why it matters"),
            "body": _(
                "Before learning the details of {t}, get a clear picture of what it is and what it is for.\n\n"
                "### A working definition\n\n"
                "Write one or two sentences that describe {t} in your own words. A good working "
                "definition answers three questions:\n\n"
                "- **What** is it? A skill, a tool, a method, a body of knowledge?\n"
                "- **Who** uses it, and in which situations?\n"
                "- **What result** does it produce?\n\n"
                "### Why it matters\n\n"
                "Ask yourself what happens when {t} is done well, and what goes wrong when it is missing "
                "or done badly. Concrete consequences, such as saved time, fewer errors or better "
                "decisions, are what make a topic worth your effort.\n\n"
                "### Check your understanding\n\n"
                "Compare your definition with one reliable source. Keep what matches, correct what does "
                "not, and note every term you cannot explain yet: you will come back to it."
            ),
            "exercise": {
                "task": _("Write a working definition of {t} and test it against examples."),
                "steps": [
                    _("Write one or two sentences saying what {t} is, who uses it and what result it produces."),
                    _("Find two real examples where it is used and one situation where it does not apply."),
                    _("Adjust your definition so that it fits all three cases."),
                ],
                "expected_result": _(
                    "A short definition you can explain to someone else, backed by two examples and one "
                    "counter-example."
                ),
            },
            "video": _("{topic} explained"),
        },
        "where_it_fits": {
            "title": _("Where it is used"),
            "body": _(
                "{s} does not exist in isolation: people use it, in particular places, to reach "
                "particular goals. Mapping that context shows you which parts to learn first.\n\n"
                "### Map the context\n\n"
                "- **Situations:** list three situations in which {s} is used. Which one is closest to "
                "your own needs?\n"
                "- **People:** who is involved: beginners, specialists, customers, teams?\n"
                "- **Neighboring topics:** what do you need to know already, and what usually comes next?\n\n"
                "### Set your own goal\n\n"
                "Finish this sentence: *After this course I want to be able to … with {s}.* Make it "
                "concrete and checkable (“write a simple report”, “run a first session”, “fix the usual "
                "problems”) rather than “understand everything”.\n\n"
                "Keep the goal where you can see it: the last chapter asks you to measure your progress "
                "against it."
            ),
            "exercise": {
                "task": _("Describe the context in which you will use {s}."),
                "steps": [
                    _("List three situations where {s} is used and mark the one closest to you."),
                    _("Name what you already know that helps, and one thing you will need to learn."),
                    _("Write your goal for the course as one concrete, checkable sentence."),
                ],
                "expected_result": _("A one-page map of the context, with a personal goal you can check at the end of the course."),
            },
            "video": _("{topic} introduction"),
        },
        "key_terms": {
            "title": _("Key terms and ideas"),
            "body": _(
                "Every field has its own vocabulary. Learning the ten or so terms that come up again and "
                "again in {s} makes every later source easier to read.\n\n"
                "### Build a glossary\n\n"
                "1. Skim two introductory sources and note every term that appears in both.\n"
                "2. For each term, write a plain-language definition and an example.\n"
                "3. Group related terms: the groups often reveal the main ideas of the topic.\n\n"
                "### Watch out for\n\n"
                "- **Synonyms:** different sources may use different words for the same thing.\n"
                "- **Everyday words with a special meaning:** they are the easiest to misunderstand.\n\n"
                "Your glossary is a living document: add to it in every chapter."
            ),
            "exercise": {
                "task": _("Start a glossary of the key terms of {s}."),
                "steps": [
                    _("Collect at least eight terms that appear in more than one source."),
                    _("Write a plain-language definition and an example for each term."),
                    _("Group the terms into two to four themes and name each theme."),
                ],
                "expected_result": _("A glossary of at least eight terms, each with a definition and an example, grouped by theme."),
            },
            "video": _("{topic} key terms"),
        },
        "core_principles": {
            "title": _("The core principles"),
            "body": _(
                "Behind the details of {s} there are a few principles that explain most of what "
                "practitioners do. Finding them saves you from memorizing rules one by one.\n\n"
                "### Find the principles\n\n"
                "- Look at the groups in your glossary: what idea connects the terms of each group?\n"
                "- Read how two experienced practitioners explain their choices. Which reasons come up "
                "again and again?\n"
                "- Write each principle as a short rule: *Do X, because Y.*\n\n"
                "### Test them\n\n"
                "A principle is useful if it helps you predict or explain something. For each one, find "
                "a case where following it leads to a good result, and a case where ignoring it causes "
                "a problem.\n\n"
                "Aim for three to five principles. If you have more, some of them are probably details "
                "of a bigger idea."
            ),
            "exercise": {
                "task": _("Write down the three to five principles that matter most in {s}."),
                "steps": [
                    _("Write each principle as a short rule with its reason: do X, because Y."),
                    _("For each principle, note one example where it helps and one where ignoring it causes trouble."),
                    _("Rank the principles by how often they apply to your own goal."),
                ],
                "expected_result": _("A ranked list of three to five principles, each with a reason and two contrasting examples."),
            },
            "video": _("{topic} fundamentals"),
        },
        "how_parts_fit": {
            "title": _("How the parts fit together"),
            "body": _(
                "Knowing the parts of {s} is not enough: you also need to see how they influence each "
                "other.\n\n"
                "### Draw a map\n\n"
                "Put the main ideas from your glossary on one page and connect them with arrows. Label "
                "each arrow: *needs*, *produces*, *limits*, *is a kind of*.\n\n"
                "### Follow a flow\n\n"
                "Pick a typical task and trace it through your map from start to finish:\n\n"
                "1. What comes first, and what does it depend on?\n"
                "2. Where are decisions made, and on what basis?\n"
                "3. What is the final result, and how do you know it is good?\n\n"
                "### Look for gaps\n\n"
                "The places where you cannot draw an arrow, or are unsure of its direction, show you "
                "exactly what to learn next."
            ),
            "exercise": {
                "task": _("Draw a concept map of {s}."),
                "steps": [
                    _("Place six to ten key ideas from your glossary on one page."),
                    _("Connect them with labeled arrows: needs, produces, limits, is a kind of."),
                    _("Trace one typical task through the map and mark the places where you are unsure."),
                ],
                "expected_result": _("A one-page concept map with labeled connections and the gaps in your knowledge marked."),
            },
            "video": _("{topic} overview"),
        },
        "worked_example": {
            "title": _("A worked example"),
            "body": _(
                "A worked example shows every step of applying {s}, including the reasoning that usually "
                "goes unsaid. It is the bridge between understanding an idea and using it.\n\n"
                "### Study one example closely\n\n"
                "Find a complete example in a reliable source: a tutorial, a case study, a solved "
                "problem. For each step, write down:\n\n"
                "- **what** was done;\n"
                "- **why** it was done at that moment;\n"
                "- **which principle** from the previous lesson it applies.\n\n"
                "### Rebuild it yourself\n\n"
                "Close the source and redo the example from your notes. Where you get stuck, note the "
                "step: that is where your understanding is still thin.\n\n"
                "### Change one thing\n\n"
                "Finally, change one input or condition, predict how the result will change, and check "
                "your prediction."
            ),
            "exercise": {
                "task": _("Rebuild a worked example of {s} from your notes."),
                "steps": [
                    _("Choose a complete example from a reliable source and note for each step what was done, why, and which principle it applies."),
                    _("Redo the example without looking at the source."),
                    _("Change one condition, predict the new result and check it."),
                ],
                "expected_result": _(
                    "An annotated example you can reproduce on your own, and one variation whose result "
                    "you predicted or now understand."
                ),
            },
            "video": _("{topic} example"),
        },
        "step_by_step": {
            "title": _("Applying it step by step"),
            "title_in_chapter": _("{chapter}: applying it step by step"),
            "body": _(
                "Understanding {t} becomes a skill only when you apply it. A simple, repeatable routine "
                "helps you start without being overwhelmed.\n\n"
                "### A four-step routine\n\n"
                "1. **Prepare:** state what you want to achieve and gather what you need.\n"
                "2. **Try a small version:** apply {t} to a small, low-risk case first.\n"
                "3. **Check:** compare the result with what you expected. What is different?\n"
                "4. **Adjust and repeat:** change one thing and try again, a little bigger each time.\n\n"
                "### Keep a log\n\n"
                "For each attempt, note the date, what you tried, the result and what you will change "
                "next. After a few rounds the log shows your progress, and the patterns in your "
                "mistakes.\n\n"
                "Start small: three short, finished attempts teach you more than one large, unfinished one."
            ),
            "exercise": {
                "task": _("Apply {t} to a small case using the four-step routine."),
                "steps": [
                    _("Write down the goal of your attempt and what you need for it."),
                    _("Carry out a small version and record the result in your log."),
                    _("Compare the result with what you expected, change one thing and try again."),
                ],
                "expected_result": _("Two completed attempts recorded in a log, with what changed between them and why."),
            },
            "video": _("{topic} step by step tutorial"),
        },
        "tools_resources": {
            "title": _("Tools and resources"),
            "body": _(
                "The right tools and sources make learning {s} faster, but too many of them become a "
                "distraction. Choose a small, reliable set.\n\n"
                "### Choose your sources\n\n"
                "- **One reference** you can trust for definitions and rules: official documentation, a "
                "standard textbook or a recognized guide.\n"
                "- **One practical source** with examples you can follow: tutorials, case studies, a "
                "community.\n"
                "- **One person or group** you can ask when you are stuck.\n\n"
                "### Choose your tools\n\n"
                "List what practitioners of {s} actually use. Prefer the simplest tool that does the "
                "job; you can switch later, once you know what you need.\n\n"
                "### Judge quality\n\n"
                "Check who wrote a source, when it was last updated and whether it shows its reasoning. "
                "Be wary of sources that promise results without effort."
            ),
            "exercise": {
                "task": _("Put together your toolkit for {s}."),
                "steps": [
                    _("Pick one reference source, one practical source and one person or community to ask."),
                    _("List the tools you need and choose the simplest option for each."),
                    _("Check each source for author, date and reasoning, and replace any that fails."),
                ],
                "expected_result": _("A short, checked list of the sources and tools you will use for the rest of the course."),
            },
            "video": _("{topic} tools"),
        },
        "first_project": {
            "title": _("Your first small project"),
            "body": _(
                "A small project turns separate exercises into a result you can show. It is the best test "
                "of what you have learned so far about {s}.\n\n"
                "### Pick the right size\n\n"
                "A good first project:\n\n"
                "- can be finished in a few hours or days;\n"
                "- produces something you can show, use or check;\n"
                "- uses most of the principles you found, but not the advanced parts.\n\n"
                "### Plan it on one page\n\n"
                "Write down the goal, the steps, what *done* means, and one risk with what you will do "
                "about it.\n\n"
                "### Finish and review\n\n"
                "Complete the project, even if it is imperfect. Then write three lines: what worked, what "
                "did not, and what you would do differently next time."
            ),
            "exercise": {
                "task": _("Plan and complete a small project with {s}."),
                "steps": [
                    _("Write a one-page plan: goal, steps, what done means and one risk."),
                    _("Carry out the project and note where you got stuck."),
                    _("Review the result in three lines: what worked, what did not, what you would change."),
                ],
                "expected_result": _("A finished small project and a short review that tells you what to work on next."),
            },
            "video": _("{topic} beginner project"),
        },
        "common_mistakes": {
            "title": _("Common mistakes and how to avoid them"),
            "title_in_chapter": _("{chapter}: common mistakes and how to avoid them"),
            "body": _(
                "Most beginners with {t} make the same few mistakes. Knowing them in advance saves you "
                "time and frustration.\n\n"
                "### Typical mistakes\n\n"
                "- **Skipping the basics:** jumping to advanced techniques before the foundations are solid.\n"
                "- **Copying without understanding:** following a recipe that stops working as soon as "
                "the situation changes.\n"
                "- **Doing too much at once:** changing several things together, so you cannot tell what "
                "helped.\n"
                "- **Not checking results:** assuming something worked instead of verifying it.\n\n"
                "### How to avoid them\n\n"
                "Before each attempt, ask yourself: *Do I know why I am doing this step? How will I check "
                "the result?* If the answer is no, go back one step.\n\n"
                "### Learn from others\n\n"
                "Look for a list of frequent errors in a reliable source or community and compare it "
                "with your own log."
            ),
            "exercise": {
                "task": _("Review your own work on {t} for common mistakes."),
                "steps": [
                    _("Go through your log or notes and mark every place where one of the typical mistakes happened."),
                    _("For each mistake, write what you will do differently next time."),
                    _("Add one mistake specific to this topic that you found in a reliable source."),
                ],
                "expected_result": _("A personal list of mistakes to watch for, each with a concrete countermeasure."),
            },
            "video": _("{topic} common mistakes"),
        },
        "troubleshooting": {
            "title": _("Troubleshooting when things go wrong"),
            "body": _(
                "Sooner or later something in {s} will not work as expected. A calm, systematic approach "
                "finds the cause faster than trial and error.\n\n"
                "### A troubleshooting routine\n\n"
                "1. **Describe the symptom precisely:** what did you expect, and what happened instead?\n"
                "2. **Reproduce it:** can you make it happen again on purpose?\n"
                "3. **Narrow it down:** change one thing at a time and watch whether the symptom changes.\n"
                "4. **Check your assumptions:** the cause is often something you were sure was fine.\n"
                "5. **Ask well:** when you are stuck, describe your goal, what you tried and the exact result.\n\n"
                "### Keep a problem journal\n\n"
                "Write down each problem with its cause and its fix. Many problems come back, and the "
                "second time your journal solves them in seconds."
            ),
            "exercise": {
                "task": _("Solve one real problem in {s} with the troubleshooting routine."),
                "steps": [
                    _("Describe a problem you ran into: the expected result and the actual result."),
                    _("Reproduce it and change one thing at a time until the symptom changes."),
                    _("Record the cause and the fix in a problem journal."),
                ],
                "expected_result": _("A journal entry with a precise description, the cause you found and the fix that worked."),
            },
            "video": _("{topic} troubleshooting"),
        },
        "quality_check": {
            "title": _("Checking the quality of your work"),
            "body": _(
                "How do you know whether your work with {s} is good? Clear criteria turn a vague feeling "
                "into a check you can repeat.\n\n"
                "### Define your criteria\n\n"
                "List three to five qualities of good work in {s}, for example correctness, clarity, "
                "safety, efficiency or usefulness to others. For each one, write how you would recognize it.\n\n"
                "### Use a checklist\n\n"
                "Turn the criteria into a short checklist and go through it before you call anything "
                "finished. A checklist catches the small things that experience usually catches.\n\n"
                "### Get feedback\n\n"
                "Show your work to someone more experienced, or compare it with a good example. Ask "
                "specific questions: *Is this step correct?* gets a more useful answer than *Is it good?*"
            ),
            "exercise": {
                "task": _("Create a quality checklist for your work in {s}."),
                "steps": [
                    _("Write three to five quality criteria and how you recognize each one."),
                    _("Apply the checklist to your first project and note what it reveals."),
                    _("Ask one person for feedback on a specific point and update the checklist."),
                ],
                "expected_result": _("A tested checklist of three to five criteria, improved with feedback."),
            },
            "video": _("{topic} best practices"),
        },
        "practice_plan": {
            "title": _("A plan for regular practice"),
            "body": _(
                "Skills in {s} grow with regular, deliberate practice more than with occasional long "
                "sessions.\n\n"
                "### Plan short, regular sessions\n\n"
                "- Choose a rhythm you can keep, for example three sessions of 30 minutes a week.\n"
                "- Give every session one specific goal (*practice X on a new example*), not just "
                "*work on it*.\n"
                "- End each session by writing down what to do next time.\n\n"
                "### Practice at the edge of your ability\n\n"
                "Easy tasks feel good but teach little; impossible ones discourage you. Pick tasks you "
                "can do with effort and a few mistakes.\n\n"
                "### Mix old and new\n\n"
                "Start each session by briefly repeating something from an earlier chapter. Spacing out "
                "repetition is one of the most reliable ways to remember."
            ),
            "exercise": {
                "task": _("Write a four-week practice plan for {s}."),
                "steps": [
                    _("Decide how many sessions a week you can keep and how long each one lasts."),
                    _("Give each session of the first week one specific goal."),
                    _("Plan a short review of earlier material at the start of every session."),
                ],
                "expected_result": _("A realistic four-week plan with specific goals for the first week and regular review built in."),
            },
            "video": _("{topic} practice"),
        },
        "going_deeper": {
            "title": _("Going deeper"),
            "body": _(
                "Once the basics of {s} are in place, you can choose where to go deeper. Not every "
                "direction is equally useful for your goal.\n\n"
                "### Find the directions\n\n"
                "Look at the table of contents of an advanced source, or at the topics experienced "
                "practitioners discuss. List the main areas you have not covered yet.\n\n"
                "### Choose one\n\n"
                "For each area, ask: *How much would it help my goal? How hard is it, given what I "
                "know?* Start with the area that helps most and is within reach.\n\n"
                "### Learn from practitioners\n\n"
                "Read or watch how experienced people work, and pay attention to the decisions they "
                "make, not just the results. A community or a mentor speeds this up a lot."
            ),
            "exercise": {
                "task": _("Choose your next area of study in {s}."),
                "steps": [
                    _("List at least four advanced areas, taken from an advanced source or a community."),
                    _("Rate each area for usefulness to your goal and for difficulty."),
                    _("Pick one and name the first resource you will use for it."),
                ],
                "expected_result": _("A rated list of advanced areas and a clear choice of the next one, with a first resource."),
            },
            "video": _("{topic} advanced"),
        },
        "measuring_progress": {
            "title": _("Measuring your progress"),
            "body": _(
                "Progress in {s} is easy to underestimate, because you forget how little you knew at the "
                "start. Measuring it keeps you motivated and shows you where to focus.\n\n"
                "### Look back at your goal\n\n"
                "Reread the goal you wrote in the first chapter. Can you now do what you described? "
                "Where are you still unsure?\n\n"
                "### Use evidence, not feelings\n\n"
                "- Redo an early exercise and compare the result with your first attempt.\n"
                "- Count what you can now do without help.\n"
                "- Ask someone to give you a small task and see how you handle it.\n\n"
                "### Set the next goal\n\n"
                "Write a new goal that goes one step beyond the first, and a date to review it."
            ),
            "exercise": {
                "task": _("Measure your progress in {s} against your goal."),
                "steps": [
                    _("Reread your course goal and rate how far you have reached it, with evidence."),
                    _("Redo one early exercise and compare it with your first attempt."),
                    _("Write your next goal and a date to check it."),
                ],
                "expected_result": _("An honest assessment of your progress, backed by evidence, and a new goal with a review date."),
            },
            "video": _("{topic} next steps"),
        },
    },
    "article": {
        "title": _("Further reading: {chapter}"),
        "body": _(
            "This article goes with the chapter {t} of the course on {s}. Read it after the lessons, to "
            "consolidate what you learned and to take it further.\n\n"
            "### What the chapter covers\n\n"
            "{lessons}\n\n"
            "### Questions to answer in your own words\n\n"
            "- What problem does {t} solve, and for whom?\n"
            "- Which part of it would you explain first to a colleague, and how?\n"
            "- What would a result look like that you would call good?\n\n"
            "### How to go further\n\n"
            "1. Find one authoritative source (official documentation, a textbook or a recognized "
            "expert) and note what it adds to the lessons.\n"
            "2. Compare two examples from real practice: what do they do the same way, and where do they "
            "differ?\n"
            "3. Write a short summary of five to ten sentences and keep it with your notes.\n\n"
            "> When two sources disagree, write down both views and look for the reason: often they are "
            "answering different questions."
        ),
    },
    "wrapup": {
        "summary": _(
            "You have worked through every chapter of this course on {s}: from a working definition "
            "and the key ideas, through practice, to the mistakes to avoid and the way to keep "
            "improving.\n\n"
            "What you produced along the way (your glossary, notes, log and checklists) is now your "
            "personal reference for {s}. Keep it up to date.\n\n"
            "**Next:** reread your course goal, set your next goal, and plan your first practice session "
            "for this week."
        ),
        "takeaways": [
            _("Start from a clear working definition and a concrete goal."),
            _("Apply what you learn in small steps and check every result."),
            _("Keep notes, a glossary and a log: they turn experience into knowledge."),
        ],
    },
    "agreement": _(
        "I confirm that I have completed the course on {s}. I worked through its chapters and "
        "activities in good faith. I understand that it is a structured introduction, not a "
        "professional qualification, and I will apply what I learned about {s} carefully, checking my "
        "work and asking for help when I am unsure."
    ),
    # A second wording, for an agreement generated again.
    "agreement_variant": _(
        "By signing, I declare that I took part in every chapter of the course on {s} and did its "
        "activities myself. I know this course introduces the subject and does not certify me in it. "
        "I commit to using what I learned about {s} responsibly and to seeking advice whenever a "
        "situation goes beyond what the course covered."
    ),
    # A course built from the client's sources (courses/generation/extractive.py).
    "grounded": {
        "headline": _("{s}, taught from your own documents"),
        "intro_sources": _("This course is built from {sources}, and follows their structure:\n\n{chapters}"),
        "intro_method": _(
            "Each lesson gives the key sentences of a section of the sources, in their own words, chosen by "
            "how central they are to it. A numbered mark after a passage shows where it comes from: point "
            "at it, tap it or move to it with the keyboard to read the quote. Every source is listed at the end."
        ),
        "intro_note": _(
            "*Nothing here is added to what the sources say: the course is exactly as accurate and as up to "
            "date as they are.*"
        ),
        "chapter_summary": _("What {source} says about {t}."),
        "chapter_summary_outline": _("What your sources say about {t}."),
        "lesson_part": _("{chapter} ({number} of {count})"),
        # The lesson of the text a section opens with, before its first subsection.
        "overview": _("Overview of {t}"),
        "objectives": [
            {"verb": _("recall"), "object": _("the key terms of {t} as the sources use them")},
            {"verb": _("identify"), "object": _("what the sources state about {t}")},
        ],
        "exercise": {
            "task": _("Put what the sources say about {t} to work in your own context."),
            "steps": [
                _("Read the passage again: {quote}"),
                _("Note the key terms it uses: {terms}."),
                _("Write three sentences on how this applies to your own work, using those terms."),
                _("Check each sentence against the source and correct what it does not say."),
            ],
            "expected_result": _("A short note in your own words that uses {terms} and claims nothing the source does not say."),
        },
        "article_title": _("{chapter}: the central passage"),
        "article_lead": _("The passage at the heart of this chapter, as {source} puts it{page}:"),
        "page": _(", page {page}"),
        "slide": _(", slide {page}"),
        "wrapup_summary": _(
            "You have worked through what your sources say about {s}. In one sentence each, the chapters "
            "said:\n\n{chapters}\n\nGo back to the sources whenever a detail matters: the marks after each "
            "passage show where to look."
        ),
        "question": _("Which term completes this sentence from the source? {sentence}"),
        "explanation": _("The source says: {sentence}"),
    },
}


@functools.cache
def in_language(language_id: str) -> dict:
    """The templates with every phrase in the course language, and that language's quotation marks."""
    return {**phrases.translated(TEXTS, language_id), "quotes": phrases.quotation_marks(language_id)}
