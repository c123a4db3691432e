"""Single-call AI steps (review, plan extraction) on top of the providers and prompts."""
