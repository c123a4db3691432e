#!/usr/bin/env bash
# Make bubblewrap work for `/rfd implement`, whose commands (code a model wrote) run in
# fresh namespaces that cannot see the job's token or key (`rfd help security`: "What implement's
# commands can reach"). Ubuntu 24.04 runners restrict unprivileged user namespaces through
# AppArmor; Canonical's per-binary profile `bwrap-userns-restrict` lifts that for bwrap
# alone. Never fails the job: where bwrap still does not work, the bot refuses implement
# with a reply saying so (fail closed).
set -uo pipefail

works() { bwrap --unshare-all --ro-bind / / --proc /proc --dev /dev true 2>/dev/null; }

if ! command -v bwrap >/dev/null || ! works; then
  sudo apt-get update -qq
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap apparmor-profiles >/dev/null
  for profile in /etc/apparmor.d/bwrap-userns-restrict \
                 /usr/share/apparmor/extra-profiles/bwrap-userns-restrict; do
    if [ -f "$profile" ]; then
      sudo apparmor_parser -r "$profile"
      break
    fi
  done
fi

if works; then
  echo "bubblewrap works: implement's commands run isolated"
else
  echo "::warning::bubblewrap does not work on this runner: /rfd implement will be refused"
fi
exit 0
