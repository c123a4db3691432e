"""The lifecycle operations on the model: explore, review, accept, publish, phases, lint."""
