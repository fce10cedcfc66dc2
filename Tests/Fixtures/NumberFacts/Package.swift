// swift-tools-version: 6.2
import PackageDescription

// A package of the kind FlakeLab users bring: a feature model and its tests, in both XCTest and
// Swift Testing, with no dependency. FlakeLab's own tests run `flakelab test` against it.
let package = Package(
  name: "NumberFacts",
  targets: [
    .target(name: "NumberFacts"),
    .testTarget(name: "NumberFactsTests", dependencies: ["NumberFacts"]),
  ],
  swiftLanguageModes: [.v6]
)
