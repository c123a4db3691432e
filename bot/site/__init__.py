"""The RFD site: the whole corpus as static pages (``rfd site``).

:mod:`bot.site.corpus` is the one place that reads the repository; everything after it
works on :class:`bot.site.records.SiteRfd` values: the graph and its drawing
(:mod:`bot.site.graph`), the history feed (:mod:`bot.site.history`, :mod:`bot.site.feed`),
``rfds.json`` (:mod:`bot.site.catalog`), the pages (:mod:`bot.site.pages`) and the build
that writes them and the search index (:mod:`bot.site.build`, :mod:`bot.site.search`).
"""

DEFAULT_OUT = "_site"
"""Where ``rfd site`` builds, relative to the repository root (``rfd init`` ignores it)."""
