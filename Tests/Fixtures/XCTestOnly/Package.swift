// swift-tools-version: 6.2
import PackageDescription

// A package with XCTest tests only, as most real packages are: its test binary exits 69 when
// asked for Swift Testing tests. Its tests also do what real tests do to a process: skip, start
// a child and leave it, close descriptor 3 and open a file of their own.
let package = Package(
  name: "XCTestOnly",
  targets: [
    .target(name: "Greeting"),
    .testTarget(name: "GreetingTests", dependencies: ["Greeting"]),
  ],
  swiftLanguageModes: [.v6]
)
