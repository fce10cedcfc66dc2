# FlakeLab: `make run` shows the lab at work, `make test` passes the tests.
SWIFT ?= swift

# FlakeLab runs on Linux only today: the harness interposes glibc's calls and reads /proc.
ifneq ($(shell uname -s),Linux)
$(error FlakeLab runs on Linux only today, not on $(shell uname -s): see the README's Set up)
endif
FLAKELAB = .build/release/flakelab
PREFIX ?= /usr/local

.PHONY: build debug run test check bench docs reports format install clean

# flakelab, and next to it its workers (flakelab without the history's SQLite), the harness
# `flakelab test` preloads into a package's test binary and the Swift Testing runner the harness
# opens.
build:
	$(SWIFT) build -c release --product flakelab
	$(SWIFT) build -c release --product flakelab-worker
	$(SWIFT) build -c release --product FlakeLabPreload
	$(SWIFT) build -c release --product FlakeLabSwiftTesting

# The same, debug: what the tests and `make reports` run.
debug:
	$(SWIFT) build --product flakelab
	$(SWIFT) build --product flakelab-worker
	$(SWIFT) build --product FlakeLabPreload
	$(SWIFT) build --product FlakeLabSwiftTesting

run: build
	$(FLAKELAB) run isLoading --iterations 10000
	$(FLAKELAB) compare isLoading backToBack.serialForm cancel screenshots toggleRace runtimeOrder --iterations 1000
	$(FLAKELAB) test --package-path Tests/Fixtures/FlakeKinds

# The suite in two `swift test`s side by side (Tests/side-by-side.sh says why and how).
test: debug
	$(SWIFT) build --build-tests
	SWIFT="$(SWIFT)" Tests/side-by-side.sh

# The lab's own claims, judged statistically: a CI job of its own, not part of `make test`.
check: build
	$(FLAKELAB) check --iterations 1000 --no-progress

bench: build
	$(SWIFT) build -c release --product flakelab-bench
	.build/release/flakelab-bench

# The reports the renderers' tests read (Tests/Reports), written again from real runs: after a
# change to what a report holds, `make test` says which are due. Paths are kept from the
# repository's root, so that a report renders alike in any clone.
BLOCKING_ANSWER = Tests/Reports/blocking-answer.json
reports: debug
	.build/debug/flakelab test --package-path Tests/Fixtures/FlakeKinds --iterations 3 --executor serial \
	  --filter 'blocksThread|stable\(\)' --no-progress --format json > $(BLOCKING_ANSWER).new
	sed 's|"$(CURDIR)/|"|g' $(BLOCKING_ANSWER).new > $(BLOCKING_ANSWER) && rm $(BLOCKING_ANSWER).new

# The sources in the toolchain's formatter (.swift-format: two spaces, 120 characters a line).
format:
	$(SWIFT) format --configuration .swift-format -i -r Sources Tests/FlakeLabTests scenarios

# The public API's documentation (Sources/FlakeLab/FlakeLab.docc), built with every symbol link
# checked: a link to a name that does not exist, or is not public, fails. Output: .build/docs.
docs:
	$(SWIFT) package dump-symbol-graph
	rm -rf .build/docs-symbols && mkdir -p .build/docs-symbols
	cp "$$(dirname "$$($(SWIFT) build --show-bin-path)")/symbolgraph/FlakeLab.symbols.json" .build/docs-symbols/
	docc convert Sources/FlakeLab/FlakeLab.docc --additional-symbol-graph-dir .build/docs-symbols \
	  --fallback-display-name FlakeLab --fallback-bundle-identifier org.flakelab.FlakeLab \
	  --output-path .build/docs --warnings-as-errors

# flakelab on the PATH, with its workers and the harness where it looks for them:
# $(PREFIX)/lib/flakelab; and its
# completions where bash-completion, zsh and fish look for them.
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/flakelab
	install -m 755 .build/release/flakelab $(DESTDIR)$(PREFIX)/bin/flakelab
	install -m 755 .build/release/flakelab-worker $(DESTDIR)$(PREFIX)/lib/flakelab/flakelab-worker
	install -m 755 .build/release/libFlakeLabPreload.so $(DESTDIR)$(PREFIX)/lib/flakelab/libFlakeLabPreload.so
	install -m 755 .build/release/libFlakeLabSwiftTesting.so $(DESTDIR)$(PREFIX)/lib/flakelab/libFlakeLabSwiftTesting.so
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(FLAKELAB) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/flakelab
	$(FLAKELAB) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_flakelab
	$(FLAKELAB) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/flakelab.fish
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*|*":$(PREFIX)/bin/:"*) ;; *) [ -n "$(DESTDIR)" ] || \
	  echo "note: $(PREFIX)/bin is not on your PATH: add it (export PATH=\"$(PREFIX)/bin:\$$PATH\" in your shell's profile) to run flakelab by name";; esac

clean:
	rm -rf .build
