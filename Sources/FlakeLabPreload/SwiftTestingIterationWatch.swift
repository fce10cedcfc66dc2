import FlakeLab
import Foundation

/// Sees a Swift Testing iteration start, inside the test process, so that the seeded scheduler
/// can reseed for it.
///
/// Swift Testing writes its event stream to descriptor 3. The watch puts a pipe of its own in
/// that place and relays everything to the supervisor's pipe; before the scheduler picks each
/// job it reads what was written, and a `testStarted` of the test marks the next iteration.
/// Events are written synchronously by the job that posts them, so the reseed falls between
/// the same two jobs in every run with the same seed.
final class SwiftTestingIterationWatch: @unchecked Sendable {
  private let testID: String
  private let onIterationStart: (Int) -> Void
  private let readEnd: Int32
  private let supervisor: Int32
  private var pending: [UInt8] = []
  private var started = 0

  init?(testID: String, onIterationStart: @escaping (Int) -> Void) {
    var ends: [Int32] = [0, 0]
    let supervisor = fcntl(EventOutput.descriptor, F_DUPFD_CLOEXEC, 10)
    guard supervisor >= 0, pipe(&ends) == 0, dup2(ends[1], EventOutput.descriptor) >= 0 else {
      return nil
    }
    close(ends[1])
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    _ = fcntl(ends[0], 1031, 1 << 20)  // F_SETPIPE_SZ: room for a job's events
    self.readEnd = ends[0]
    self.supervisor = supervisor
    self.testID = testID
    self.onIterationStart = onIterationStart
    // What the last jobs wrote still reaches the supervisor when the process exits.
    atexit { MainQueueScheduler.shared.iterationWatch?.pump() }
  }

  /// Relays what was written since the last call and notes the iterations that started.
  func pump() {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(readEnd, &buffer, buffer.count)
      guard count > 0 else { break }
      EventOutput.writeAll(buffer[..<count], to: supervisor)
      pending += buffer[..<count]
    }
    var lineStart = pending.startIndex
    while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
      let line = pending[lineStart..<newline]
      lineStart = newline + 1
      guard line.firstRange(of: Array("\"testStarted\"".utf8)) != nil,
        case .testStarted(let id) = TestEvent.parse(line), TestEvent.testID(id, belongsTo: testID)
      else { continue }
      onIterationStart(started)
      started += 1
    }
    pending.removeSubrange(..<lineStart)
  }
}
