import FlakeLab
import Foundation
import Synchronization

/// Sees a Swift Testing test turn the serial executor off, inside the test process.
///
/// Under `serial` every global job goes to the main actor through the runtime's global-enqueue
/// hook. A test can clear that hook (swift-concurrency-extras' `uncheckedUseMainSerialExecutor
/// = false` does), and its later jobs then run on the global executor while the run is still
/// called serial. The watch puts a pipe of its own where Swift Testing writes its event stream
/// and relays each line to the supervisor from a thread of its own; before it relays the end
/// of an iteration of the test, it looks at the hook, and when the hook is gone it first says
/// so (`executorChanged`). The hook stays off for the rest of the process, as the test left it,
/// so every later iteration is reported the same way: none is counted as serial.
final class SerialHookWatch: @unchecked Sendable {
  private let reading = Mutex(())
  private var reader: LineReader

  private init(readEnd: Int32) {
    self.reader = LineReader(descriptor: readEnd)
  }

  nonisolated(unsafe) private static var current: SerialHookWatch?

  /// Takes the place of `channel` and starts relaying; does nothing if the pipe or the thread
  /// cannot be had (events then go straight to the supervisor, unwatched).
  static func start(channel: Int32) {
    guard let pipe = try? PipeEnds(capacity: 1 << 20) else { return }
    pipe.makeReadEndNonBlocking()
    current = SerialHookWatch(readEnd: pipe.readEnd)
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { _ in
      while let watch = SerialHookWatch.current { watch.relayWhenReadable() }
      return nil
    }, nil)
    guard started == 0, dup2(pipe.writeEnd, channel) >= 0 else {
      current = nil
      close(pipe.writeEnd)
      return
    }
    close(pipe.writeEnd)
    // What the last events said still reaches the supervisor when the process exits.
    atexit { SerialHookWatch.current?.relay() }
  }

  /// Waits up to 50 ms for something to read, then relays it.
  private func relayWhenReadable() {
    var descriptor = pollfd(fd: reader.descriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, 50)
    relay()
  }

  /// Relays every complete line written so far, each end of a test after a look at the hook.
  /// The line is not decoded: the process runs only the lab's test, and the supervisor counts a
  /// finding only inside one of its iterations.
  private func relay() {
    reading.withLock { _ in
      reader.read { line in
        if GlobalEnqueueHook.current == nil, LineReader.line(line, contains: Self.marker) {
          EventOutput.write(.executorChanged)
        }
        EventOutput.writeAll(line + [UInt8(ascii: "\n")])
      }
    }
  }

  private static let marker = Array("\"testEnded\"".utf8)
}
