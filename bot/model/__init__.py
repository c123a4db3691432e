"""The RFD model: parse and edit documents, plans, checklists, decisions, reviews (no I/O)."""
