// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "FlakeLab",
  products: [
    .library(name: "FlakeLab", targets: ["FlakeLab"]),
    .executable(name: "flakelab", targets: ["flakelab"]),
    // Preloaded into a user's test binary by `flakelab test`; found next to `flakelab`.
    .library(name: "FlakeLabPreload", type: .dynamic, targets: ["FlakeLabPreload"]),
  ],
  targets: [
    .target(name: "FlakeLab"),
    .target(
      name: "FlakeLabPreload", dependencies: ["FlakeLab"],
      swiftSettings: [.enableExperimentalFeature("SymbolLinkageMarkers")]),
    .target(name: "Scenarios", dependencies: ["FlakeLab"], path: "scenarios"),
    .executableTarget(name: "flakelab", dependencies: ["FlakeLab", "Scenarios"]),
    .executableTarget(name: "flakelab-bench", dependencies: ["FlakeLab", "Scenarios"]),
    .testTarget(name: "FlakeLabTests", dependencies: ["FlakeLab", "Scenarios", "flakelab"]),
  ],
  swiftLanguageModes: [.v6]
)
