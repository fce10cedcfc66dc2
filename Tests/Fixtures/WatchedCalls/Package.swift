// swift-tools-version: 6.2
import PackageDescription

// Each call the lab's harness watches on one queue, made so that it returns at once: what a
// call costs here is the harness's watch, which `make bench` sets beside the same calls in the
// binary run plainly (flakelab-bench, InterposerCost.swift). Not part of `make test`.
let package = Package(
  name: "WatchedCalls",
  targets: [.testTarget(name: "WatchedCallsTests")],
  swiftLanguageModes: [.v6]
)
