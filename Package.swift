// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "FlakeLab",
  products: [
    .library(name: "FlakeLab", targets: ["FlakeLab"]),
    // Every command of `flakelab`, for a lab of one's own: `FlakeLabCommand.main(catalog:)`.
    .library(name: "FlakeLabCommand", targets: ["FlakeLabCommand"]),
    // `@Test(.serialExecutor)`: the serial executor as a Swift Testing trait.
    .library(name: "FlakeLabTesting", targets: ["FlakeLabTesting"]),
    .executable(name: "flakelab", targets: ["flakelab"]),
    // Preloaded into a user's test binary by `flakelab test`; found next to `flakelab`.
    .library(name: "FlakeLabPreload", type: .dynamic, targets: ["FlakeLabPreload"]),
  ],
  targets: [
    .target(name: "FlakeLab"),
    .target(name: "FlakeLabCommand", dependencies: ["FlakeLab"]),
    .target(name: "FlakeLabTesting", dependencies: ["FlakeLab"]),
    .target(
      name: "FlakeLabPreload", dependencies: ["FlakeLab"],
      swiftSettings: [.enableExperimentalFeature("SymbolLinkageMarkers")]),
    .target(name: "Scenarios", dependencies: ["FlakeLab"], path: "scenarios"),
    .executableTarget(name: "flakelab", dependencies: ["FlakeLabCommand", "Scenarios"]),
    .executableTarget(name: "flakelab-bench", dependencies: ["FlakeLab", "Scenarios"]),
    .testTarget(
      name: "FlakeLabTests",
      dependencies: ["FlakeLab", "FlakeLabCommand", "FlakeLabTesting", "Scenarios", "flakelab"]),
  ],
  swiftLanguageModes: [.v6]
)
