"""Infrastructure with no knowledge of RFDs: errors, text, atomic files, git, secrets."""
