#!/usr/bin/env bash
# Step 1 of the FlakeLab action: whether FlakeLab must be built, and the cache key of its build
# (the action's own sources, so that a new FlakeLab is built again and an old build reused).
set -euo pipefail
if [[ -n ${INPUT_FLAKELAB:-} ]]; then
  echo "build=false" >> "$GITHUB_OUTPUT"
  exit 0
fi
root=$(cd "$ACTION_PATH/../../.." && pwd)
digest=$(cd "$root" && find Package.swift Sources scenarios -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
{
  echo "build=true"
  echo "cache-key=flakelab-build-$(uname -s)-$(uname -m)-$(swift --version 2>/dev/null | head -1 | tr -dc 'A-Za-z0-9.')-$digest"
} >> "$GITHUB_OUTPUT"
