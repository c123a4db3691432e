#!/bin/sh
# Re-capture the comment bodies a test module posts (see snapshot_plugin.py), e.g.
#   tests/data/cassettes/snap.sh tests/test_github_review_label.py
set -e
cd "$(dirname "$0")/../../.."
rm -rf tests/data/cassettes/bodies/_unmatched
"${PY:-.venv/bin/python}" tests/data/cassettes/build.py
PYTHONPATH=tests/data/cassettes "${PY:-.venv/bin/python}" -m pytest -q -p snapshot_plugin \
  -W "ignore::pytest.PytestAssertRewriteWarning" "$@" || true
ls tests/data/cassettes/bodies/_unmatched 2>/dev/null || echo "no unmatched bodies"
