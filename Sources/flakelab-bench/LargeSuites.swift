import FlakeLab
import Foundation

/// Whether `flakelab ci` and the listing grow with a suite as the suite itself does: for each
/// size, a generated package of that many passing tests (three in four Swift Testing, the rest
/// XCTest, a hundred a file), `flakelab ci --retries 0` against `swift test --skip-build` and
/// against the test binary run once per framework (within 10% + 0.1 s of it), in
/// alternating rounds, and `flakelab test --list` per thousand tests. A cost that grows faster
/// than the suite shows as a ratio that rises with the size.
///
/// Seven rounds: on Linux an XCTest process now and then waits 100 ms in XCTest's own
/// `XCTWaiter` (its async set-up and tear-down; a stop that comes before the run loop runs is
/// lost, and the loop waits out its 0.1 s turn), and three rounds let one such wait decide a
/// small suite's median.
///
/// The packages are written under `.build/bench-suites` and built once (the first build of
/// 4,000 tests takes minutes: Swift Testing's macros); a later bench reuses them. Sizes come from
/// `BENCH_SUITE_SIZES` (`10,250,1000,4000` unless set; empty skips the figure).
func largeSuiteFigures(flakelab: String) throws -> [(size: Int, ratio: Double)] {
  let sizes = (ProcessInfo.processInfo.environment["BENCH_SUITE_SIZES"] ?? "10,250,1000,4000")
    .split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
  guard !sizes.isEmpty else { return [] }
  print("")
  let rounds = 7
  print(
    "flakelab ci against swift test --skip-build on generated suites of passing tests, "
      + "median of \(rounds) alternating rounds")
  var figures: [(size: Int, ratio: Double)] = []
  for size in sizes {
    let package = try generatedSuite(size)
    func seconds(_ executable: String, _ arguments: [String]) throws -> Double {
      let start = clock.now
      let result = try CapturedProcess.run(executable, arguments, directory: URL(fileURLWithPath: package))
      guard result.status == 0 else {
        throw BenchFailure("\(arguments.joined(separator: " ")) in \(package) exited \(result.status)")
      }
      return start.duration(to: clock.now).seconds
    }
    // The test binary as a CI job could run it without SwiftPM: once per framework, its output read.
    let binary = "\(package)/.build/debug/Suite\(size)PackageTests.xctest"
    var (lab, plain, ratios, listing, bare) = ([Double](), [Double](), [Double](), [Double](), [Double]())
    for _ in 0..<rounds {
      let ci = try seconds(flakelab, ["ci", "--skip-build", "--no-progress", "--retries", "0"])
      let swiftTest = try seconds("/usr/bin/env", ["swift", "test", "--skip-build"])
      bare.append(
        try seconds(binary, ["--testing-library", "xctest"]) + seconds(binary, ["--testing-library", "swift-testing"]))
      listing.append(try seconds(flakelab, ["test", "--list", "--skip-build"]))
      (lab, plain, ratios) = (lab + [ci], plain + [swiftTest], ratios + [ci / swiftTest])
    }
    let allowed = median(bare) * 1.1 + 0.1
    print(
      String(
        format: "  %5d tests: flakelab ci %.2f s, swift test %.2f s: %.2f× (target ≤ 1.10×) · "
          + "the bare binary %.2f s: %.2f× (target ≤ 1.10× + 0.1 s, %.2f s: %@) · "
          + "test --list %.2f s (%.3f s per 1,000 tests)",
        size, median(lab), median(plain), median(ratios), median(bare), median(lab) / median(bare), allowed,
        median(lab) <= allowed ? "met" : "missed", median(listing), median(listing) / Double(size) * 1000))
    figures.append((size, median(ratios)))
  }
  return figures
}

/// The package of `size` tests, written (only what changed) and built when it is not yet.
private func generatedSuite(_ size: Int) throws -> String {
  let root = URL(fileURLWithPath: ".build/bench-suites/Suite\(size)").standardizedFileURL
  let tests = root.appendingPathComponent("Tests/SuiteTests")
  try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
  var files: [String: String] = [
    "Package.swift": """
    // swift-tools-version: 6.2
    import PackageDescription

    let package = Package(name: "Suite\(size)", targets: [.testTarget(name: "SuiteTests")], swiftLanguageModes: [.v6])

    """
  ]
  let swiftTesting = size * 3 / 4
  for first in stride(from: 0, to: size, by: 100) {
    let numbers = first..<min(first + 100, size)
    let body: String
    if first < swiftTesting {
      body =
        "import Testing\n\n"
        + numbers.filter { $0 < swiftTesting }.map { "@Test func t\($0)() { #expect(\($0) + 1 == \($0 + 1)) }\n" }
        .joined()
        + (numbers.contains { $0 >= swiftTesting } ? xcTestCase(numbers.filter { $0 >= swiftTesting }, first) : "")
    } else {
      body = xcTestCase(Array(numbers), first)
    }
    files["Tests/SuiteTests/Tests\(first).swift"] = body
  }
  var changed = false
  for (name, text) in files {
    let path = root.appendingPathComponent(name).path
    guard (try? String(contentsOfFile: path, encoding: .utf8)) != text else { continue }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    changed = true
  }
  let binary = root.appendingPathComponent(".build/debug/Suite\(size)PackageTests.xctest")
  if changed || !FileManager.default.fileExists(atPath: binary.path) {
    print("  building the suite of \(size) tests (once)…")
    let build = try CapturedProcess.run("swift", ["build", "--build-tests"], directory: root)
    guard build.status == 0 else { throw BenchFailure("building \(root.path): \(build.errorOutput.suffix(500))") }
  }
  return root.path
}

private func xcTestCase(_ numbers: [Int], _ first: Int) -> String {
  "\nimport XCTest\n\nfinal class Case\(first)Tests: XCTestCase {\n"
    + numbers.map { "  func test\($0)() { XCTAssertEqual(\($0) + 1, \($0 + 1)) }\n" }.joined() + "}\n"
}

/// A figure that could not be measured, and why.
struct BenchFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
