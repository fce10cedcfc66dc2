/// How the deterministic scheduler picks the next job when more than one is ready.
package enum SchedulePolicy: Sendable {
  /// The first job enqueued first, as the serial executor does.
  case fifo
  /// A job drawn by a generator seeded with the iteration's seed.
  case seeded(UInt64)
  /// The given choices in order, then the first ready job: the schedules `explore` walks, and
  /// the replay handle of a schedule it found.
  case directed([Int])

  /// Whether the order is chosen (seeded or directed) rather than first in, first out.
  package var isSeededOrder: Bool {
    if case .fifo = self { false } else { true }
  }
}

/// The choices one iteration made, in order: which ready job was picked, out of how many.
/// Only real choices (two or more ready jobs) are recorded.
package struct ScheduleChoices: Equatable, Sendable {
  package private(set) var picks: [Int] = []
  package private(set) var options: [Int] = []

  mutating func append(pick: Int, of count: Int) {
    picks.append(pick)
    options.append(count)
  }

  /// A 64-bit FNV-1a hash of the choices: equal schedules have equal fingerprints.
  package var fingerprint: UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for (pick, count) in zip(picks, options) {
      for value in [UInt64(pick), UInt64(count)] {
        hash ^= value
        hash = hash &* 0x0000_0100_0000_01B3
      }
    }
    return hash
  }

  /// The handle `replay --schedule` takes: the picks joined with dots, `-` for no choice at all.
  package var path: String { Self.path(of: picks) }

  /// `picks` as a path.
  package static func path(of picks: [Int]) -> String {
    picks.isEmpty ? "-" : picks.map(String.init).joined(separator: ".")
  }

  /// Parses a ``path`` back into picks.
  package static func picks(fromPath path: String) -> [Int]? {
    if path == "-" { return [] }
    let picks = path.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
    guard picks.allSatisfy({ ($0 ?? -1) >= 0 }) else { return nil }
    return picks.compactMap { $0 }
  }
}
