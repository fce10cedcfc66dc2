import Foundation

/// The supervisor's end of a test process's event stream: a pipe the process writes JSON lines
/// into (on the descriptor ``HarnessConfiguration/channel`` draws), turned into iterations and
/// failure records.
///
/// Swift Testing writes the stream itself (`--event-stream-output-path /dev/fd/N`); for XCTest
/// the preloaded harness writes the same events. What the process wrote before it died is still
/// in the pipe, so a crash costs one iteration and never the results before it.
final class TestEventFeed: OutcomeFeed {
  private let pipe: EventPipe
  var descriptor: Int32 { pipe.workerEnd }
  private let testID: String
  private let firstIndex: Int
  /// Iterations the process was asked for: an iteration past them is not the lab's to count.
  private let iterations: Int
  /// Iterations the process runs first, not counted: a warm repetition follows an earlier run of
  /// the test in its process, and a process's first run is a first run (a cache filled lazily
  /// fails it, and would be counted warm once a process).
  private let warmUps: Int
  private(set) var warmUpsFinished = 0
  private var completed = 0
  private(set) var workerIsReady = false
  /// The issues of the iteration under way, as the test said them; nil between iterations.
  private var issues: [String]?
  /// Issue events of the iteration under way, failures or not: what its end's count is checked
  /// against.
  private var issuesRead = 0
  /// Where the first failure of the iteration under way was recorded, when the framework said.
  private var place: SourceLocation?
  /// Set when the test turned the run's executor off during the iteration under way.
  private var executorChanged = false
  private(set) var scheduleIsUncontrolled = false
  private(set) var times = IterationTimes()
  /// When the iteration under way started.
  private var started: TestStart?
  /// Where the iteration under way blocked its queue's thread, if it did, as the harness said it.
  private var blockedAt: Block?
  /// Each place failing iterations blocked at, unnamed, with how many blocked there.
  private var failingBlocks: [Block: Int] = [:]
  /// Passing iterations that blocked the queue's thread, wherever.
  private var passingBlocks = 0
  /// Names the stacks the harness captured where the test blocked, once it said its images.
  private var symbols: StackSymbols?
  private let packagePath: String
  /// Event lines of the test that fit no iteration: an end without a start, or past the
  /// iterations asked. Not the lab's to count; a test writing into the channel, say.
  private(set) var ignoredEvents = 0

  /// A new pipe for the test `testID` of a process whose first counted iteration is
  /// `firstIndex` and that runs `iterations` of them, after `warmUps` that are not counted; the
  /// places where it blocked are written from `packagePath`.
  init(testID: String, firstIndex: Int, iterations: Int, warmUps: Int = 0, packagePath: String = ".") throws {
    pipe = try EventPipe()
    self.packagePath = packagePath
    self.testID = testID
    self.firstIndex = firstIndex
    self.iterations = iterations
    self.warmUps = warmUps
  }

  func releaseWorkerEnd() {
    pipe.releaseWorkerEnd()
  }

  func poll() -> (completed: Int, records: [ChannelRecord]) {
    var records: [ChannelRecord] = []
    pipe.read { handle($0, into: &records) }
    return (completed, records)
  }

  private func handle(_ line: ArraySlice<UInt8>, into records: inout [ChannelRecord]) {
    // Most lines are of no interest (values, test records, run ends): skip them unparsed.
    guard Self.mayMatter(line), let event = TestEvent.parse(line) else { return }
    switch event {
    case .runStarted:
      workerIsReady = true
    case .scheduleUncontrolled:
      scheduleIsUncontrolled = true
    case .executorChanged where issues != nil:
      executorChanged = true
    case .stackImages(let map, let program):
      symbols = StackSymbols(imageMap: map, program: program, packagePath: packagePath)
    case .threadBlocked(let call, let frame, let stack) where issues != nil:
      blockedAt = blockedAt ?? Block(call: call, frame: frame, stack: stack)
    case .testStarted(let id, let at) where TestEvent.testID(id, belongsTo: testID):
      workerIsReady = true
      issues = []
      issuesRead = 0
      place = nil
      started = TestStart(at: at)
    case .issueRecorded(let id, let message, let isFailure, let location)
    where issues != nil && id.map { TestEvent.testID($0, belongsTo: testID) } ?? true:
      if id != nil { issuesRead += 1 }
      guard isFailure else { return }
      issues?.append(message)
      place = place ?? location
    case .testEnded(let id, _, _) where issues == nil && TestEvent.testID(id, belongsTo: testID):
      ignoredEvents += 1
    case .testEnded(let id, let at, let recorded) where TestEvent.testID(id, belongsTo: testID):
      let failure = Self.failure(issues ?? [], recorded: recorded, read: issuesRead)
      finishIteration(
        failure.map { .failed(observation: $0.observation) }, example: failure?.example, endedAt: at, into: &records)
    case .testSkipped(let id, let message) where TestEvent.testID(id, belongsTo: testID):
      finishIteration(.skipped(reason: FailureText.normalize(message)), into: &records)
    default:
      break
    }
  }

  /// Counts the iteration under way (nil outcome: it passed). An end the process was never
  /// asked for, or one without a start, is not counted: never an iteration twice; nor is a
  /// warm-up.
  private func finishIteration(
    _ outcome: Outcome?, example: String? = nil, endedAt: Double? = nil, into records: inout [ChannelRecord]
  ) {
    let place = self.place
    defer {
      executorChanged = false
      blockedAt = nil
      self.place = nil
      started = nil
    }
    issues = nil
    if warmUpsFinished < warmUps {
      warmUpsFinished += 1
      return
    }
    guard completed < iterations else {
      ignoredEvents += 1
      return
    }
    let index = firstIndex + completed
    completed += 1
    guard !executorChanged else {
      // Not a figure under the run's executor, whatever the test came to.
      records.append(ChannelRecord(index: index, outcome: .executorChanged, fingerprint: 0))
      return
    }
    if let started {
      times.record(started.duration(toEndAt: endedAt), failed: outcome.map { !$0.isOutsideTheRate } ?? false)
    }
    guard let outcome else {
      if blockedAt != nil { passingBlocks += 1 }
      return
    }
    records.append(ChannelRecord(index: index, outcome: outcome, fingerprint: 0, example: example, place: place))
    if let blockedAt, !outcome.isOutsideTheRate { failingBlocks[blockedAt, default: 0] += 1 }
  }

  /// A place the harness said the test blocked at: its call, and the frame it named or the
  /// stack it captured.
  private struct Block: Hashable {
    let call: String
    let frame: String?
    let stack: String?
  }

  /// The failing iterations that blocked the queue's thread, and where, named when asked: once
  /// the process has ended. Naming a stack reads the binary's debug information (milliseconds,
  /// the first time a hundred), which the supervisor did as each block was told, on a core the
  /// test's threads may have been waiting for.
  var blocks: ThreadBlocks {
    var blocks = ThreadBlocks()
    blocks.passingIterations = passingBlocks
    for (block, count) in failingBlocks {
      let frame = block.frame ?? block.stack.flatMap { symbols?.frame(of: $0) }
      blocks.failingIterations += count
      blocks.places[ThreadBlocks.place(call: block.call, frame: frame), default: 0] += count
    }
    return blocks
  }

  /// An iteration's issues as one failure: each folded (``FailureText``), each once, in a stable
  /// order, so two issues in either order are one outcome; with the messages as the test said
  /// them when folding changed them. Nil when there was no issue.
  ///
  /// When the test's process recorded more issues for it (`recorded`) than the lab `read`, the
  /// test cut the lab's channel (closed or replaced the descriptor its events go through): what
  /// it said never arrived, so the lab cannot vouch that it passed, and it counts as failed.
  static func failure(
    _ issues: [String], recorded: Int? = nil, read: Int = 0
  ) -> (observation: String, example: String?)? {
    if let recorded, recorded > read {
      let lost = Self.unreceived(recorded - read)
      guard let said = failure(issues) else { return (lost, nil) }
      return (said.observation + "; " + lost, said.example.map { $0 + "; " + lost })
    }
    guard !issues.isEmpty else { return nil }
    var folded: [String: String] = [:]
    for issue in issues {
      let key = FailureText.normalize(issue)
      if folded[key] == nil { folded[key] = issue }
    }
    let order = folded.keys.sorted()
    let observation = order.joined(separator: "; ")
    let example = FailureText.example(order.map { folded[$0]! }.joined(separator: "; "))
    return (observation, example == observation ? nil : example)
  }

  /// What a test's failure says when `count` of its issues never reached the lab.
  static func unreceived(_ count: Int) -> String {
    "the lab cannot vouch for it: \(count == 1 ? "an issue it recorded" : "issues it recorded") never reached the lab "
      + "(it closed or replaced the descriptor the lab's events go through)"
  }

  private static let kinds = TestEvent.kinds.map { Array($0.utf8) }

  private static func mayMatter(_ line: ArraySlice<UInt8>) -> Bool {
    LineReader.line(line, hasKindAmong: kinds)
  }
}
