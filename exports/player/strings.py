"""
The course player's own words (buttons, headings, messages), by the name the page and its script
use, written in English; courses.phrases has them in every course language.
"""

from django.utils.translation import gettext_noop as _

from courses import phrases

WORDS: dict[str, str] = {
    "sources": _("Sources"),
    "source_mark": _("Source {number}"),
    "source_page": _("page {page}"),
    "source_slide": _("slide {page}"),
    "source_deleted": _("source deleted"),
    "pages": _("Pages"),
    "contents": _("Contents"),
    "previous": _("Previous"),
    "next": _("Next"),
    "page_of": _("Page {page} of {total}"),
    "introduction": _("Introduction"),
    "chapter": _("Chapter %(number)s"),
    "exercise": _("Practical exercise"),
    "steps": _("Steps"),
    "expected_result": _("Expected result"),
    "video": _("Video"),
    "watch_video": _("Watch on YouTube (opens a new window)"),
    "search_videos": _("Search YouTube (opens a new window)"),
    "article": _("Article"),
    "wrapup": _("Wrap-up"),
    "key_takeaways": _("Key takeaways"),
    "assessment": _("Assessment"),
    "assessment_intro": _("Answer every question, then submit. You need {percent}% to pass."),
    "question": _("Question {number}"),
    "submit": _("Submit answers"),
    "retry": _("Try again"),
    "answer_all": _("Please answer every question."),
    "score": _("Your score: {score}%"),
    "passed": _("Passed"),
    "failed": _("Not passed yet: you need {percent}%. You can try again."),
    "correct": _("Correct"),
    "incorrect": _("Incorrect"),
    "assessment_needed": _("Submit the assessment to continue."),
    "agreement": _("Agreement"),
    "agree": _("I have read and agree to this statement."),
    "confirm": _("Confirm"),
    "confirmed": _("Confirmed. Thank you."),
    "agreement_needed": _("Confirm the agreement to finish the course."),
    "agreement_remaining": _("Before you confirm, finish the course:"),
    "read_chapter": _("Read chapter %(number)s: %(title)s"),
    "pass_assessment": _("Pass the assessment"),
    "finish": _("Course complete"),
    "finished": _("You have completed this course."),
    "finish_incomplete": _("End of the course"),
    "finished_incomplete": _("You have reached the end of the course, but it is not complete yet:"),
    "no_lms": _("Your progress is not being recorded: no learning management system was found."),
    "lms_failed": _("Your progress is not being recorded: the learning management system did not answer."),
    "session_ended": _("This session has ended, so your progress here is no longer recorded. Open the course again from your learning management system to go on."),
    "exit": _("Exit course"),
}


def words_for(language_id: str) -> dict[str, str]:
    """The player's words in the course language."""
    return phrases.translated(WORDS, language_id)
