#!/usr/bin/env bash
# Step 2 of the FlakeLab action: the flakelab executable, with its worker, harness and Swift
# Testing runner beside it: the one the `flakelab` input names, else this action's own FlakeLab
# built in release (a build the cache restored is built again in seconds).
set -euo pipefail
if [[ -n ${INPUT_FLAKELAB:-} ]]; then
  [[ -x $INPUT_FLAKELAB ]] || { echo "::error title=FlakeLab::the flakelab input names no executable: $INPUT_FLAKELAB"; exit 2; }
  echo "flakelab=$INPUT_FLAKELAB" >> "$GITHUB_OUTPUT"
  exit 0
fi
root=$(cd "$ACTION_PATH/../../.." && pwd)
# The history links the system's SQLite: its headers, where a runner image lacks them.
if ! pkg-config --exists sqlite3 2> /dev/null; then
  sudo=$(command -v sudo || true)
  $sudo apt-get update -qq && $sudo apt-get install -y -qq libsqlite3-dev pkg-config > /dev/null
fi
for product in flakelab flakelab-worker FlakeLabPreload FlakeLabSwiftTesting; do
  swift build --package-path "$root" --scratch-path "$BUILD_DIRECTORY" -c release --product "$product"
done
echo "flakelab=$BUILD_DIRECTORY/release/flakelab" >> "$GITHUB_OUTPUT"
