extension SuitePassMachine {
  /// How one process of a pass ended: its exit, and the tests its events say it finished and
  /// left in flight. A worker running one run's iterations ends otherwise
  /// (``BatchMachine/BatchEnd``): counted, not read from test events.
  struct PassProcessEnd {
    var exit: ProcessExit
    var finished: [SuiteEventFeed.Finished]
    /// Tests in flight when it ended, with how long each had run.
    var inFlight: [(test: Int, ran: Duration)]
    var scheduleIsUncontrolled: Bool
    var ignoredEvents: Int
    /// The process's events did not add up (``SuiteEventFeed/lostEvents``): none is an outcome.
    var lostEvents: Bool

    var wasTimedOut: Bool { exit.wasTimedOut }

    /// Died (a signal or an exit status other than 0) before any test started, nothing lost:
    /// the framework's planning or a class's set-up killed it, for one of its tests.
    var diedBeforeAnyTestStarted: Bool {
      finished.isEmpty && inFlight.isEmpty && !exit.wasTimedOut && !lostEvents && exit.status != 0
    }

    /// Whether it got as far as a test.
    var startedATest: Bool { !finished.isEmpty || !inFlight.isEmpty }

    /// How it ended, as a crash: the status and the last lines it printed.
    var crash: Crash { exit.crash(beforeTheTestStarted: diedBeforeAnyTestStarted) }
  }
}
