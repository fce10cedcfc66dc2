import FlakeLab

/// Sees a Swift Testing iteration start, inside the test process, so that the seeded scheduler
/// can reseed for it.
///
/// The scheduler calls ``pump()`` before it picks each job; the relay (``EventStreamRelay``)
/// hands on what was written, and a `testStarted` of one of the run's tests marks that test's
/// next iteration (its k-th start is iteration `firstIndex + k`: in a suite pass, every test's
/// first run is the pass's iteration, seeded as the same test run alone would be). Events
/// are written synchronously by the job that posts them, so the reseed falls between the same
/// two jobs in every run with the same seed.
final class SwiftTestingIterationWatch: @unchecked Sendable {
  private var relay: EventStreamRelay?
  /// Starts so far, by test.
  private var started: [String: Int] = [:]

  /// Takes the place of `channel`, where Swift Testing will open its event stream; calls
  /// `onIterationStart` with the test's run number in this process when one of `testIDs` starts.
  init?(testIDs: [String], channel: Int32, onIterationStart: @escaping (Int) -> Void) {
    relay = nil
    relay = EventStreamRelay.pumping(channel: channel) { [unowned self] line in
      guard LineReader.line(line, contains: Self.marker),
        case .testStarted(let id, _) = TestEvent.parse(line),
        let test = testIDs.first(where: { TestEvent.testID(id, belongsTo: $0) })
      else { return nil }
      onIterationStart(started[test, default: 0])
      started[test, default: 0] += 1
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
