// swift-tools-version: 6.2
import PackageDescription

// What `swift test` fails every time and a daily job must fail too: tests after source shapes a
// reader misreads (a RegexBuilder's regex line, a directive after a `;`, an extended regex with
// an escaped line break), a test that calls another's checks, an override that calls `super`, a
// test polluted by the one before it, a bystander of a late assertion, and a test that cuts the
// lab's channel before it fails. Every test here that fails does so every time.
let package = Package(
  name: "StrictJob",
  targets: [.testTarget(name: "StrictJobTests")],
  swiftLanguageModes: [.v6]
)
