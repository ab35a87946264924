"""
What courses tell the apps built on them, which keep things of a course that courses cannot know.
Each is sent inside the transaction of the change, with the course's row locked: a receiver's
writes commit with it, or not at all.
"""

from django.dispatch import Signal

# A course is about to be deleted (courses.deletion), `course=`: take down what you keep of it. Your
# rows that name it go with it (ON DELETE CASCADE); links, files and events are yours to remove.
course_deleting = Signal()

# Where a course's learners' events go is about to change, `course=` (with its api_key and account)
# and `url=`, where they went until now (learnerCallbackUrl; "" for nowhere).
learner_callback_url_changing = Signal()
