import Foundation
import XCTest

@testable import FlakeLab
@testable import FlakeLabCommand

/// What people and scripts hand the lab beyond a typo: devices,
/// pipes and files that are not ours as `--output`, reports that do not belong together, a
/// scenario that crashes the process replaying it, names with line breaks. Each is one clear
/// line and exit 2, or the right result, never a crash, a replaced device or a lost report.
final class HostileInputTests: XCTestCase {
  private let temporary = FileManager.default.temporaryDirectory

  /// Runs a tiny measurement with `--output path`.
  private func measure(writingTo path: String) throws -> Flakelab.Result {
    try Flakelab.run(["run", "lab.crash", "--iterations", "10", "--output", path])
  }

  private func expectRefusal(
    _ result: Flakelab.Result, saying text: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(result.status, 2, result.stderr, file: file, line: line)
    XCTAssertEqual(result.stdout, "", "refused before any work", file: file, line: line)
    XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr, file: file, line: line)
    XCTAssertTrue(result.stderr.contains(text), result.stderr, file: file, line: line)
  }

  func testOutputThatIsNotARegularFileIsRefusedBeforeAnyWorkAndLeftAsItWas() throws {
    let fifo = temporary.appendingPathComponent("flakelab-fifo-\(UUID().uuidString)").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    defer { unlink(fifo) }
    for path in ["/dev/full", "/dev/null", fifo] {
      expectRefusal(try measure(writingTo: path), saying: "it is not a regular file")
      var status = stat()
      XCTAssertEqual(stat(path, &status), 0)
      XCTAssertNotEqual(status.st_mode & S_IFMT, S_IFREG, "\(path) was replaced by a file")
    }
    expectRefusal(try measure(writingTo: ""), saying: "--output takes a file's path")
    expectRefusal(try measure(writingTo: "/proc/version"), saying: "cannot write /proc/version")
    expectRefusal(try measure(writingTo: temporary.path), saying: "it is a directory")
  }

  func testStandardOutputOnAPipeIsNoPlaceForTheReport() throws {
    // Through a pipe, /dev/stdout names the pipe: refused, not found out after the run.
    let result = try Flakelab.run(["run", "lab.crash", "--iterations", "10", "--output", "/dev/stdout"])
    expectRefusal(result, saying: "it is not a regular file")
  }

  func testAReplacedReportKeepsTheOldFilesPermissions() throws {
    let path = temporary.appendingPathComponent("flakelab-mode-\(UUID().uuidString).json").path
    defer { unlink(path) }
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
    chmod(path, 0o640)
    let result = try measure(writingTo: path)
    XCTAssertEqual(result.status, 0, result.stderr)
    var status = stat()
    XCTAssertEqual(stat(path, &status), 0)
    XCTAssertEqual(status.st_mode & 0o777, 0o640)
    XCTAssertNoThrow(try ReportFile.read(path))
  }

  func testAReaderThatGoesAwayEarlyIsExitTwoNotADeathBySignal() throws {
    // bash gives the status of a pipeline's first command in PIPESTATUS.
    let result = try Flakelab.shell(
      "FLAKELAB run lab.crash --iterations 300 --format json --no-progress | true; exit ${PIPESTATUS[0]}")
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(result.stderr.contains("could not write the report to standard output: Broken pipe"), result.stderr)
  }

  func testMergeRefusesReportsOfAnotherPackageOrLayoutAndReportsWithoutRuns() throws {
    func report(_ path: String, _ layout: TestReference.ProcessLayout, shard: Int) throws -> Report {
      var run = RunResult(
        RunKey(scenario: "M.S", variant: "t()", executor: .serial), tally: Tally(), seconds: 0,
        iterationsAreIndependent: true)
      run.test = TestReference(
        test: PackageTest(id: "M.S/t()", framework: .swiftTesting), packagePath: path, layout: layout)
      return Report(runs: [run], shard: try Shard(index: shard, count: 2))
    }
    XCTAssertThrowsError(
      try ReportMerger.merge([
        ("a.json", try report("one", .repetitions, shard: 0)), ("b.json", try report("two", .repetitions, shard: 1)),
      ])
    ) { error in
      XCTAssertEqual(
        ErrorText.render(error).line,
        "b.json measured the package at 'two', a.json the one at 'one': they are not one measurement")
    }
    XCTAssertThrowsError(
      try ReportMerger.merge([
        ("a.json", try report("one", .repetitions, shard: 0)), ("b.json", try report("one", .fresh, shard: 1)),
      ])
    ) { error in
      XCTAssertEqual(
        ErrorText.render(error).line,
        "b.json ran tests as fresh, a.json as repetitions: their rates are not one measurement")
    }
    XCTAssertNoThrow(
      try ReportMerger.merge([
        ("a.json", try report("one", .fresh, shard: 0)), ("b.json", try report("one", .fresh, shard: 1)),
      ]))
    XCTAssertThrowsError(try ReportMerger.merge([("empty.json", Report(runs: []))])) { error in
      XCTAssertEqual(ErrorText.render(error).line, "empty.json has no runs: there is nothing to merge or gate")
    }
    // A run listed twice would be doubled; an executor no flakelab has is
    // not a report flakelab made.
    let once = try report("one", .fresh, shard: 0).runs[0]
    XCTAssertThrowsError(try ReportMerger.merge([("twice.json", Report(runs: [once, once]))])) { error in
      XCTAssertEqual(
        ErrorText.render(error).line,
        "twice.json holds M.S.t() under serial twice: added up, its counts would be doubled")
    }
    let bogus = RunResult(
      RunKey(scenario: "M.S", variant: "t()", executor: ExecutorID("bogus")), tally: Tally(), seconds: 0,
      iterationsAreIndependent: true)
    XCTAssertThrowsError(try ReportMerger.merge([("bogus.json", Report(runs: [bogus]))])) { error in
      XCTAssertEqual(
        ErrorText.render(error).line,
        "bogus.json holds M.S.t() under bogus, and this flakelab has no executor 'bogus': it is not a report flakelab made"
      )
    }
  }

  /// A raw identifier may hold a `/`, which is no suite's end.
  func testARawNameWithASlashKeepsItsSuiteAndFunction() {
    let inSuite = PackageTest(id: "M.Suite/`a/b works`()", framework: .swiftTesting)
    XCTAssertEqual([inSuite.suite, inSuite.function], ["M.Suite", "`a/b works`()"])
    let atFileScope = PackageTest(id: "M.`x/y.z`(a:)", framework: .swiftTesting)
    XCTAssertEqual([atFileScope.suite, atFileScope.function], ["M", "`x/y.z`(a:)"])
    let plain = PackageTest(id: "M.S/test()", framework: .swiftTesting)
    XCTAssertEqual([plain.suite, plain.function], ["M.S", "test()"])
  }

  /// A workspace reached through a symbolic link still gives relative paths,
  /// and an empty one is the current directory, never `/`.
  func testAnnotationPathsAreRelativeThroughASymlinkedWorkspace() throws {
    let real = temporary.appendingPathComponent("flakelab-workspace-\(UUID().uuidString)")
    let link = temporary.appendingPathComponent("flakelab-link-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: real.appendingPathComponent("Tests"), withIntermediateDirectories: true)
    XCTAssertTrue(FileManager.default.createFile(atPath: real.path + "/Tests/A.swift", contents: Data()))
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
    defer {
      try? FileManager.default.removeItem(at: link)
      try? FileManager.default.removeItem(at: real)
    }
    let location = SourceLocation(path: real.path + "/Tests/A.swift", line: 3)
    XCTAssertEqual(location.path(relativeTo: link.path), "Tests/A.swift")
    XCTAssertEqual(
      SourceLocation(path: link.path + "/Tests/A.swift", line: 3).path(relativeTo: real.path), "Tests/A.swift")
  }

  /// Durations people mean, and `--list` in the formats it has.
  func testADurationIsPlainAndTheListingHasTextAndJSON() throws {
    for budget in ["1e-9s", "0.0001s", "-1s", "1e3ms"] {
      expectRefusal(try Flakelab.run(["test", "--budget", budget]), saying: "--budget takes a duration")
    }
    expectRefusal(try Flakelab.run(["test", "--list", "--format", "html"]), saying: "--list prints text or")
    let numberFacts = Fixtures.numberFacts
    XCTAssertEqual(try Fixtures.numberFactsBuild.get().status, 0)
    let listed = try Flakelab.run(["test", "--package-path", numberFacts, "--skip-build", "--list", "--format", "json"])
    XCTAssertEqual(listed.status, 0, listed.stderr)
    let document = try XCTUnwrap(JSONParser.parse(Array(listed.stdout.utf8)))
    let tests = try XCTUnwrap(document["tests"]?.array)
    XCTAssertEqual(tests.count, 10)
    let yield = try XCTUnwrap(tests.first { $0["test"]?.string == "NumberFactsTests.IsLoadingTests/yield()" })
    XCTAssertEqual(yield["framework"]?.string, "swift-testing")
    XCTAssertEqual(yield["filterID"]?.string, "NumberFactsTests.IsLoadingTests/yield()/IsLoadingTests.swift:17:4")
    XCTAssertEqual(yield["source"]?["line"]?.int, 17)
  }

  func testReplayingAnIterationThatCrashesReportsTheCrash() throws {
    // lab.crash traps on the 100th iteration of a process, index 99.
    for arguments in [
      ["replay", "lab.crash", "--seed", "1", "--index", "99"], ["explore", "lab.crash", "--index", "99"],
    ] {
      let result = try Flakelab.run(arguments)
      XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stdout.contains("crashed: signal 4 (SIGILL)"), "\(arguments): \(result.stdout)")
      XCTAssertFalse(result.stdout.contains("Current stack trace"), result.stdout)
      XCTAssertFalse(result.stderr.contains("Current stack trace"), result.stderr)
    }
  }

  func testSmallInputsThatUsedToBeAccepted() throws {
    expectRefusal(try Flakelab.run(["--version", "extra"]), saying: "--version takes nothing after it")
    expectRefusal(
      try Flakelab.run(["replay", "isLoading.naive", "--executor", "fifo", "--seed", "junk"]), saying: "--seed")
  }

  func testANameWithALineBreakStaysOnItsRow() {
    var table = TextTable([.left, .right])
    table.add(["one\ntwo", "3"])
    XCTAssertEqual(table.lines(), [#"one\ntwo  3"#])
  }
}
