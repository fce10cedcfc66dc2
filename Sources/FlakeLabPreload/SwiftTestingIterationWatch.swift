import FlakeLab
import Foundation

/// Sees a Swift Testing iteration start, inside the test process, so that the seeded scheduler
/// can reseed for it.
///
/// Swift Testing writes its event stream to the channel descriptor. The watch puts a pipe of its
/// own in that place and relays everything to the supervisor's pipe; before the scheduler picks each
/// job it reads what was written, and a `testStarted` of the test marks the next iteration.
/// Events are written synchronously by the job that posts them, so the reseed falls between
/// the same two jobs in every run with the same seed.
final class SwiftTestingIterationWatch: @unchecked Sendable {
  private let testID: String
  private let onIterationStart: (Int) -> Void
  private var reader: LineReader
  private var started = 0

  /// Takes the place of `channel`, where Swift Testing will open its event stream.
  init?(testID: String, channel: Int32, onIterationStart: @escaping (Int) -> Void) {
    // Room for a job's events: nothing reads the pipe while a job runs.
    guard let pipe = try? PipeEnds(capacity: 1 << 20), dup2(pipe.writeEnd, channel) >= 0
    else { return nil }
    close(pipe.writeEnd)
    pipe.makeReadEndNonBlocking()
    self.reader = LineReader(descriptor: pipe.readEnd)
    self.testID = testID
    self.onIterationStart = onIterationStart
    // What the last jobs wrote still reaches the supervisor when the process exits.
    atexit { MainQueueScheduler.shared.iterationWatch?.pump() }
  }

  /// Relays what was written since the last call and notes the iterations that started.
  func pump() {
    reader.read(chunk: { EventOutput.writeAll($0) }) { line in
      guard LineReader.line(line, contains: Self.marker),
        case .testStarted(let id) = TestEvent.parse(line), TestEvent.testID(id, belongsTo: testID)
      else { return }
      onIterationStart(started)
      started += 1
    }
  }

  private static let marker = Array("\"testStarted\"".utf8)
}
