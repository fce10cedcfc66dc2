import FlakeLab
import Foundation

/// Whether `flakelab ci` costs what its test binaries do, at every size a team meets: for each
/// size, a generated package of that many passing tests (three in four Swift Testing, the rest
/// XCTest, a hundred a file), in alternating rounds:
/// - the baseline, the cheapest honest way to run the same tests: the test binary once per
///   framework, its output read through a pipe by a reader that does nothing else
///   (``timedRun(_:_:in:output:)``), and the same with its output to /dev/null beside it;
/// - `flakelab ci --retries 0` and `swift test --skip-build`, their output read the same way, as
///   a CI job's log reads it;
/// - `flakelab test --list`, per thousand tests.
/// Each figure is a median with its spread (min–max). Targets: `ci` within 10% + 0.1 s of the
/// baseline, and its spread no larger than the baseline's plus 20%.
///
/// Seven rounds: on Linux a plain XCTest process now and then waits 100 ms in XCTest's own
/// `XCTWaiter` (its async set-up and tear-down; a stop that comes before the run loop runs is
/// lost, and the loop waits out its 0.1 s turn, which the lab's harness does not:
/// `DroppedStopRescue`), and three rounds let one such wait decide the baseline's median.
///
/// The packages are written under `.build/bench-suites` and built once (the first build of
/// 4,000 tests takes minutes: Swift Testing's macros); a later bench reuses them. Sizes come from
/// `BENCH_SUITE_SIZES` (`10,250,1000,4000` unless set; empty skips the figure).
func largeSuiteFigures(flakelab: String) throws -> [(size: Int, ratio: Double)] {
  let sizes = (ProcessInfo.processInfo.environment["BENCH_SUITE_SIZES"] ?? "10,250,1000,4000")
    .split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
  guard !sizes.isEmpty else { return [] }
  print("")
  let rounds = Int(ProcessInfo.processInfo.environment["BENCH_SUITE_ROUNDS"] ?? "") ?? 7
  print(
    "flakelab ci against its test binaries (once per framework, output read through a pipe), "
      + "median [min–max] of \(rounds) alternating rounds")
  var figures: [(size: Int, ratio: Double)] = []
  for size in sizes {
    let package = try generatedSuite(size)
    func run(_ executable: String, _ arguments: [String], output: BenchOutput = .pipe) throws -> Double {
      try timedRun(executable, arguments, in: package, output: output)
    }
    let binary = "\(package)/.build/debug/Suite\(size)PackageTests.xctest"
    func binaries(_ output: BenchOutput) throws -> Double {
      try run(binary, ["--testing-library", "xctest"], output: output)
        + run(binary, ["--testing-library", "swift-testing"], output: output)
    }
    var (lab, plain, listing, piped, discarded) = ([Double](), [Double](), [Double](), [Double](), [Double]())
    for _ in 0..<rounds {
      piped.append(try binaries(.pipe))
      lab.append(try run(flakelab, ["ci", "--skip-build", "--no-progress", "--retries", "0"]))
      discarded.append(try binaries(.null))
      plain.append(try run("/usr/bin/env", ["swift", "test", "--skip-build"]))
      listing.append(try run(flakelab, ["test", "--list", "--skip-build"]))
    }
    let allowed = median(piped) * 1.1 + 0.1
    let allowedSpread = spread(piped) * 1.2
    print(
      String(
        format: "  %5d tests: binaries %@ (to /dev/null %@) · flakelab ci %@: %.2f×, %@ (target ≤ 1.10× + 0.1 s, "
          + "%.2f s; spread ≤ %.2f s) · swift test %@: %.2f× · test --list %.2f s (%.3f s per 1,000 tests)",
        size, figure(piped), figure(discarded), figure(lab), median(lab) / median(piped),
        median(lab) <= allowed && spread(lab) <= allowedSpread ? "met" : "missed", allowed, allowedSpread,
        figure(plain), median(plain) / median(piped), median(listing), median(listing) / Double(size) * 1000))
    figures.append((size, median(lab) / allowed))
  }
  return figures
}

/// Where a timed command's output goes: a pipe read by a loop that does nothing else, as fast
/// as the kernel delivers it, or /dev/null.
enum BenchOutput { case pipe, null }

/// The wall time of `executable` with `arguments` in `directory`, from its start to its exit, its
/// output (both streams) read as `output` says; an exit other than 0 is no figure.
func timedRun(_ executable: String, _ arguments: [String], in directory: String, output: BenchOutput) throws
  -> Double
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  let pipe = Pipe()
  switch output {
  case .pipe:
    process.standardOutput = pipe
    process.standardError = pipe
  case .null:
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
  }
  let start = clock.now
  try process.run()
  if output == .pipe {
    try? pipe.fileHandleForWriting.close()
    let reading = pipe.fileHandleForReading.fileDescriptor
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while buffer.withUnsafeMutableBytes({ read(reading, $0.baseAddress, $0.count) }) != 0 {}
  }
  process.waitUntilExit()
  let seconds = start.duration(to: clock.now).seconds
  guard process.terminationStatus == 0 else {
    throw BenchFailure("\(arguments.joined(separator: " ")) in \(directory) exited \(process.terminationStatus)")
  }
  return seconds
}

/// `1.23 s [1.10–1.41]`: a median and the spread around it.
func figure(_ values: [Double]) -> String {
  String(format: "%.2f s [%.2f–%.2f]", median(values), values.min() ?? 0, values.max() ?? 0)
}

/// How far apart the slowest and the fastest round were.
func spread(_ values: [Double]) -> Double { (values.max() ?? 0) - (values.min() ?? 0) }

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
