// swift-tools-version: 6.2
import PackageDescription

/// Every target: imports are internal unless marked, and existential types are spelled `any`.
let settings: [SwiftSetting] = [
  .enableUpcomingFeature("InternalImportsByDefault"), .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "FlakeLab",
  products: [
    .library(name: "FlakeLab", targets: ["FlakeLab"]),
    // Every command of `flakelab`, for a lab of one's own: `FlakeLabCommand.main(catalog:)`.
    .library(name: "FlakeLabCommand", targets: ["FlakeLabCommand"]),
    // `@Test(.serialExecutor)`: the serial executor as a Swift Testing trait.
    .library(name: "FlakeLabTesting", targets: ["FlakeLabTesting"]),
    .executable(name: "flakelab", targets: ["flakelab"]),
    .executable(name: "flakelab-worker", targets: ["flakelab-worker"]),
    // Preloaded into a user's test binary by `flakelab test` and `flakelab ci`; found next to `flakelab`.
    .library(name: "FlakeLabPreload", type: .dynamic, targets: ["FlakeLabPreload"]),
    // Opened by the harness to run Swift Testing tests in the test process; beside it.
    .library(name: "FlakeLabSwiftTesting", type: .dynamic, targets: ["FlakeLabSwiftTesting"]),
  ],
  targets: [
    .target(name: "FlakeLab", swiftSettings: settings),
    // Every command but the history's: what a lab of one's own links, and so every worker; no SQLite.
    .target(name: "FlakeLabCommand", dependencies: ["FlakeLab"], swiftSettings: settings),
    // The system's libsqlite3: no package. Its own target, so that the harness preloaded into a
    // user's test binary never loads SQLite into it.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .target(name: "FlakeLabHistory", dependencies: ["FlakeLab", "CSQLite"], swiftSettings: settings),
    // `history`, `quarantine` and `--record`: what `flakelab` adds to FlakeLabCommand.
    .target(
      name: "FlakeLabHistoryCommands", dependencies: ["FlakeLabCommand", "FlakeLabHistory"], swiftSettings: settings),
    .target(name: "FlakeLabTesting", dependencies: ["FlakeLab"], swiftSettings: settings),
    .target(
      name: "FlakeLabPreload", dependencies: ["FlakeLab"],
      swiftSettings: settings + [.enableExperimentalFeature("SymbolLinkageMarkers")]),
    .target(name: "FlakeLabSwiftTesting", swiftSettings: settings),
    .target(name: "Scenarios", dependencies: ["FlakeLab"], path: "scenarios", swiftSettings: settings),
    .executableTarget(
      name: "flakelab", dependencies: ["FlakeLabCommand", "FlakeLabHistoryCommands", "Scenarios"], swiftSettings: settings),
    // `flakelab`'s workers: the same lab without the history, so that no worker loads SQLite.
    .executableTarget(name: "flakelab-worker", dependencies: ["FlakeLabCommand", "Scenarios"], swiftSettings: settings),
    .executableTarget(
      name: "flakelab-bench", dependencies: ["FlakeLab", "Scenarios"], swiftSettings: settings),
    .testTarget(
      name: "FlakeLabTests",
      dependencies: [
        "FlakeLab", "FlakeLabCommand", "FlakeLabHistory", "FlakeLabHistoryCommands", "FlakeLabTesting", "Scenarios", "flakelab",
        "flakelab-worker",
      ],
      swiftSettings: settings),
  ],
  swiftLanguageModes: [.v6]
)
