import Foundation

/// The supervisor's end of a suite pass's event stream: one outcome for every test the process
/// finished, which tests are in flight now and since when, and which tests ran beside each.
///
/// Tests of a pass may run in parallel (Swift Testing under the global executor), so a test's
/// events are told apart by its ID, not by their order.
final class SuiteEventFeed: OutcomeFeed {
  /// A test the process finished, by its position in the pass's list.
  struct Finished {
    let test: Int
    /// Nil when it passed.
    let outcome: Outcome?
    let example: String?
    /// Tests that were in flight at some moment while this one was.
    let neighbours: Set<Int>
    /// From its start to its end (zero for a test skipped before it started).
    let duration: Duration
  }

  private let pipe: EventPipe
  var descriptor: Int32 { pipe.workerEnd }
  /// Position of each test ID in the pass's list.
  private let positions: [String: Int]
  private(set) var workerIsReady = false
  private(set) var scheduleIsUncontrolled = false
  private(set) var ignoredEvents = 0
  /// Tests started and not yet ended, with when they started.
  private(set) var inFlight: [Int: ContinuousClock.Instant] = [:]
  private var issues: [Int: [String]] = [:]
  private var executorChanged: Set<Int> = []
  /// Starts and ends counted in the order read: a test's neighbours are worked out from these
  /// only when it fails, so a pass of thousands of tests in flight together costs no set of
  /// neighbours for each (quadratic), only what its failures need.
  private var events = 0
  private var startedAt: [Int: Int] = [:]
  /// The tests ended so far, with the count at their end, in that order.
  private var ended: [(test: Int, at: Int)] = []
  /// Tests finished since the last ``drain()``.
  private var finished: [Finished] = []
  private var completed = 0
  /// Events the run's end counts (``TestEvent/isCounted``), as read here.
  private var eventsRead = 0
  /// What the harness said at the run's end: how many such events it wrote.
  private var eventsWritten: Int?
  /// Lines that name an event's kind but read as no JSON value (two events run together), and
  /// events that fit no test's order of start, issues and end.
  private var outOfPlace = 0

  /// Whether what the process wrote does not add up: a line no one can read, an end with no
  /// start, a start of a test already running, or fewer events read than the harness wrote, or
  /// a test still running when the harness said the run was over. Then nothing the process said
  /// is any test's outcome: an event was lost on the way, by the lab.
  var lostEvents: Bool {
    outOfPlace > 0 || eventsWritten.map { $0 != eventsRead || !inFlight.isEmpty } ?? false
  }

  init(testIDs: [String]) throws {
    pipe = try EventPipe()
    positions = Dictionary(testIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
  }

  func releaseWorkerEnd() {
    pipe.releaseWorkerEnd()
  }

  func poll() -> (completed: Int, records: [ChannelRecord]) {
    pipe.read { handle($0) }
    return (completed, [])
  }

  /// The tests finished since the last call.
  func drain() -> [Finished] {
    defer { finished = [] }
    return finished
  }

  /// The test an event's ID names: the ID itself, or one of the pass's tests it extends (Swift
  /// Testing appends the source location). A suite's own events name none.
  private func position(of eventID: String) -> Int? {
    var id = Substring(eventID)
    while true {
      if let position = positions[String(id)] { return position }
      guard let slash = id.lastIndex(of: "/") else { return nil }
      id = id[..<slash]
    }
  }

  private func handle(_ line: ArraySlice<UInt8>) {
    guard LineReader.line(line, hasKindAmong: Self.kinds) else { return }
    guard let event = TestEvent.parse(line) else {
      if JSONParser.parse(line) == nil { outOfPlace += 1 }
      return
    }
    if event.isCounted { eventsRead += 1 }
    switch event {
    case .runStarted:
      workerIsReady = true
    case .scheduleUncontrolled:
      scheduleIsUncontrolled = true
    case .executorChanged:
      // Said just before a test ends; one queue runs one test at a time.
      executorChanged.formUnion(inFlight.keys)
    case .runEnded(let written):
      eventsWritten = written
    case .testStarted(let id):
      guard let test = position(of: id) else { return }
      workerIsReady = true
      if inFlight[test] != nil { outOfPlace += 1 }
      events += 1
      startedAt[test] = events
      inFlight[test] = .now
      issues[test] = []
    case .issueRecorded(let id, let message, true):
      // An issue outside any test's task names no test: it is the test's only when one is in flight.
      let test = id.flatMap(position(of:)) ?? (inFlight.count == 1 ? inFlight.keys.first : nil)
      guard let test, issues[test] != nil else {
        ignoredEvents += 1
        return
      }
      issues[test]?.append(message)
    case .testEnded(let id):
      guard let test = position(of: id) else { return }
      guard let said = issues[test] else {
        outOfPlace += 1
        return
      }
      let failure = TestEventFeed.failure(said)
      finish(test, failure.map { .failed(observation: $0.observation) }, example: failure?.example)
    case .testSkipped(let id, let message):
      guard let test = position(of: id) else { return }
      finish(test, .skipped(reason: FailureText.normalize(message)))
    default:
      break
    }
  }

  private func finish(_ test: Int, _ outcome: Outcome?, example: String? = nil) {
    let changed = executorChanged.remove(test) != nil
    let outcome = changed ? .executorChanged : outcome
    let failed = outcome.map { !$0.isOutsideTheRate } ?? false
    finished.append(
      Finished(
        test: test, outcome: outcome, example: changed ? nil : example,
        neighbours: failed ? neighbours(of: test) : [],
        duration: inFlight[test].map { ContinuousClock.now - $0 } ?? .zero))
    events += 1
    if startedAt.removeValue(forKey: test) != nil { ended.append((test, events)) }
    inFlight[test] = nil
    issues[test] = nil
    completed += 1
  }

  /// The tests in flight at some moment while `test` was, as it ends: those still in flight,
  /// and those that ended after it started.
  private func neighbours(of test: Int) -> Set<Int> {
    var beside = Set(inFlight.keys)
    beside.remove(test)
    guard let start = startedAt[test] else { return beside }
    for other in ended.reversed() {
      guard other.at > start else { break }
      beside.insert(other.test)
    }
    return beside
  }

  private static let kinds = TestEvent.kinds.map { Array($0.utf8) }
}
