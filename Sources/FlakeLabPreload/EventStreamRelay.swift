import FlakeLab
import Foundation
import Synchronization

/// Swift Testing's event stream, relayed through the harness so that it can look at each line
/// before the supervisor gets it: a pipe of the harness's own takes the channel's place, and
/// every complete line written to it goes on to the supervisor after `inspect` has seen it,
/// preceded by the event `inspect` returns, if any. What one read brings is relayed in one write:
/// a Swift Testing iteration writes several lines, and the relay runs in the test's process.
///
/// Two watches use it: the seeded scheduler reseeds when an iteration starts (``pumping``, read
/// before each job it picks, so the reseed falls between the same two jobs in every run), and
/// the serial executor's watch looks at the hook before an iteration's end (``threaded``).
/// Lines are not decoded unless a watch's marker is in them.
final class EventStreamRelay: @unchecked Sendable {
  private let reading = Mutex(())
  private var reader: LineReader
  private let inspect: (ArraySlice<UInt8>) -> TestEvent?

  /// Every relay, for the last relaying when the process exits.
  nonisolated(unsafe) private static var relays: [EventStreamRelay] = []

  /// Takes the place of `channel`; nil, leaving the channel as it was, when no pipe can be had.
  private init?(channel: Int32, inspect: @escaping (ArraySlice<UInt8>) -> TestEvent?) {
    // Room for a job's events: under the scheduler nothing reads the pipe while a job runs.
    guard let pipe = try? PipeEnds(capacity: 1 << 20), dup2(pipe.writeEnd, channel) >= 0
    else { return nil }
    close(pipe.writeEnd)
    pipe.makeReadEndNonBlocking()
    reader = LineReader(descriptor: pipe.readEnd)
    self.inspect = inspect
    if Self.relays.isEmpty {
      // What the last events said still reaches the supervisor when the process exits.
      atexit { EventStreamRelay.relays.forEach { $0.relay() } }
    }
    Self.relays.append(self)
  }

  /// A relay its owner drives by calling ``relay()``.
  static func pumping(channel: Int32, inspect: @escaping (ArraySlice<UInt8>) -> TestEvent?) -> EventStreamRelay? {
    EventStreamRelay(channel: channel, inspect: inspect)
  }

  /// A relay driven by a thread of its own, which wakes when a line is written.
  static func threaded(channel: Int32, inspect: @escaping (ArraySlice<UInt8>) -> TestEvent?) {
    guard let relay = EventStreamRelay(channel: channel, inspect: inspect) else { return }
    let box = Unmanaged.passRetained(relay).toOpaque()
    var thread = pthread_t()
    _ = pthread_create(
      &thread, nil,
      { box in
        let relay = Unmanaged<EventStreamRelay>.fromOpaque(box!).takeRetainedValue()
        while true { relay.relayWhenReadable() }
      }, box)
  }

  /// Relays every complete line written so far.
  func relay() {
    reading.withLock { _ in
      var relayed: [UInt8] = []
      reader.read { line in
        if let event = inspect(line) { relayed += event.line.utf8 }
        relayed += line
        relayed.append(UInt8(ascii: "\n"))
      }
      if !relayed.isEmpty { EventOutput.writeAll(relayed) }
    }
  }

  /// Waits up to 50 ms for something to read, then relays it.
  private func relayWhenReadable() {
    var descriptor = pollfd(fd: reader.descriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, 50)
    relay()
  }
}
