"""One conversation with a model: the loop and its forced answers (:mod:`.loop`), what a
step needs from the workspace (:mod:`.session`), and the saved transcript
(:mod:`.transcript`)."""
