import FlakeLab
import Foundation

/// Whether the lab's suite pass sees what `swift test` sees. Each round runs one lab
/// pass under global (the harness preloaded, the events read) and the test binary as `swift
/// test` runs it (`--testing-library xctest`, then `swift-testing`, its console read), one after
/// the other, so that drift in load hits both alike. For each test that failed on either side:
/// the two counts and Fisher's exact test of their difference. Packages: BENCH_FIDELITY_PACKAGES
/// (paths separated by `:`, cloned copies of real packages, say), else FlakeKinds;
/// BENCH_FIDELITY_SUITES (`Module.Class,…`) keeps those suites only, on both sides, as `swift
/// test --filter` would (Nimble's whole suite takes over two minutes a pass).
func passFidelityFigures(worker: String) throws {
  let rounds = Int(ProcessInfo.processInfo.environment["BENCH_FIDELITY_ROUNDS"] ?? "") ?? 20
  let paths =
    (ProcessInfo.processInfo.environment["BENCH_FIDELITY_PACKAGES"].flatMap { $0.isEmpty ? nil : $0 }
    ?? "Tests/Fixtures/FlakeKinds").split(separator: ":").map(String.init)
  let preload = try TestLaunch.preloadLibrary(besides: worker)
  for path in paths {
    let (package, all) = try TestPackage.build(at: path).listed()
    let suites = (ProcessInfo.processInfo.environment["BENCH_FIDELITY_SUITES"] ?? "").split(separator: ",").map(
      String.init)
    let tests = all.filter { test in suites.isEmpty || suites.contains { test.id.hasPrefix($0 + "/") } }
    let arm = TestLaunch.passes(of: tests, in: package, executor: GlobalExecutor(), seed: 0, preload: preload)
    var lab: [String: Int] = [:]
    var plain: [String: Int] = [:]
    for round in 0..<rounds {
      let results = try PassSupervisor(timeout: .seconds(60)).run(
        [arm], passes: round..<(round + 1), replicates: 1, seed: UInt64(round), packagePath: path)
      for result in results where result.tally.notPassed > 0 {
        if let id = result.test?.test.id { lab[id, default: 0] += 1 }
      }
      for id in plainFailures(package: package, tests: tests, suites: suites) { plain[id, default: 0] += 1 }
    }
    print("")
    print(
      "flakelab test's suite pass against the binary run as swift test runs it: \(path), \(tests.count) tests, \(rounds) alternating rounds, global"
    )
    let failing = Set(lab.keys).union(plain.keys).sorted()
    if failing.isEmpty { print("  no test failed on either side") }
    let counts = failing.map { (lab[$0] ?? 0, plain[$0] ?? 0) }
    let p = counts.map { a, b in fisherExact(a, rounds - a, b, rounds - b) }
    let differ = holmRejects(p)
    for (index, id) in failing.enumerated() {
      let (a, b) = counts[index]
      print(
        String(
          format: "  %@: lab %d of %d, swift test %d of %d, Fisher's exact p = %.3f%@", id, a, rounds, b, rounds,
          p[index], differ[index] ? " (differ)" : ""))
    }
    if failing.count > 1 { print("  (differ: at 5% after Holm's correction over the \(failing.count) tests)") }
  }
}

/// The tests whose failures one run of the test binary, as `swift test` runs it, printed: XCTest's
/// `path:line: error: Class.test : …`, Swift Testing's `✘ Test name() failed`, each matched to
/// the listed IDs that end with it (`Module.Class/test`, `Module.Suite/name()`, `Module.name()`).
func plainFailures(package: TestPackage, tests: [PackageTest], suites: [String]) -> Set<String> {
  var failed = Set<String>()
  for framework in PackageTest.Framework.allCases where tests.contains(where: { $0.framework == framework }) {
    let library = framework == .xctest ? "xctest" : "swift-testing"
    // XCTest takes a comma-separated list of suites; Swift Testing a pattern.
    let filter =
      suites.isEmpty
      ? []
      : framework == .xctest
        ? [suites.joined(separator: ",")]
        : ["--filter", suites.map { NSRegularExpression.escapedPattern(for: $0) + "/" }.joined(separator: "|")]
    guard
      let run = try? CapturedProcess.run(
        package.testBinary, ["--testing-library", library] + filter, directory: URL(fileURLWithPath: package.path))
    else { continue }
    for line in (run.output + run.errorOutput).split(separator: "\n") {
      switch framework {
      case .xctest:
        guard let error = line.range(of: ": error: "), let colon = line[error.upperBound...].range(of: " : ") else {
          continue
        }
        let name = line[error.upperBound..<colon.lowerBound]
        for candidate in tests where candidate.framework == .xctest {
          let dotted = candidate.id.replacingOccurrences(of: "/", with: ".")
          if dotted == name || dotted.hasSuffix("." + name) { failed.insert(candidate.id) }
        }
      case .swiftTesting:
        guard let test = line.range(of: "Test "), line.contains(" failed") || line.contains(" recorded an issue") else {
          continue
        }
        let function = line[test.upperBound...].prefix { $0 != " " }
        for candidate in tests
        where candidate.framework == .swiftTesting
          && (candidate.id.hasSuffix("/" + function) || candidate.id.hasSuffix("." + function))
        {
          failed.insert(candidate.id)
        }
      }
    }
  }
  return failed
}
