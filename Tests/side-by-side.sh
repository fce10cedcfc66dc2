#!/usr/bin/env bash
# `make test`'s run of the suite, once `swift build --build-tests` has built it: two `swift test`
# processes side by side, the longest classes in one and every other test in the other. The
# suite mostly waits on the processes its tests start (run whole, it kept 83% of one core busy of
# two), so the two halves take about two thirds of its time one after the other.
#
# `--ignore-lock`: SwiftPM otherwise holds the second `swift test` until the first ends; both
# only read the build. Whichever starts second says it ignored the lock, a line each half's
# output has taken out. The rest streams here; the long classes' output follows it, and the run
# fails when either half does. Ctrl-C or SIGTERM stops both, as it stops one `swift test`.
#
# The long classes are those declared `…: XCTestCase, LongHalf` (Tests/FlakeLabTests/Support/
# LongHalf.swift); `--long-classes` prints them, and SourceHygieneTests checks that reading
# against the classes that conform. SwiftPM's own `swift test --parallel` does not serve: it runs
# every test in a process of its own, so that what a class shares between its tests (a fixture's
# build, one real run that many checks read) is paid again for each, and it cannot be told which
# tests are long.
set -u
cd "$(dirname "$0")/.."
long_classes() {
  grep -ho '^final class [A-Za-z0-9_]*: XCTestCase, LongHalf {' Tests/FlakeLabTests/*.swift \
    | sed 's/^final class \([A-Za-z0-9_]*\):.*/\1/' | sort
}
if [ "${1:-}" = "--long-classes" ]; then
  long_classes
  exit 0
fi
swift="${SWIFT:-swift}"
long="^FlakeLabTests\\.($(long_classes | paste -sd '|'))/"
log="$(mktemp)"
ignored='s/Another instance of SwiftPM (PID: [0-9]*) is already running using .* has been passed//'
"$swift" test --skip-build --ignore-lock --filter "$long" > "$log" 2>&1 &
beside=$!
# Both in the background, so that a signal to this script alone is taken at once, not when the
# rest has ended; SwiftPM answers SIGINT by stopping its test process, which stops what it started.
"$swift" test --skip-build --ignore-lock --skip "$long" > >(sed -u "$ignored") 2>&1 &
rest=$!
trap 'kill -INT "$beside" "$rest" 2> /dev/null; wait; rm -f "$log"; exit 130' INT TERM
wait "$rest"
rest_status=$?
wait "$beside"
long_status=$?
trap - INT TERM
echo "== the long classes, run beside the tests above: $long =="
sed "$ignored" "$log"
rm -f "$log"
half() { if [ "$1" -eq 0 ]; then echo "passed"; else echo "FAILED (exit $1)"; fi; }
echo "== the rest $(half "$rest_status"), the long classes $(half "$long_status")"
[ "$rest_status" -eq 0 ] && [ "$long_status" -eq 0 ]
