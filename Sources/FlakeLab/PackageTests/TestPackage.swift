import Foundation

/// A user's SwiftPM package, built for testing: where its test binary is and which tests it has.
///
/// The lab runs the binary SwiftPM builds (`<bin-path>/<Name>PackageTests.xctest`) directly,
/// not `swift test`, because only the binary itself accepts `--repetitions`, and only a binary
/// the lab starts can be handed the preloaded harness.
package struct TestPackage: Sendable {
  /// The directory as given, for messages and replay commands.
  package let path: String
  package let testBinary: String

  /// A package that could not be built: the compiler's last lines, then one line saying so.
  package struct BuildFailure: Error {
    package let compilerLines: [String]
    package let message: String
  }

  /// Builds the package at `path` with its tests (`swift build --build-tests`), showing nothing
  /// unless the build fails; with `skippingBuild`, uses what an earlier build left.
  package static func build(at path: String, skippingBuild: Bool = false) throws -> TestPackage {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { throw UsageError("no directory at '\(path)' (--package-path)") }
    guard FileManager.default.fileExists(atPath: path + "/Package.swift") else {
      throw UsageError("'\(path)' has no Package.swift; --package-path takes a SwiftPM package")
    }
    let build =
      skippingBuild
      ? nil : try CapturedProcess.run("swift", ["build", "--build-tests", "--package-path", path])
    if let build, build.status != 0 {
      let lines = (build.output + build.errorOutput).split(whereSeparator: \.isNewline).map(String.init)
      var seen = Set<String>()
      let errors = lines.filter { $0.contains("error:") && seen.insert($0).inserted }
      throw BuildFailure(
        compilerLines: Array((errors.isEmpty ? lines : errors).suffix(12)),
        message: "the package at '\(path)' does not build (swift build --build-tests exited \(build.status))")
    }
    let binPath = try CapturedProcess.run(
      "swift", ["build", "--build-tests", "--show-bin-path", "--package-path", path]
    ).output.trimmingCharacters(in: .whitespacesAndNewlines)
    let binaries = ((try? FileManager.default.contentsOfDirectory(atPath: binPath)) ?? [])
      .filter { $0.hasSuffix("PackageTests.xctest") }.sorted()
    guard let binary = binaries.first else {
      throw UsageError(
        skippingBuild
          ? "the package at '\(path)' has no built tests in \(binPath); build it or leave out --skip-build"
          : "the package at '\(path)' has no test target (no *PackageTests.xctest in \(binPath))")
    }
    return TestPackage(path: path, testBinary: binPath + "/" + binary)
  }

  package init(path: String, testBinary: String) {
    self.path = path
    self.testBinary = testBinary
  }

  /// Every test of both frameworks, as the binary lists them, XCTest first.
  package func tests() throws -> [PackageTest] {
    try PackageTest.Framework.allCases.flatMap { framework in
      let listing = try CapturedProcess.run(
        testBinary, ["--testing-library", framework.rawValue, "--list-tests"])
      guard listing.status == 0 else {
        throw UsageError(
          "'\(testBinary)' is not a SwiftPM test binary: --list-tests exited \(listing.status)")
      }
      return listing.output.split(whereSeparator: \.isNewline).compactMap { line -> PackageTest? in
        // Test IDs are `Module.Suite/test`; XCTest's header line is not.
        let id = String(line)
        guard id.contains("/"), !id.hasPrefix("Listing ") else { return nil }
        return PackageTest(id: id, framework: framework)
      }
    }
  }
}
