import FlakeLab
import Foundation

/// Issue 24, point 8: `flakelab test` on FlakeKinds (one test of each kind) in its default run,
/// twice in a row: whether every test gets the same diagnosis both times, and what each run
/// took (target ≤ 150 s here). The runs' seeds differ, as two users' would.
func stableAnswerFigures(worker: String) throws {
  let packagePath = "Tests/Fixtures/FlakeKinds"
  _ = try TestPackage.build(at: packagePath)
  var answers: [[String: String]] = []
  var seconds: [Double] = []
  for _ in 0..<2 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: worker)
    process.arguments = ["test", "--package-path", packagePath, "--skip-build", "--no-progress", "--format", "json"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let start = clock.now
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    seconds.append(start.duration(to: clock.now).seconds)
    let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let tests = document?["tests"] as? [[String: Any]] ?? []
    answers.append(
      Dictionary(
        uniqueKeysWithValues: tests.map { test in
          (test["test"] as? String ?? "?", (test["diagnosis"] as? String) ?? (test["verdict"] as? String ?? "?"))
        }))
  }
  let differing = answers[0].keys.sorted().filter { answers[0][$0] != answers[1][$0] }
  print("")
  print("flakelab test, default run of \(packagePath), twice in a row (\(answers[0].count) tests):")
  for (test, answer) in answers[0].sorted(by: { $0.key < $1.key }) where answer != "stable" || answers[1][test] != "stable" {
    print("  \(test): \(answer)" + (answers[1][test] == answer ? "" : " then \(answers[1][test] ?? "none")"))
  }
  print(
    String(format: "  runs took %.0f s and %.0f s (target ≤ 150 s); ", seconds[0], seconds[1])
      + (differing.isEmpty ? "every test got the same answer both times" : "\(differing.count) test\(differing.count == 1 ? "" : "s") got two answers"))
}
