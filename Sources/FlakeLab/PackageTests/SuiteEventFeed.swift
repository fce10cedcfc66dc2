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
    var outcome: Outcome?
    var example: String?
    /// Where its first failure was recorded, when the framework said.
    var place: SourceLocation?
    /// Another test of the process whose body holds `place` and that ran before this one ended:
    /// where the failure probably came from (``FailureOrigin``), never a reason to take it away.
    var origin: Int?
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
  private var starts: [Int: TestStart] = [:]
  /// Tests started and not yet ended, with when the supervisor read their start.
  var inFlight: [Int: ContinuousClock.Instant] { starts.mapValues(\.read) }
  private var issues: [Int: [String]] = [:]
  /// Issue events read for each test in flight, failures or not: what its end's count is checked
  /// against.
  private var issuesRead: [Int: Int] = [:]
  /// Where each test in flight first failed, when the framework said.
  private var places: [Int: SourceLocation] = [:]
  /// Whose body holds a failure's line (XCTest): a hint of where a failure came from.
  private let bodies: TestBodies
  private var executorChanged: Set<Int> = []
  /// Starts and ends counted in the order read: a test's neighbours are worked out from these
  /// only when it fails, so a pass of thousands of tests in flight together costs no set of
  /// neighbours for each (quadratic), only what its failures need.
  private var events = 0
  private var startedAt: [Int: Int] = [:]
  /// The tests ended so far, with the count at their end, in that order.
  private var ended: [(test: Int, at: Int)] = []
  /// Tests finished since the last ``drain()``; drained only once the process ended, a test's
  /// outcome can still take a failure that lands on its line after it ended.
  private var finished: [Finished] = []
  /// The position in `finished` of each test in it.
  private var finishedAt: [Int: Int] = [:]
  private var completed = 0
  /// Events the run's end counts (``TestEvent/isCounted``), as read here.
  private var eventsRead = 0
  /// What the harness said at the run's end: how many such events it wrote.
  private var eventsWritten: Int?
  /// Issues that tests' ends say were recorded and that never arrived: the tests cut their own
  /// stream (``TestEventFeed/failure(_:recorded:read:)``), which the lab did not lose.
  private var unreceived = 0
  /// Lines that name an event's kind but read as no JSON value (two events run together), and
  /// events that fit no test's order of start, issues and end.
  private var outOfPlace = 0

  /// Whether what the process wrote does not add up: a line no one can read, an end with no
  /// start, a start of a test already running, or fewer events read than the harness wrote, or
  /// a test still running when the harness said the run was over. Then nothing the process said
  /// is any test's outcome: an event was lost on the way, by the lab.
  var lostEvents: Bool {
    outOfPlace > 0 || eventsWritten.map { $0 != eventsRead + unreceived || !starts.isEmpty } ?? false
  }

  init(testIDs: [String], bodies: TestBodies = TestBodies()) throws {
    pipe = try EventPipe()
    self.bodies = bodies
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
    defer {
      finished = []
      finishedAt = [:]
    }
    return finished
  }

  /// The test of the pass an event's ID names (``TestEvent/testIDs(namedBy:)``), the longest
  /// first. A suite's own events name none.
  private func position(of eventID: String) -> Int? {
    TestEvent.testIDs(namedBy: eventID).lazy.compactMap { self.positions[String($0)] }.first
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
      executorChanged.formUnion(starts.keys)
    case .runEnded(let written):
      eventsWritten = written
    case .testStarted(let id, let at):
      guard let test = position(of: id) else { return }
      workerIsReady = true
      if starts[test] != nil { outOfPlace += 1 }
      events += 1
      startedAt[test] = events
      starts[test] = TestStart(at: at)
      issues[test] = []
    case .issueRecorded(let id, let message, let isFailure, let location):
      if let test = id.flatMap(position(of:)), issues[test] != nil { issuesRead[test, default: 0] += 1 }
      guard isFailure else { return }
      // An issue outside any test's task names no test: it is the test's only when one is in flight.
      guard let test = id.flatMap(position(of:)) ?? (starts.count == 1 ? starts.keys.first : nil) else {
        chargeWithNoTestRunning(message, at: location)
        return
      }
      guard issues[test] != nil else {
        ignoredEvents += 1
        return
      }
      issues[test]?.append(message)
      places[test] = places[test] ?? location
    case .testEnded(let id, let at, let recorded):
      guard let test = position(of: id) else { return }
      guard let said = issues[test] else {
        outOfPlace += 1
        return
      }
      let read = issuesRead[test] ?? 0
      unreceived += max(0, (recorded ?? 0) - read)
      let failure = TestEventFeed.failure(said, recorded: recorded, read: read)
      finish(
        test, failure.map { .failed(observation: $0.observation) }, example: failure?.example, place: places[test],
        endedAt: at)
    case .testSkipped(let id, let message):
      guard let test = position(of: id) else { return }
      finish(test, .skipped(reason: FailureText.normalize(message)))
    default:
      break
    }
  }

  private func finish(
    _ test: Int, _ outcome: Outcome?, example: String? = nil, place: SourceLocation? = nil, endedAt: Double? = nil
  ) {
    let changed = executorChanged.remove(test) != nil
    let outcome = changed ? .executorChanged : outcome
    let failed = outcome.map { !$0.isOutsideTheRate } ?? false
    finishedAt[test] = finished.count
    finished.append(
      Finished(
        test: test, outcome: outcome, example: changed ? nil : example, place: changed ? nil : place,
        origin: failed ? place.flatMap { origin(of: $0, failing: test) } : nil,
        neighbours: failed ? neighbours(of: test) : [],
        duration: starts[test]?.duration(toEndAt: endedAt) ?? .zero))
    events += 1
    if startedAt.removeValue(forKey: test) != nil { ended.append((test, events)) }
    starts[test] = nil
    issues[test] = nil
    issuesRead[test] = nil
    places[test] = nil
    completed += 1
  }

  /// The test of the process other than `test` whose body holds `place`, if it started before
  /// `test` ended (it ran before it, or beside it).
  private func origin(of place: SourceLocation, failing test: Int) -> Int? {
    guard let owner = bodies.owner(of: place).flatMap({ positions[$0] }), owner != test,
      finishedAt[owner] != nil || starts[owner] != nil
    else { return nil }
    return owner
  }

  /// A failure recorded while no test ran, on the line of a test that passed in this process: it
  /// failed after all, recorded after it ended. Nothing else would count it (`swift test` fails
  /// the run); a test still running, or failed already, takes nothing more.
  private func chargeWithNoTestRunning(_ message: String, at place: SourceLocation?) {
    guard let place, let owner = bodies.owner(of: place).flatMap({ positions[$0] }), let index = finishedAt[owner],
      finished[index].outcome == nil
    else {
      ignoredEvents += 1
      return
    }
    let said = FailureText.normalize(message)
    finished[index].outcome = .failed(observation: "\(said) (recorded after the test ended, while no test ran)")
    finished[index].example = said == message ? nil : "\(message) (recorded after the test ended, while no test ran)"
    finished[index].place = place
  }

  /// The tests in flight at some moment while `test` was, as it ends: those still in flight,
  /// and those that ended after it started.
  private func neighbours(of test: Int) -> Set<Int> {
    var beside = Set(starts.keys)
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
