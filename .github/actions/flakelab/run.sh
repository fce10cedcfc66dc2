#!/usr/bin/env bash
# Step 3 of the FlakeLab action: `flakelab ci` on the package. flakelab itself puts the markdown
# on the job summary and the annotations in the log, since GITHUB_ACTIONS is set; this writes the
# files the `formats` input asks for and the step's outputs, and ends with flakelab's status.
set -uo pipefail
flakelab=${FLAKELAB:?the build step names the flakelab executable}
mkdir -p "$INPUT_OUTPUT_DIRECTORY"
directory=$(cd "$INPUT_OUTPUT_DIRECTORY" && pwd)
arguments=(ci --package-path "$INPUT_PACKAGE_PATH" --retries "$INPUT_RETRIES" --no-progress)
[[ $INPUT_FAIL_ON_FLAKY == true ]] && arguments+=(--fail-on-flaky)
[[ -n $INPUT_QUARANTINE ]] && arguments+=(--quarantine "$INPUT_QUARANTINE")
[[ -n $INPUT_HISTORY ]] && arguments+=(--record "$INPUT_PACKAGE_PATH/$INPUT_HISTORY")
if [[ -n $INPUT_ARGUMENTS ]]; then
  read -r -a more <<< "$INPUT_ARGUMENTS"
  arguments+=("${more[@]}")
fi
junit= json=
IFS=',' read -r -a formats <<< "$INPUT_FORMATS"
for format in "${formats[@]}"; do
  case ${format// /} in
    junit) junit=$directory/flakelab-ci.xml ;;
    json) json=$directory/flakelab-ci.json ;;
    '') ;;
    *) echo "::error title=FlakeLab::the formats input takes junit and json, not '$format'"; exit 2 ;;
  esac
done
# The JSON through --output (written whatever the status); the JUnit is the report on stdout.
[[ -n $json ]] && arguments+=(--output "$json")
if [[ -n $junit ]]; then
  "$flakelab" "${arguments[@]}" --format junit > "$junit"
else
  "$flakelab" "${arguments[@]}" --format text
fi
status=$?
{
  echo "junit=$junit"
  echo "json=$json"
  echo "status=$status"
} >> "$GITHUB_OUTPUT"
exit "$status"
