// swift-tools-version: 6.2
import PackageDescription

// Tests of each kind `flakelab test` tells apart, in several shapes each (Swift Testing and
// XCTest, sync and async): stable, races between threads, tests that rely on FIFO order, that
// block their thread, that one queue's order fails every time, that the random seed decides,
// polluters and their victims, tests that fail on a process's first run, and deadlines that real
// time decides. Labels.tsv says the right diagnosis of each; `make bench` measures the lab's
// answers against it. Misbehaving and Stopping crash, hang and stop their process only when
// FLAKEKINDS_MISBEHAVE=1.
let package = Package(
  name: "FlakeKinds",
  targets: [.testTarget(name: "FlakeKindsTests")],
  swiftLanguageModes: [.v6]
)
