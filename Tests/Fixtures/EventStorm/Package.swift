// swift-tools-version: 6.2
import PackageDescription

// Ordinary Swift Testing tests whose outcomes are certain, run side by side: empty ones, ones
// that throw, record issues or known issues, and a disabled one. Whatever the load, each must
// come out as it is written; the lab's own tests check every count.
let package = Package(
  name: "EventStorm",
  targets: [.testTarget(name: "EventStormTests")],
  swiftLanguageModes: [.v6]
)
