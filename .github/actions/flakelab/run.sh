#!/usr/bin/env bash
# Step 3 of the FlakeLab action: `flakelab ci` on the package. flakelab itself puts the markdown
# on the job summary and the annotations in the log, since GITHUB_ACTIONS is set; this writes the
# files the `formats` input asks for and the step's outputs, and ends with flakelab's status.
set -uo pipefail
flakelab=${FLAKELAB:?the build step names the flakelab executable}
# A directory that cannot be made (a file is in the way) fails the step: the reports would
# otherwise go to / and the step pass. `--` keeps a name that begins with `-` a name.
if ! mkdir -p -- "$INPUT_OUTPUT_DIRECTORY" || ! directory=$(cd -- "$INPUT_OUTPUT_DIRECTORY" && pwd) \
  || [[ -z $directory ]]; then
  echo "::error title=FlakeLab::the output-directory input, '$INPUT_OUTPUT_DIRECTORY', is not a directory that can be made"
  exit 2
fi
arguments=(ci --package-path "$INPUT_PACKAGE_PATH" --retries "$INPUT_RETRIES" --no-progress)
[[ $INPUT_FAIL_ON_FLAKY == true ]] && arguments+=(--fail-on-flaky)
[[ -n $INPUT_QUARANTINE ]] && arguments+=(--quarantine "$INPUT_QUARANTINE")
[[ -n $INPUT_HISTORY ]] && arguments+=(--record "$INPUT_PACKAGE_PATH/$INPUT_HISTORY")
# Every line of the input, split at white space: a `--fail-on-flaky` on the third line counts.
if [[ -n $INPUT_ARGUMENTS ]]; then
  read -r -d '' -a more <<< "$INPUT_ARGUMENTS" || true
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
