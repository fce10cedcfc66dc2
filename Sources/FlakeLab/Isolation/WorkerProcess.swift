import Foundation

/// One live worker process, seen from the supervisor: its iterations, its outcome feed, and the
/// tail of what it printed.
final class WorkerProcess {
  /// How much of a worker's output is kept for crash reports.
  static let outputTailLimit = 8192

  let indices: Range<Int>
  let pid: pid_t
  let feed: any OutcomeFeed
  private let output: Int32
  /// Readable once the worker has exited (``SystemCalls/exitDescriptor(of:)``), or -1.
  private let exitDescriptor: Int32
  private var outputTail: [UInt8] = []
  /// Set once its output reached its end: the worker exited, or closed both its outputs.
  private var outputEnded = false

  /// Iterations finished, as last read from the feed, and when that count last moved (or the
  /// worker became ready: start-up never counts against the per-iteration timeout).
  private(set) var completed = 0
  private(set) var lastProgress: ContinuousClock.Instant
  private(set) var startedAt: ContinuousClock.Instant
  private(set) var isReady = false
  /// When the worker became ready: what it did from then on is its iterations' time, without
  /// the start-up a loaded machine stretches.
  private(set) var readyAt: ContinuousClock.Instant?
  /// Failure records drained so far.
  private(set) var failures = 0
  /// Warm-up iterations seen finished, each progress for the timeout.
  private var warmUpsSeen = 0
  /// Set when the supervisor killed the worker for going past the timeout.
  var wasTimedOut = false

  init(_ launch: WorkerLaunch, indices: Range<Int>) throws {
    self.indices = indices
    feed = launch.feed
    let spawned = try ProcessSpawner.spawn(
      executable: launch.executable, arguments: launch.arguments,
      environment: launch.environment, channel: feed.descriptor, as: launch.channelDescriptor,
      inherited: launch.inherited)
    feed.releaseWorkerEnd()
    pid = spawned.pid
    output = spawned.output
    exitDescriptor = SystemCalls.exitDescriptor(of: pid)
    startedAt = .now
    lastProgress = startedAt
  }

  deinit {
    close(output)
    if exitDescriptor >= 0 { close(exitDescriptor) }
  }

  /// What the worker published since the last poll (records only; passes are counted once the
  /// worker has ended, from `completed`).
  func poll() -> WorkerNews {
    let before = completed
    var (finished, records) = feed.poll()
    for record in records {
      failures += 1
      // A record is published just before the counter moves past its iteration.
      finished = max(finished, record.index + 1 - indices.lowerBound)
    }
    completed = max(completed, finished)
    if !isReady, feed.workerIsReady {
      isReady = true
      lastProgress = .now
      readyAt = lastProgress
    }
    // Progress is progress, whether it came as passes or as failure records.
    if completed > before || feed.warmUpsFinished > warmUpsSeen { lastProgress = .now }
    warmUpsSeen = feed.warmUpsFinished
    readOutput()
    return WorkerNews(records: records, scheduleIsUncontrolled: feed.scheduleIsUncontrolled)
  }

  /// The last of what an ended worker published: its remaining records, its passes (every
  /// finished iteration that left no record), and its share of the schedule hash.
  func collectFinal(status: Int32) -> WorkerNews {
    readOutput()
    feed.workerEnded(status: status, output: String(decoding: outputTail, as: UTF8.self))
    var news = poll()
    news.passes = completed - failures
    news.scheduleShare = feed.schedules
    return news
  }

  /// Set once the worker has been reaped: its process ID may belong to another process now.
  private var hasEnded = false

  /// The exit status if the worker has ended, without waiting.
  func reap(waiting: Bool = false) -> Int32? {
    guard !hasEnded else { return nil }
    var status: Int32 = 0
    let result = waitpid(pid, &status, waiting ? 0 : WNOHANG)
    hasEnded = result == pid
    // What the worker started ends with it.
    if hasEnded { ProcessTree.killGroup(pid) }
    return hasEnded ? status : nil
  }

  /// Kills the worker and everything in its process group.
  func kill() {
    send(SIGKILL)
  }

  /// Sends `signalNumber` to the worker's whole process group: a stop or a kill reaches the
  /// processes its test started too.
  func send(_ signalNumber: Int32) {
    if !hasEnded { Foundation.kill(-pid, signalNumber) }
  }

  /// Continues a worker stopped with its supervisor; the time stopped is not the test's.
  func continueAfterStop() {
    send(SIGCONT)
    let now = ContinuousClock.now
    startedAt = now
    lastProgress = now
  }

  /// Waits `interval`, or less if one of `workers` ends meanwhile: its exit wakes the wait, so
  /// that the next worker starts at once rather than up to an interval later, once per worker
  /// of a run, also while a process the test started keeps its output open. Output itself does
  /// not wake it: a chatty test would keep the supervisor busy on the cores the test runs on.
  /// Where the system gives no exit descriptor, the output's end stands for the exit, and a
  /// worker whose output has ended is looked at again within the short interval.
  static func wait(forAnEndOf workers: [WorkerProcess], upTo interval: useconds_t) {
    let live = workers.filter { !$0.hasEnded }
    let exitUnseen = live.contains { $0.outputEnded && $0.exitDescriptor < 0 }
    let interval = exitUnseen ? min(interval, Supervisor.pollInterval) : interval
    var descriptors =
      live.filter { !$0.outputEnded }.map { pollfd(fd: $0.output, events: 0, revents: 0) }
      + live.filter { $0.exitDescriptor >= 0 }.map { pollfd(fd: $0.exitDescriptor, events: Int16(POLLIN), revents: 0) }
    guard !descriptors.isEmpty else {
      usleep(interval)
      return
    }
    _ = Glibc.poll(&descriptors, nfds_t(descriptors.count), Int32(interval / 1000))
  }

  /// How the worker ended with `status`, after `lifetime`.
  func exit(status: Int32, lifetime: Duration) -> ProcessExit {
    ProcessExit(
      status: status, wasTimedOut: wasTimedOut, wasReady: isReady, output: lastOutput(), lifetime: lifetime)
  }

  /// The end of what the worker printed.
  private func lastOutput() -> String {
    readOutput()
    return String(decoding: outputTail, as: UTF8.self)
  }

  private func readOutput() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(output, &buffer, buffer.count)
      if count == 0 { outputEnded = true }
      guard count > 0 else { return }
      outputTail += buffer[..<count]
      if outputTail.count > Self.outputTailLimit {
        // Keep whole lines: a line cut in half would read as a different message.
        let cut = outputTail.count - Self.outputTailLimit
        let lineStart = outputTail[cut...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? cut
        outputTail.removeFirst(lineStart)
      }
    }
  }
}
