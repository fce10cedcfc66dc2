import Foundation
import Testing

/// Only with FLAKEKINDS_TRAP_AT_PLANNING=1 in the environment (the lab's own tests set it): a
/// test whose arguments trap when Swift Testing evaluates them, as it plans the run, before any
/// test starts. Otherwise it passes.
@Suite struct PlanningTraps {
  static func arguments() -> [Int] {
    if ProcessInfo.processInfo.environment["FLAKEKINDS_TRAP_AT_PLANNING"] == "1" {
      fatalError("the arguments trap when the run is planned")
    }
    return [1]
  }

  @Test(arguments: arguments()) func trapsWhenPlanned(_ value: Int) {
    #expect(value == 1)
  }
}
