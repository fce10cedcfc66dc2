// swift-tools-version: 6.2
import PackageDescription

// A package whose library has a type error: `flakelab test` must say so in a few lines, exit 2.
let package = Package(
  name: "DoesNotBuild",
  targets: [
    .target(name: "DoesNotBuild"),
    .testTarget(name: "DoesNotBuildTests", dependencies: ["DoesNotBuild"]),
  ]
)
