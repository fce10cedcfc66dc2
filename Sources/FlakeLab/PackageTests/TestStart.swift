/// When a test's run started: as the supervisor read its event (what a hang and the progress
/// line are timed from), and by the test process's own clock where the event said
/// (`instant.absolute`), which the test's time is taken from.
struct TestStart {
  let read: ContinuousClock.Instant
  let at: Double?

  init(at: Double?) {
    read = .now
    self.at = at
  }

  /// The run's time to an end stamped `endedAt`: by the process's own clock where both events
  /// said, which no wake-up of the supervisor moves; else from when the start was read to now.
  func duration(toEndAt endedAt: Double?) -> Duration {
    if let at, let endedAt, endedAt >= at { return .seconds(endedAt - at) }
    return ContinuousClock.now - read
  }
}
