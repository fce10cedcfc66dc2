import Foundation
import Synchronization

/// How a worker process tells its supervisor what each iteration came to, through a
/// ``SharedRegion``.
///
/// Layout: a `completed` counter (iterations the worker has finished), a hash of every
/// iteration's schedule, then a single-producer, single-consumer ring of records for the
/// iterations that did not pass. Passing iterations cost one release-ordered add to `completed`;
/// the supervisor infers them from it. Each record is published before `completed` moves past its
/// iteration, so a supervisor that reads `completed` and then drains the ring has every record of
/// every finished iteration, even after the worker died.
package enum OutcomeChannel {
  static let completedOffset = 0
  static let headOffset = 8  // bytes the worker has published into the ring, ever
  static let tailOffset = 16  // bytes the supervisor has consumed, ever
  static let readyOffset = 24  // set once the worker has found its scenario and is about to run
  static let schedulesOffset = 32  // XOR of every scheduled iteration's mixed fingerprint
  static let ringOffset = 64
  static let ringCapacity = 1 << 20
  /// The size of the shared region a channel lives in.
  package static let regionSize = ringOffset + ringCapacity

  /// Record: index, observation length, schedule fingerprint, kind (8 bytes each), observation.
  static let recordHeaderSize = 32

  enum RecordKind: Int64 {
    case failed = 1
    case deadlocked = 2
  }

  /// One iteration's share of a run's schedule hash. XOR-combined, the shares give the same
  /// hash whatever the order of iterations, workers and shards.
  static func scheduleShare(index: Int, fingerprint: UInt64) -> UInt64 {
    SplitMix64.mix(UInt64(bitPattern: Int64(index)) ^ SplitMix64.mix(fingerprint))
  }
}

/// A non-passing iteration as the supervisor reads it back.
package struct ChannelRecord: Sendable {
  package let index: Int
  package let outcome: Outcome
  package let fingerprint: UInt64
  /// The failure as the test said it, before ``FailureText`` folded what changes from one
  /// iteration to the next; nil where it is the outcome's observation itself.
  package var example: String? = nil
  /// Where the failure was recorded, when the test framework said.
  package var place: SourceLocation? = nil
}

/// The worker's end: an ``OutcomeSink`` that publishes into the shared region.
package struct OutcomeChannelWriter: OutcomeSink {
  private let region: SharedRegion

  /// Maps the region the supervisor passed as `descriptor`.
  package init(descriptor: Int32) throws {
    region = try SharedRegion(mapping: descriptor, size: OutcomeChannel.regionSize)
  }

  /// Tells the supervisor that the worker started: a death after this is the scenario's doing,
  /// a death before it is the lab's.
  package func announceReady() {
    region.word(at: OutcomeChannel.readyOffset).pointee.store(1, ordering: .releasing)
  }

  package mutating func record(_ outcome: Outcome, at index: Int, schedule: IterationSchedule?) {
    let fingerprint = schedule?.fingerprint ?? 0
    if schedule != nil {
      let word = region.word(at: OutcomeChannel.schedulesOffset)
      let share = OutcomeChannel.scheduleShare(index: index, fingerprint: fingerprint)
      word.pointee.store(
        word.pointee.load(ordering: .relaxed) ^ Int(bitPattern: UInt(share)), ordering: .relaxed)
    }
    switch outcome {
    case .failed(let observation):
      publish(index: index, kind: .failed, observation: observation, fingerprint: fingerprint)
    case .deadlocked(let observation):
      publish(index: index, kind: .deadlocked, observation: observation, fingerprint: fingerprint)
    case .passed, .crashed, .timedOut, .skipped, .executorChanged:
      break  // crashes and timeouts are the supervisor's findings; scenarios are never skipped
    }
    region.word(at: OutcomeChannel.completedOffset).pointee.add(1, ordering: .releasing)
  }

  private func publish(
    index: Int, kind: OutcomeChannel.RecordKind, observation: String, fingerprint: UInt64
  ) {
    let text = Array(observation.utf8.prefix(OutcomeChannel.ringCapacity / 4))
    let length = OutcomeChannel.recordHeaderSize + text.count
    let head = region.word(at: OutcomeChannel.headOffset).pointee.load(ordering: .relaxed)
    // Wait for the supervisor to make room: it drains the ring every 2 ms while it fills.
    while head + length
      - region.word(at: OutcomeChannel.tailOffset).pointee.load(ordering: .acquiring)
      > OutcomeChannel.ringCapacity
    {
      usleep(200)
    }
    var header = (Int64(index), Int64(text.count), Int64(bitPattern: fingerprint), kind.rawValue)
    withUnsafeBytes(of: &header) { copyIn($0, at: head) }
    text.withUnsafeBytes { copyIn($0, at: head + OutcomeChannel.recordHeaderSize) }
    region.word(at: OutcomeChannel.headOffset).pointee.store(head + length, ordering: .releasing)
  }

  private func copyIn(_ bytes: UnsafeRawBufferPointer, at position: Int) {
    let ring = region.base + OutcomeChannel.ringOffset
    for (offset, byte) in bytes.enumerated() {
      ring.storeBytes(
        of: byte, toByteOffset: (position + offset) % OutcomeChannel.ringCapacity, as: UInt8.self)
    }
  }
}

/// The supervisor's end: reads what a worker published. A writer waits while the ring is full,
/// so a reader must drain it as the worker runs.
package final class OutcomeChannelReader: @unchecked Sendable {
  let region: SharedRegion

  /// A channel with nothing published, in the region of an ended worker's channel where one is
  /// spare, else in a fresh one.
  package init() throws {
    if let spare = Self.spareRegions.withLock({ $0.popLast() }) {
      // A ring's bytes are read only up to what its head says was published.
      spare.base.initializeMemory(as: UInt8.self, repeating: 0, count: OutcomeChannel.ringOffset)
      region = spare
    } else {
      region = try SharedRegion(size: OutcomeChannel.regionSize)
    }
  }

  /// Set when the supervisor has reaped the worker and collects its last records. What the
  /// worker started is killed and reaped before the supervisor lets go of the worker (a
  /// subreaper's orphans), so from then on nothing maps the region but this process.
  private var workerHasEnded = false

  /// An ended worker's region goes to the next worker: reserving a fresh megabyte and releasing
  /// it was a third of the supervisor's time per worker (Speed.md). A channel dropped while its
  /// worker may live, as when a run is interrupted, is released.
  deinit {
    guard workerHasEnded else { return }
    Self.spareRegions.withLock { spares in
      if spares.count < Self.spareLimit { spares.append(region) }
    }
  }

  /// Told by the supervisor once it has reaped the worker (``OutcomeFeed``).
  func workerEnded(status: Int32, output: String) {
    workerHasEnded = true
  }

  /// Regions of ended workers' channels, kept for the next workers.
  private static let spareRegions = Mutex<[SharedRegion]>([])
  /// As many as workers run at once, on most machines.
  private static let spareLimit = 8

  /// The descriptor a writer maps: a worker gets it as its descriptor 3.
  package var descriptor: Int32 { region.fileDescriptor }

  /// Iterations the worker has finished. Read this before ``drain()`` to be sure the records of
  /// all of them are in the ring.
  var completed: Int {
    region.word(at: OutcomeChannel.completedOffset).pointee.load(ordering: .acquiring)
  }

  /// Whether the worker got as far as running iterations.
  var workerIsReady: Bool {
    region.word(at: OutcomeChannel.readyOffset).pointee.load(ordering: .acquiring) == 1
  }

  /// The XOR of the schedule shares of every iteration this worker finished.
  var schedules: UInt64 {
    UInt64(UInt(bitPattern: region.word(at: OutcomeChannel.schedulesOffset).pointee.load(ordering: .acquiring)))
  }

  /// How long the supervisor may leave the ring unread: as long as it leaves a test's events
  /// while the last read found the ring under an eighth full, so that it does not wake every
  /// 2 ms on the cores the scenario runs on (about 3% of a core beside `isLoading`, Speed.md);
  /// 2 ms once a read found more, so that a worker publishing steadily never waits for room.
  /// Only a worker that goes from publishing little to filling the megabyte within 20 ms waits,
  /// once, before the reads catch up.
  private(set) var readInterval = Supervisor.eventReadInterval

  /// The records published since the last call, in iteration order.
  package func drain() -> [ChannelRecord] {
    let head = region.word(at: OutcomeChannel.headOffset).pointee.load(ordering: .acquiring)
    var tail = region.word(at: OutcomeChannel.tailOffset).pointee.load(ordering: .relaxed)
    readInterval =
      head - tail > OutcomeChannel.ringCapacity / 8 ? Supervisor.pollInterval : Supervisor.eventReadInterval
    var records: [ChannelRecord] = []
    while tail < head {
      let header = copyOut(OutcomeChannel.recordHeaderSize, at: tail)
      let (index, length, fingerprint, kind) = header.withUnsafeBytes {
        (
          Int($0.load(as: Int64.self)), Int($0.load(fromByteOffset: 8, as: Int64.self)),
          UInt64(bitPattern: $0.load(fromByteOffset: 16, as: Int64.self)),
          $0.load(fromByteOffset: 24, as: Int64.self)
        )
      }
      let observation = String(
        decoding: copyOut(length, at: tail + OutcomeChannel.recordHeaderSize), as: UTF8.self)
      let outcome: Outcome =
        kind == OutcomeChannel.RecordKind.deadlocked.rawValue
        ? .deadlocked(observation: observation) : .failed(observation: observation)
      records.append(ChannelRecord(index: index, outcome: outcome, fingerprint: fingerprint))
      tail += OutcomeChannel.recordHeaderSize + length
    }
    region.word(at: OutcomeChannel.tailOffset).pointee.store(tail, ordering: .releasing)
    return records
  }

  private func copyOut(_ count: Int, at position: Int) -> [UInt8] {
    let ring = region.base + OutcomeChannel.ringOffset
    return (0..<count).map {
      ring.load(fromByteOffset: (position + $0) % OutcomeChannel.ringCapacity, as: UInt8.self)
    }
  }
}
