// swift-tools-version: 6.2
import PackageDescription

// Data races and their look-alikes, for the thread sanitizer's arm: a counter two tasks bump, a
// dictionary written from a task group, a `nonisolated(unsafe)` static, a class written from
// `DispatchQueue.concurrentPerform`, a task racing a `Thread`, a flag every worker sets to the
// same value (a race that never fails), a read and a write each locked (a logical race, no data
// race), an actor's reentrancy, and a locked control. Language mode 5: the races compile.
let package = Package(
  name: "Races",
  targets: [
    .target(name: "Races"),
    .testTarget(name: "RacesTests", dependencies: ["Races"]),
  ],
  swiftLanguageModes: [.v5]
)
