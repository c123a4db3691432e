"""``/rfd implement``: the command (``command``), the work job's hand-over to the publish job
(``artifact``), the publish job (``publish``) and the texts they post (``texts``)."""
