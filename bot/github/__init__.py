"""The GitHub bot: one router (``router``), one module per concern.

``delivery`` reads the event, ``auth`` decides who may do what, ``commands`` parses
``/rfd`` lines; the handlers are ``status_comment``, ``review_label``,
``accept_label``, ``slash`` (with ``verbs`` and ``implement_cmd``), ``push`` and
``reconcile``.  GitHub is reached through ``bot.forge.github`` and ``api`` only,
git through ``checkout``; the lifecycle operations do the RFD work (``ops``).
"""
