import FlakeLab
import Foundation

/// `flakelab test` in its default run on FlakeKinds, a corpus of tests whose causes are
/// known (Labels.tsv), twice, as two users would run it (two seeds): how many answers are right,
/// how many would send the maintainer the wrong way (harmful), how many tell nothing
/// (undetermined, or stable for a flaky test), how many changed between the runs, and what each
/// run took. Then the default run of a 20-test package (the corpus's first twenty, its original
/// one test of each kind), against the target of 150 s. Every figure is this machine's: a race
/// needs two cores to show, and a deadline's margin is this machine's speed.
func diagnosisAccuracyFigures(flakelab: String) throws {
  let packagePath = "Tests/Fixtures/FlakeKinds"
  let package = try TestPackage.build(at: packagePath)
  let labels = try Labels(path: packagePath + "/Labels.tsv")
  var answers: [[String: String]] = []
  var seconds: [Double] = []
  for _ in 0..<2 {
    let (answer, took) = try defaultRun(of: packagePath, flakelab: flakelab)
    answers.append(answer)
    seconds.append(took)
  }
  print("")
  print(
    "flakelab test, default run of \(packagePath) (\(answers[0].count) tests, \(labels.right.count) labelled), twice:")
  var totals = (right: 0, harmful: 0, silent: 0, changed: 0)
  var calmAlone: [String: Int] = [:]
  for test in labels.right.keys.sorted() {
    let pair = answers.map { $0[test] ?? "missing" }
    let judged = pair.map { labels.judge($0, of: test) }
    for verdict in judged {
      switch verdict {
      case .right: totals.right += 1
      case .harmful: totals.harmful += 1
      case .silent: totals.silent += 1
      }
    }
    if pair[0] != pair[1] { totals.changed += 1 }
    guard judged != [.right, .right] || pair[0] != pair[1] else { continue }
    let right = labels.right[test]!.sorted().joined(separator: " or ")
    // A flaky test called stable: did the binary, with nothing of the lab's, fail it here at all?
    let stableCount = pair.filter { $0 == "stable" }.count
    var plain = ""
    if stableCount > 0 {
      let failures = try plainFailures(of: test, in: package, runs: plainRuns)
      plain = "; alone in the bare binary \(failures) of \(plainRuns) failed"
      if failures == 0 { calmAlone[test] = stableCount }
    }
    print("  \(test): \(pair[0])\(pair[1] == pair[0] ? "" : " then \(pair[1])") (right: \(right)\(plain))")
  }
  let unlabelled = Set(answers[0].keys).subtracting(labels.right.keys)
  if !unlabelled.isEmpty { print("  unlabelled: \(unlabelled.sorted().joined(separator: ", "))") }
  let answered = 2 * labels.right.count
  print(
    "  answers right \(totals.right) of \(answered), harmful \(totals.harmful), telling nothing \(totals.silent); "
      + "\(totals.changed) tests changed between the runs; "
      + String(format: "runs took %.0f s and %.0f s", seconds[0], seconds[1]))
  // Counted apart, never as right: `stable` for a test that failed no plain run here agrees with
  // this machine's binary, but the label, and the target, are the test's kind.
  let agreeing = calmAlone.values.reduce(0, +)
  if agreeing > 0 {
    print(
      "  of those telling nothing, \(agreeing) are `stable` for tests (\(calmAlone.keys.sorted().joined(separator: ", "))) "
        + "the bare binary did not fail alone in \(plainRuns) runs here: right or agreeing with the binary, "
        + "\(totals.right + agreeing) of \(answered)")
  }
  let original =
    "^FlakeKindsTests\\.[a-zA-Z]+\\(\\)$|CurrencyTests|SharedSettingsTests|NumberFactTests|Misbehaving|Stopping|PlanningTraps"
  let (small, took) = try defaultRun(of: packagePath, flakelab: flakelab, filter: original)
  print(
    String(
      format: "  a 20-test package (%d tests here, one of each kind): its default run took %.0f s (target ≤ 150 s)",
      small.count, took))
}

/// Plain runs of a test alone, for a flaky test the lab called stable.
private let plainRuns = 40

/// How many of `runs` plain runs of `test` alone, in the package's own test binary (no harness,
/// no lab), failed: a timing test whose margin this machine always meets fails none.
private func plainFailures(of test: String, in package: TestPackage, runs: Int) throws -> Int {
  // Swift Testing's IDs end in their parameter list; XCTest's are Module.Class/method.
  let arguments =
    test.hasSuffix(")")
    ? ["--testing-library", "swift-testing", "--filter", NSRegularExpression.escapedPattern(for: test)]
    : ["--testing-library", "xctest", test]
  let oneTestRan = test.hasSuffix(")") ? "Test run with 1 test " : "Executed 1 test,"
  var failures = 0
  for _ in 0..<runs {
    let run = try CapturedProcess.run(
      package.testBinary, arguments, directory: URL(fileURLWithPath: package.path), timeLimit: .seconds(60))
    if run.status != 0 {
      failures += 1
    } else if !(run.output + run.errorOutput).contains(oneTestRan) {
      // A filter that matched nothing passes too, and would say nothing of the test.
      throw BenchFailure("\(package.testBinary) \(arguments.joined(separator: " ")) ran no single test")
    }
  }
  return failures
}

/// One default run of `flakelab test` on the package: each test's diagnosis (its verdict where it
/// has none), and the run's time.
private func defaultRun(of packagePath: String, flakelab: String, filter: String? = nil) throws -> (
  [String: String], Double
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: flakelab)
  process.arguments =
    ["test", "--package-path", packagePath, "--skip-build", "--no-progress", "--format", "json"]
    + (filter.map { ["--filter", $0] } ?? [])
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  let start = clock.now
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let took = start.duration(to: clock.now).seconds
  let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
  let tests = document?["tests"] as? [[String: Any]] ?? []
  let answers = tests.map { test in
    (test["test"] as? String ?? "?", (test["diagnosis"] as? String) ?? (test["verdict"] as? String ?? "?"))
  }
  return (Dictionary(answers, uniquingKeysWith: { first, _ in first }), took)
}

/// Labels.tsv: for each test, the answers that are right and those that would mislead.
private struct Labels {
  enum Judgement { case right, harmful, silent }

  var right: [String: Set<String>] = [:]
  var harmful: [String: Set<String>?] = [:]

  init(path: String) throws {
    for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t").map(String.init)
      guard fields.count == 3 else { continue }
      right[fields[0]] = Set(fields[1].split(separator: ",").map(String.init))
      harmful[fields[0]] = fields[2] == "*" ? .some(nil) : Set(fields[2].split(separator: ",").map(String.init))
    }
  }

  /// `undetermined` tells nothing, and so does `stable` or `missing` for a flaky test; every
  /// other named answer is harmful when the label says so ("*": all but the right ones).
  func judge(_ answer: String, of test: String) -> Judgement {
    if right[test]?.contains(answer) == true { return .right }
    if ["undetermined", "stable", "missing", "skipped"].contains(answer) { return .silent }
    guard let listed = harmful[test] else { return .silent }
    return listed.map { $0.contains(answer) } ?? true ? .harmful : .silent
  }
}
