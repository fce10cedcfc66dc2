import FlakeLab
import Foundation
import Synchronization

/// Writes test events to the supervisor's pipe (see `TestEventFeed`), through a descriptor of
/// the harness's own.
///
/// The supervisor hands the pipe over at a descriptor it drew at random
/// (`HarnessConfiguration.channel`). The harness duplicates it first thing, before the test
/// runs, and checks before every write that its duplicate is still that pipe: a test that
/// closes descriptors and opens files of its own never gets the harness's events in them.
enum EventOutput {
  nonisolated(unsafe) private static var output: OwnedPipe?
  /// The counted events written so far (``TestEvent/isCounted``), for the run's end to declare.
  /// Writes take turns under its lock: a pipe takes a line of more than 4 KiB in pieces, which
  /// a line from another thread could come between.
  private static let written = Mutex(0)

  /// Takes over the supervisor's pipe at `channel`; with `closingChannel`, the number itself
  /// is freed (XCTest: only the harness writes events). Swift Testing opens `/dev/fd/<channel>`
  /// itself, so there the number stays.
  static func adopt(_ channel: Int32, closingChannel: Bool) {
    let output = OwnedPipe(duplicating: channel)
    self.output = output
    if closingChannel, output.descriptor >= 0 { close(channel) }
  }

  static func write(_ event: TestEvent) {
    let line = Array(event.line.utf8)
    written.withLock { count in
      output?.write(line)
      if event.isCounted { count += 1 }
    }
  }

  /// Writes `bytes` whole, unless the harness's descriptor is no longer the supervisor's pipe.
  static func writeAll(_ bytes: some Collection<UInt8>) {
    written.withLock { _ in output?.write(bytes) }
  }

  /// Writes the run's end, with the count of the events before it.
  static func writeRunEnded() {
    written.withLock { count in output?.write(Array(TestEvent.runEnded(eventsWritten: count).line.utf8)) }
  }
}
