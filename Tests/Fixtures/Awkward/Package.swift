// swift-tools-version: 6.2
import PackageDescription

// Swift Testing tests that real suites have and a lab must not get wrong: at file scope,
// disabled, failing with reasons and changing values, an argument list that traps, a slow
// iteration now and then, a child that leaves its process group, warnings a test counts itself,
// a test that turns the serial executor off, and one that waits on another thread within a
// timeout.
let package = Package(
  name: "Awkward",
  targets: [
    .target(name: "Awkward"),
    .testTarget(name: "AwkwardTests", dependencies: ["Awkward"]),
  ],
  swiftLanguageModes: [.v6]
)
