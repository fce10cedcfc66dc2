import Foundation

/// One live worker process, seen from the supervisor: its iterations, its outcome channel, and
/// the tail of what it printed.
final class WorkerProcess {
  /// How much of a worker's output is kept for crash reports.
  static let outputTailLimit = 8192

  let invocation: WorkerInvocation
  let pid: pid_t
  let channel: OutcomeChannelReader
  private let output: Int32
  private var outputTail: [UInt8] = []

  /// Iterations finished, as last read from the channel, and when that count last moved.
  private(set) var completed = 0
  private(set) var lastProgress: ContinuousClock.Instant
  /// Failure records drained so far.
  private(set) var failures = 0
  /// Set when the supervisor killed the worker for going past the timeout.
  var wasTimedOut = false

  init(invocation: WorkerInvocation, executable: String) throws {
    self.invocation = invocation
    channel = try OutcomeChannelReader()
    var environment = ProcessInfo.processInfo.environment
    // A trap should end the worker at once with a short message, not symbolicate a backtrace.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let spawned = try ProcessSpawner.spawn(
      executable: executable, arguments: invocation.arguments, environment: environment,
      channel: channel.descriptor)
    pid = spawned.pid
    output = spawned.output
    lastProgress = .now
  }

  deinit {
    close(output)
  }

  /// The first iteration this worker has not finished: the one running now, if any.
  var currentIndex: Int { invocation.indices.lowerBound + completed }

  /// Reads what the worker published since the last poll into `tally` and `schedule` (records
  /// only; passes are counted once the worker has ended, from `completed`).
  func poll(into tally: inout Tally, schedule: inout RunSchedule?) {
    let before = completed
    var finished = channel.completed
    for record in channel.drain() {
      tally.record(record.outcome, count: 1)
      schedule?.noteFailing(
        index: record.index, fingerprint: record.fingerprint, outcome: record.outcome)
      failures += 1
      // A record is published just before the counter moves past its iteration.
      finished = max(finished, record.index + 1 - invocation.indices.lowerBound)
    }
    completed = max(completed, finished)
    // Progress is progress, whether it came as passes or as failure records.
    if completed > before { lastProgress = .now }
    readOutput()
  }

  /// Takes the last of what an ended worker published: its remaining records, its passes
  /// (every finished iteration that left no record), and its share of the schedule hash.
  func collectFinal(into tally: inout Tally, schedule: inout RunSchedule?) {
    poll(into: &tally, schedule: &schedule)
    tally.record(.passed, count: completed - failures)
    schedule?.fingerprint ^= channel.schedules
  }

  /// The exit status if the worker has ended, without waiting.
  func reap(waiting: Bool = false) -> Int32? {
    var status: Int32 = 0
    let result = waitpid(pid, &status, waiting ? 0 : WNOHANG)
    return result == pid ? status : nil
  }

  func kill() {
    Foundation.kill(pid, SIGKILL)
  }

  /// The gist of what the worker printed last (see ``CrashSummary``).
  func lastOutputLines(_ count: Int = 2) -> String {
    readOutput()
    return CrashSummary.summarize(String(decoding: outputTail, as: UTF8.self), lines: count)
  }

  private func readOutput() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(output, &buffer, buffer.count)
      guard count > 0 else { return }
      outputTail += buffer[..<count]
      if outputTail.count > Self.outputTailLimit {
        outputTail.removeFirst(outputTail.count - Self.outputTailLimit)
      }
    }
  }
}
