// swift-tools-version: 6.2
import PackageDescription

// What a daily CI job meets: tests that pass, one that fails once and then passes, one broken,
// one broken that a team quarantined, one that crashes once, one that hangs, in Swift Testing and
// XCTest. They misbehave only when CIJOB_STATE names a directory (the lab's own tests set it),
// where each keeps what it did before; otherwise every test passes.
let package = Package(
  name: "CIJob",
  targets: [.testTarget(name: "CIJobTests")],
  swiftLanguageModes: [.v6]
)
