// swift-tools-version: 6.2
import PackageDescription

// One test of each kind `flakelab test` tells apart: stable, a race between threads, one that
// relies on FIFO order, one that blocks its thread, two that one queue's order fails every time
// (an isLoading check, an actor's reentrancy), two that the random seed decides (a value, a hash
// order), a polluter and its victims in XCTest and in Swift Testing, one that fails on a
// process's first run, and one that real time decides. Misbehaving and Stopping crash, hang and
// stop their process only when FLAKEKINDS_MISBEHAVE=1.
let package = Package(
  name: "FlakeKinds",
  targets: [.testTarget(name: "FlakeKindsTests")],
  swiftLanguageModes: [.v6]
)
