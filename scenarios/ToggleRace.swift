import FlakeLab
import Foundation

/// Episode 242's `@ThreadSafe` property wrapper, which locks its getter and its setter separately.
///
/// Each access is safe on its own, but `isOn.toggle()` is a get followed by a set, and another
/// thread can toggle between the two: an update is lost. Locking the pieces of a read-modify-write
/// does not make the whole atomic.
@propertyWrapper
struct ThreadSafe<Value: Sendable>: @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var _wrappedValue: Value

  var wrappedValue: Value {
    get { lock.withLock { _wrappedValue } }
    set { lock.withLock { _wrappedValue = newValue } }
  }

  init(wrappedValue: Value) {
    _wrappedValue = wrappedValue
  }
}

/// The episode's subject: a flag that 1,000 tasks flip at once.
final class Toggle: @unchecked Sendable {
  @ThreadSafe var isOn = false
}

/// Episode 242's toggle test: 1,000 task-group children toggle once each, so the flag must end
/// where it began.
///
/// This is a real race, preemptive and inside synchronous code. Under the global executor it
/// fails whenever two toggles interleave on different threads, which needs more than one core and
/// happens more with more of them (the episode saw 492 failures in 1,000 on a Mac). Under the
/// serial executor the children run one at a time and it always passes: the serial executor hides
/// the race rather than fixing it.
let toggleRace = Scenario(
  name: "toggleRace",
  summary: "1,000 concurrent toggles of a @ThreadSafe flag leave it where it began",
  source: "Point-Free, Reliable Async Tests, episode 242 (@ThreadSafe toggle)",
  variants: [
    Variant(
      name: "taskGroup",
      summary: "a task group of 1,000 children that each toggle once",
      claims: [
        .global: .canFail, .serial: .neverFails, .fifo: .neverFails, .seeded: .neverFails,
      ]
    ) { iteration in
      let toggle = Toggle()
      await withTaskGroup(of: Void.self) { group in
        for _ in 1...1000 {
          group.addTask { toggle.isOn.toggle() }
        }
      }
      iteration.expect(!toggle.isOn, "isOn was true after 1,000 toggles")
    }
  ]
)
