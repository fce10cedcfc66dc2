import FlakeLab
import Foundation

/// What each call the harness defines costs a test on one queue, where the watch is on, and
/// under global, where it is not (the seeded randomness is on in both): the WatchedCalls fixture
/// times each call returning at once, in its test binary run plainly and in the lab's worker
/// processes, alternating rounds. The figure is the lab's median nanoseconds a call less the
/// plain binary's (goal ≤ 5 µs on one queue). The fixture is built here; a build that fails
/// skips the figure, said.
func interposerCostFigures(flakelab: String) throws {
  let package = "Tests/Fixtures/WatchedCalls"
  let build = Process()
  build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  build.arguments = ["swift", "build", "--build-tests", "--package-path", package]
  build.standardOutput = FileHandle.nullDevice
  build.standardError = FileHandle.nullDevice
  try build.run()
  build.waitUntilExit()
  print("")
  guard build.terminationStatus == 0 else {
    print("Interposer cost: \(package) did not build; no figure")
    return
  }
  let binary = "\(package)/.build/debug/WatchedCallsPackageTests.xctest"
  let test = "WatchedCallsTests.WatchedCallsTests/testEachWatchedCallReturningAtOnce"
  func run(_ executable: String, _ arguments: [String]) throws -> [String: [Double]] {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("watched-\(UUID().uuidString)").path
    guard FileManager.default.createFile(atPath: out, contents: nil) else {
      throw BenchFailure("cannot create \(out) for the fixture's figures")
    }
    defer { unlink(out) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["WATCHED_CALLS_OUT": out]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    var figures: [String: [Double]] = [:]
    for line in (try String(contentsOfFile: out, encoding: .utf8)).split(separator: "\n") {
      let words = line.split(separator: " ")
      guard words.count == 2, let nanoseconds = Double(words[1]) else { continue }
      figures[String(words[0]), default: []].append(nanoseconds)
    }
    return figures
  }
  // Each round: the plain binary (nil), then the lab under each executor.
  let arms: [ExecutorID?] = [nil] + labArms
  var figures: [ExecutorID?: [String: [Double]]] = [:]
  for _ in 0..<3 {
    for arm in arms {
      let got =
        try arm.map { executor in
          try run(
            flakelab,
            [
              "test", "--package-path", package, "--skip-build", "--no-progress", "--layout", "repetitions",
              "--executor", executor.name, "--iterations", "2",
            ])
        } ?? run(binary, [test])
      for (call, values) in got { figures[arm, default: [:]][call, default: []] += values }
    }
  }
  print(
    "Interposer cost: each call the harness defines, returning at once, in the WatchedCalls fixture, "
      + "median of 3 alternating rounds")
  let calls = (figures[nil] ?? [:]).keys.sorted()
  printCosts(of: calls.filter { !$0.hasSuffix(".first") }, figures, goal: " (goal ≤ 5 µs)")
  print("  an iteration's first call of each, which the watch tells on one queue (its stack and its event):")
  printCosts(of: calls.filter { $0.hasSuffix(".first") }, figures, goal: "")
}

/// The lab's arms: under global the watch is off, on one queue it is on.
private let labArms: [ExecutorID] = [.global, .serial]

/// A row a call: the plain binary's median, and what each lab arm adds to it.
private func printCosts(of calls: [String], _ figures: [ExecutorID?: [String: [Double]]], goal: String) {
  let headings = labArms.map { "lab \($0.name) (watch \($0 == .global ? "off" : "on"))" }
  print(
    "  call                       plain     "
      + headings.map { $0.padding(toLength: 25, withPad: " ", startingAt: 0) }
      .joined().trimmingCharacters(in: .whitespaces))
  for call in calls {
    let plain = median(figures[nil]?[call] ?? [])
    func extra(_ arm: ExecutorID) -> String {
      guard let values = figures[arm]?[call], !values.isEmpty else { return "–" }
      return String(format: "%+.2f µs", (median(values) - plain) / 1000)
    }
    print(
      "  " + call.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: " %6.2f µs", plain / 1000)
        + "   "
        + labArms.map { extra($0).padding(toLength: 25, withPad: " ", startingAt: 0) }.joined()
        .trimmingCharacters(in: .whitespaces) + goal)
  }
}
