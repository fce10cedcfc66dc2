import Foundation
import Synchronization

/// Busy threads competing with the test for every core, for the stressed layout: as Shaker
/// (Silva, Teixeira and d'Amorim, ICSME 2020) found, noise that takes the CPU from a test
/// exposes the ones that real time decides (a deadline met by a thin margin), and leaves the
/// others as they were. The threads spin for the life of the process and end with it.
enum CPUNoise {
  /// What the threads add to: shared, so that no compiler can leave the loop out.
  private static let spins = Atomic<UInt64>(0)

  static func start(threads: Int) {
    for _ in 0..<threads {
      let thread = Thread {
        while true { spins.add(1, ordering: .relaxed) }
      }
      thread.name = "flakelab-noise"
      thread.start()
    }
  }
}
