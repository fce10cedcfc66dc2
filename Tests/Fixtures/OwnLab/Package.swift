// swift-tools-version: 6.2
import PackageDescription

// A lab of one's own: FlakeLab by path, one scenario and one executor of its own, and every
// command of `flakelab` through `LabCommandLine.main(catalog:)`.
let package = Package(
  name: "OwnLab",
  dependencies: [.package(name: "FlakeLab", path: "../../..")],
  targets: [
    .executableTarget(
      name: "own-lab",
      dependencies: [
        .product(name: "FlakeLab", package: "FlakeLab"),
        .product(name: "FlakeLabCommand", package: "FlakeLab"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
