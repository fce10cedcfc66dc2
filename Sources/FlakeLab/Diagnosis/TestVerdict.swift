/// What the lab concludes of one of a package's tests, over every way it ran it.
package enum TestVerdict: String, Sendable, CaseIterable {
  /// Never failed, under any executor, in any layout the lab ran it.
  case stable
  /// Failed in some iterations and passed in others: by chance, by executor or by layout.
  case flaky
  /// Failed in every iteration it ran, everywhere.
  case failing
  /// The framework skipped it every time (disabled, a condition trait, `XCTSkip`).
  case skipped
  /// The lab could not run it at all: its processes ended before it started (the runs say why).
  case notRun
}

/// Why a flaky or failing test fails, as the measured contrasts between executors and layouts
/// show it. Each case is decided by ``Diagnostician`` from counts the finding carries.
package enum TestDiagnosis: String, Sendable, CaseIterable {
  /// Fails every time under every executor: a failure, not a flake.
  case alwaysFails = "always-fails"
  /// Passes under global, always fails under every executor that runs jobs on one queue, each
  /// time after a wait (a timeout, a wait of its own that ran out): it blocks a thread while it
  /// waits for async work.
  case blocksThread = "blocks-thread"
  /// Passes under global, always fails on one queue in FIFO order (serial, fifo), without
  /// waiting: that order is the order that fails it (a state checked before the work that sets
  /// it has run, or code that checks, awaits and then acts).
  case serialDeterministic = "serial-deterministic"
  /// Fails in suite passes significantly more than alone: it depends on the tests beside it.
  case interference
  /// Fails in fresh processes far more than in warm repetitions, and not as a race: warm runs
  /// never fail, or first runs fail on one queue too.
  case firstRun = "first-run"
  /// Fails under seeded, never under serial: it relies on the order a FIFO queue runs jobs in.
  /// (Not the order of tests, which the flaky-test literature calls order-dependent.)
  case fifoDependent = "fifo-dependent"
  /// Fails under global, never on one queue: a race between threads.
  case needsParallelism = "needs-parallelism"
  /// The thread sanitizer saw it race with a thread that no executor orders (a Dispatch queue,
  /// a `Thread`, an event loop): it fails on one queue too, and no seed replays it.
  case outsideExecutors = "outside-executors"
  /// Fails with some random seeds and passes with others, the same way each time: a random
  /// value or the order of a `Set` or `Dictionary` decides it.
  case randomness
  /// Fails significantly more often with busy threads competing for the cores, and no executor
  /// contrast explains it: real time decides it (a deadline met by a thin margin).
  case timing
  /// Its only failures are crashes of the test process while it ran beside other tests, none of
  /// which crashed alone: the crash is the suite's, and which test causes it is not known.
  case crashBesideOthers = "crash-beside-others"
  /// No experiment showed a cause: too few failures, a contrast no bigger than chance, or runs
  /// `--budget` or an interrupt cut short. The finding says what was ruled out.
  case undetermined

  /// The diagnosis a report names, under its name of today or of an earlier FlakeLab
  /// (`order-dependent`, now `fifo-dependent`).
  package init?(reading name: String) {
    self.init(rawValue: name == "order-dependent" ? Self.fifoDependent.rawValue : name)
  }

  /// The diagnosis in words, for the answer's first line.
  package var summary: String {
    switch self {
    case .alwaysFails: "fails every time, under every executor"
    case .blocksThread: "blocks a thread waiting for async work: never finishes on one queue"
    case .serialDeterministic: "fails every time on one queue, without waiting: that queue's order of jobs fails it"
    case .interference: "fails beside other tests far more often than alone"
    case .firstRun: "fails on a fresh process's first run far more than on warm repetitions"
    case .fifoDependent: "relies on the FIFO order of jobs: fails under seeded interleavings, never under serial"
    case .needsParallelism: "a race between threads: fails under global, never on one queue"
    case .outsideExecutors: "a race with a thread no executor orders (Dispatch, a Thread, an event loop)"
    case .randomness: "the random seed decides it: the same seeds fail it again, others pass"
    case .timing: "fails far more often when busy threads compete for the cores: real time decides it"
    case .crashBesideOthers: CrashBesideOthers.ofOneTest
    case .undetermined: "no experiment here showed why"
    }
  }

  /// The causes from the one that costs a team most to leave as it is to the least: a test that
  /// fails every time, a race in the code, the suite's crash, a blocked thread, shared state;
  /// then what makes the test alone flaky (first runs, the seed, time, the order of jobs); what
  /// no experiment showed last. The answer's summary groups its tests in this order.
  package static let byHarm: [TestDiagnosis] = [
    .alwaysFails, .needsParallelism, .outsideExecutors, .crashBesideOthers, .blocksThread, .interference, .firstRun,
    .randomness, .timing,
    .fifoDependent, .serialDeterministic, .undetermined,
  ]

  /// What to do, in a phrase: the summary's (``advice`` says it whole).
  package var remedy: String {
    switch self {
    case .alwaysFails: "fix the test or the code: it is broken"
    case .blocksThread: "await the work instead of blocking on it"
    case .serialDeterministic:
      "give the work a suspension point and run the test on the serial executor, or fix check-await-act"
    case .interference: "isolate the state it shares with its neighbours"
    case .firstRun: "make the first run deterministic"
    case .fifoDependent: "await the state, not the order of jobs"
    case .needsParallelism: "fix the race, in the code or the test's expectation; never serialize the test"
    case .outsideExecutors: "wait for the other thread's work; do not assume its order"
    case .randomness: "inject the random values, or compare without order"
    case .timing: "inject a clock, or wait for the event"
    case .crashBesideOthers: "find the test in flight that brings on the crash"
    case .undetermined: "more iterations"
    }
  }

  /// What to do about it, in general: a finding names the culprit where it can
  /// (``TestFinding/advice``).
  package var advice: String {
    switch self {
    case .alwaysFails: "fix the test or the code: it is broken, not flaky"
    case .blocksThread:
      "await the work instead of blocking on it (semaphore, group wait); never serialize this test"
    case .serialDeterministic:
      "replay it on one queue (--executor serial), where it fails every time; if it checks a state between two steps "
        + "of the work (isLoading), give the work a suspension point where the test looks and run the test on the serial "
        + "executor (Swift Testing: @Suite(.serialized, .serialExecutor), FlakeLabTesting's trait; XCTest: the test's "
        + "body in await withSerialExecutor { }, from FlakeLab); if the code checks, awaits, then acts on what it "
        + "checked, that is a real bug one queue exposes: fix the code"
    case .interference:
      "isolate the state it shares with its neighbours (a shared default, the environment, files); "
        + "no neighbour was named as the one that fails it: run it with each suspect (--filter) to tell"
    case .firstRun: "make the first run deterministic: lazy initialization, caches and warm-up decide it"
    case .fifoDependent:
      "a serial executor makes it deterministic, but the test still depends on that order of jobs; await the state instead"
    case .needsParallelism:
      "fix the race, in the code or in what the test expects of concurrent work: serializing the test would hide it"
    case .outsideExecutors:
      "the other thread's work is ordered by no executor: wait for it to end (a continuation resumed when it is done, "
        + "a group's notify, an event loop's future) rather than assume its order; a serial executor cannot fix this test"
    case .randomness:
      "replay the failing seed to see the value; make the test independent of the draw: inject a seeded generator or "
        + "fixed values, and compare sets and dictionaries without their order (sorted, or JSONEncoder's .sortedKeys)"
    case .timing:
      "a deadline or a sleep decides it, and a busy machine misses it: inject a clock, or wait for the event rather than a time"
    case .crashBesideOthers: CrashBesideOthers.advice
    case .undetermined:
      "see what was ruled out; more iterations (--iterations, a longer --budget if one cut the run) give the experiments more to go on"
    }
  }
}
