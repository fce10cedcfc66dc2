// swift-tools-version: 6.2
import PackageDescription

// One test of each kind `flakelab test` tells apart: stable, a race between threads, one that
// relies on FIFO order, one that blocks its thread, one that fails beside a neighbour, one that
// fails on a process's first run, and one that real time decides.
let package = Package(
  name: "FlakeKinds",
  targets: [.testTarget(name: "FlakeKindsTests")],
  swiftLanguageModes: [.v6]
)
