import FlakeLab

/// Sees a Swift Testing iteration start, inside the test process, so that the seeded scheduler
/// can reseed for it.
///
/// The scheduler calls ``pump()`` before it picks each job; the relay (``EventStreamRelay``)
/// hands on what was written, and a `testStarted` of the test marks the next iteration. Events
/// are written synchronously by the job that posts them, so the reseed falls between the same
/// two jobs in every run with the same seed.
final class SwiftTestingIterationWatch: @unchecked Sendable {
  private var relay: EventStreamRelay?
  private var started = 0

  /// Takes the place of `channel`, where Swift Testing will open its event stream.
  init?(testID: String, channel: Int32, onIterationStart: @escaping (Int) -> Void) {
    relay = nil
    relay = EventStreamRelay.pumping(channel: channel) { [unowned self] line in
      guard LineReader.line(line, contains: Self.marker),
        case .testStarted(let id) = TestEvent.parse(line), TestEvent.testID(id, belongsTo: testID)
      else { return nil }
      onIterationStart(started)
      started += 1
      return nil
    }
    if relay == nil { return nil }
  }

  /// Relays what was written since the last call and notes the iterations that started.
  func pump() {
    relay?.relay()
  }

  private static let marker = Array("\"testStarted\"".utf8)
}
