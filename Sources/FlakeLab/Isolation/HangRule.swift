/// When a worker has hung, decided from what its supervisor last saw of it, apart from the loops
/// that poll processes, so that the rule is tested with none. A worker not ready within
/// ``Supervisor/startLimit`` never started; a ready one hangs when nothing it does moves for the
/// timeout. Start-up never counts against the timeout: a loaded machine stretches it.
enum HangRule {
  /// A worker of iterations (``Supervisor``): ready, its count of finished iterations has not
  /// moved for `timeout`.
  static func hasHung(isReady: Bool, sinceProgress: Duration, sinceStart: Duration, timeout: Duration) -> Bool {
    isReady ? sinceProgress > timeout : sinceStart > Supervisor.startLimit
  }

  /// A suite pass's process (``PassSupervisor``): a test has been in flight for `timeout`; or,
  /// ready, no test has been in flight for `timeout` (`idle`): between tests, and after the last
  /// until the process exits, a process stopped or stuck there hangs as surely as a test does.
  static func passHasHung(
    isReady: Bool, longestInFlight: Duration?, idle: Duration?, sinceStart: Duration, timeout: Duration
  ) -> Bool {
    if let longestInFlight, longestInFlight > timeout { return true }
    return isReady ? (idle.map { $0 > timeout } ?? false) : sinceStart > Supervisor.startLimit
  }
}
