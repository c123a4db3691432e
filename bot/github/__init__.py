"""The GitHub bot: one router (``router``), one module per concern.

``run`` holds what one run gets (the delivery, its stage, the context, the job summary),
``auth`` decides who may do what, ``commands`` parses ``/rfd`` lines against the verb
table.  The handlers: ``status_comment`` (PR opened or pushed), ``closed_pr``, ``review``
(the ``rfd:review`` label), ``accept`` (the ``rfd:accept`` label), ``slash`` (comments,
dispatched by ``verbs`` to ``signing``, ``refine``, ``finish``, ``implement`` …), ``push``
and ``reconcile``.  GitHub is reached through :mod:`bot.forge.github` only (the forge and
``RepoApi``), git through ``checkout``; the lifecycle operations do the RFD work (``ops``
runs them on a PR checkout and makes the bot's one kind of commit).
"""
