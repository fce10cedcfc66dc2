import Foundation

/// The supervisor's end of a test process's event stream: a pipe the process writes JSON lines
/// into (its descriptor 3), turned into iterations and failure records.
///
/// Swift Testing writes the stream itself (`--event-stream-output-path /dev/fd/3`); for XCTest
/// the preloaded harness writes the same events. What the process wrote before it died is still
/// in the pipe, so a crash costs one iteration and never the results before it.
final class TestEventFeed: OutcomeFeed {
  let descriptor: Int32
  private var reader: LineReader
  private var writeEndIsOpen = true
  private let testID: String
  private let firstIndex: Int
  private var completed = 0
  private(set) var workerIsReady = false
  /// The issues of the iteration under way; nil between iterations.
  private var issues: [String]?

  /// A new pipe for the test `testID` of a process whose first iteration is `firstIndex`.
  init(testID: String, firstIndex: Int) throws {
    // A larger pipe lets the test run on while the supervisor sleeps between polls.
    let pipe = try PipeEnds(capacity: 1 << 20)
    pipe.makeReadEndNonBlocking()
    reader = LineReader(descriptor: pipe.readEnd)
    descriptor = pipe.writeEnd
    self.testID = testID
    self.firstIndex = firstIndex
  }

  deinit {
    releaseWorkerEnd()
    close(reader.descriptor)
  }

  func releaseWorkerEnd() {
    if writeEndIsOpen { close(descriptor) }
    writeEndIsOpen = false
  }

  func poll() -> (completed: Int, records: [ChannelRecord]) {
    var records: [ChannelRecord] = []
    reader.read { handle($0, into: &records) }
    return (completed, records)
  }

  private func handle(_ line: ArraySlice<UInt8>, into records: inout [ChannelRecord]) {
    // Most lines are of no interest (values, test records, run ends): skip them unparsed.
    guard Self.mayMatter(line), let event = TestEvent.parse(line) else { return }
    switch event {
    case .runStarted:
      workerIsReady = true
    case .testStarted(let id) where TestEvent.testID(id, belongsTo: testID):
      workerIsReady = true
      issues = []
    case .issueRecorded(let id, let message, true)
    where issues != nil && id.map { TestEvent.testID($0, belongsTo: testID) } ?? true:
      issues?.append(FailureText.normalize(message))
    case .testEnded(let id) where TestEvent.testID(id, belongsTo: testID):
      finishIteration(failures: issues ?? [])
    case .testSkipped(let id, let message) where TestEvent.testID(id, belongsTo: testID):
      finishIteration(failures: ["skipped: " + FailureText.normalize(message)])
    default:
      break
    }

    func finishIteration(failures: [String]) {
      let index = firstIndex + completed
      completed += 1
      issues = nil
      var seen = Set<String>()
      let distinct = failures.filter { seen.insert($0).inserted }
      if !distinct.isEmpty {
        records.append(
          ChannelRecord(
            index: index, outcome: .failed(observation: distinct.joined(separator: "; ")),
            fingerprint: 0))
      }
    }
  }

  private static let markers = TestEvent.kinds.map { Array("\"\($0)\"".utf8) }

  private static func mayMatter(_ line: ArraySlice<UInt8>) -> Bool {
    markers.contains { LineReader.line(line, contains: $0) }
  }
}
