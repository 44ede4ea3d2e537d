"""The class hub's side of the lessons: who may log in, and the teacher's live results.

- `pupils`: the class list (a name and a hash of that pupil's own password a line), made by
  ``loo-lessons class add-pupils``; standard library only.
- `auth`: the hub's authenticator: a pupil logs in with their own password and becomes a Unix
  user of their own, with a private home (JupyterHub, imported only by the hub).
- `answers`: one answer as a quiz posts it (`quiz.results.AnswerRecord`: class code,
  question id, choice keys, seconds, attempt, pupil), checked against the class code.
- `store`: the answers in SQLite, and the teacher's tables made from them by
  `quiz.classroom` (the same as ``loo-lessons quiz results`` gives for the same answers).
- `service`: the results service the hub runs (JupyterHub OAuth: a pupil posts only as
  themselves and sees only their own; a teacher sees the class).
- `post`: what a quiz calls in a pupil's kernel: ``post.answer(record)``, silent outside a hub.
- `drive`: driving a hub over HTTP (log in, spawn, run a lesson): the hub tests and the
  benchmark ``python -m loo_lessons.classroom.bench``.

`class` is a Python keyword, hence the package's name.
"""
