"""Configuration: .github/rfd.toml resolved and validated, the repository's conventions, and
where its RFDs are."""
