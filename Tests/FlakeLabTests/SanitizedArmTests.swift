import Foundation
import XCTest

@testable import FlakeLab

/// The thread sanitizer's arm on the Races fixture, for real: one sanitized build in a cache of
/// the test's own, reused; a data race named at its line in the package's sources in the
/// processes that ran it, a logical race and a locked control with none; and a package that does
/// not build, one line.
final class SanitizedArmTests: XCTestCase {
  private static let cache = FileManager.default.temporaryDirectory
    .appendingPathComponent("flakelab-sanitized-tests-\(getpid())").path

  override class func tearDown() {
    try? FileManager.default.removeItem(atPath: cache)
    super.tearDown()
  }

  private static var environment: [String: String] {
    ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cache]) { $1 }
  }

  /// The fixture as a run knows it: only its test binary's name matters to the sanitized build.
  private let package = TestPackage(path: Fixtures.races, testBinary: "/none/RacesPackageTests.xctest")

  private func test(_ name: String) -> PackageTest {
    PackageTest(id: "RacesTests.\(name)", framework: .xctest)
  }

  func testRacesAreNamedWhereTheyAreAndNowhereElse() throws {
    let build = try SanitizedBuild.build(package, environment: Self.environment)
    XCTAssertTrue(build.binary.hasPrefix(Self.cache + "/flakelab/sanitized/Races-"), build.binary)
    let built = try FileManager.default.attributesOfItem(atPath: build.binary)[.modificationDate] as? Date
    // The sources are the same: SwiftPM's build is reused, not redone.
    let again = try SanitizedBuild.build(package, environment: Self.environment)
    XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: again.binary)[.modificationDate] as? Date, built)

    let counter = test("DataRaceTests/testCounterFromTasks")
    let locked = test("LogicalRaceTests/testEachStepLocked")
    let control = test("LogicalRaceTests/testLockedControl")
    let arm = SanitizedArm(
      build: build, package: package, preload: try TestLaunch.preloadLibrary(besides: Flakelab.executable.path),
      jobs: 2, timeout: .seconds(60))
    let (evidence, interrupted, unavailable) = arm.run(
      [counter, locked, control].map { SanitizedArm.Subject(test: $0) }, processes: 5, isInTime: { true })
    XCTAssertFalse(interrupted)
    XCTAssertNil(unavailable)
    XCTAssertEqual(evidence.values.map(\.runs), [5, 5, 5])

    var races = try XCTUnwrap(evidence[counter]).races
    if races.isEmpty {
      // With both cores busy a task group's tasks can all run on one thread, and a process
      // shows no race: five more, as a longer run would take.
      races =
        arm.run([SanitizedArm.Subject(test: counter)], processes: 5, isInTime: { true }).evidence[counter]?.races ?? []
    }
    XCTAssertFalse(races.isEmpty, "the counter's race in none of 10 sanitized processes")
    let places = races.flatMap { $0.race.accesses.compactMap { $0.place(in: package.path) } }
    XCTAssertTrue(places.contains(SourceLocation(path: Fixtures.races + "/Sources/Races/Counter.swift", line: 5)))
    for place in places { XCTAssertTrue(place.path.hasPrefix(Fixtures.races + "/"), place.path) }

    XCTAssertEqual(evidence[locked]?.races.isEmpty, true, "each step is locked: no data race to name")
    XCTAssertEqual(evidence[control]?.races.isEmpty, true)
    XCTAssertEqual(evidence[control]?.failedRuns, 0)
  }

  func testAPackageThatDoesNotBuildSanitizedSaysWhyInOneLine() {
    let broken = TestPackage(
      path: Fixtures.directory.appendingPathComponent("DoesNotBuild").path, testBinary: "/none/X.xctest")
    XCTAssertThrowsError(try SanitizedBuild.build(broken, environment: Self.environment)) { error in
      let reason = (error as? SanitizedBuild.Unavailable)?.reason ?? ""
      XCTAssertTrue(reason.hasPrefix("the package does not build with the thread sanitizer: "), reason)
      XCTAssertFalse(reason.contains("\n"), reason)
    }
  }

  /// A default run names the racing line with no option: the counter's test, flaky under global,
  /// opens at the line two tasks write, and the answer says what the sanitizer took.
  func testADefaultRunOpensARacyTestAtItsRacingLine() throws {
    let result = try Flakelab.run(
      [
        "test", "--package-path", Fixtures.races, "--filter", "testCounterFromTasks", "--iterations", "8",
        "--no-progress", "--format", "json",
      ], environment: ["XDG_CACHE_HOME": Self.cache])
    XCTAssertEqual(result.status, 0, result.stderr)
    let report = try ReportJSON.read(Array(result.stdout.utf8), name: "stdout")
    let finding = try XCTUnwrap(report.tests.first)
    XCTAssertEqual(finding.verdict, .flaky, "the counter's race never failed 8 passes under global")
    XCTAssertEqual(finding.lead?.reason, .race, "\(String(describing: finding.lead))")
    XCTAssertEqual(finding.lead?.location.path(relativeTo: Fixtures.races), "Sources/Races/Counter.swift")
    XCTAssertEqual(finding.lead?.location.line, 5)
    XCTAssertEqual(report.sanitizer?.processes, 5)
    XCTAssertNil(report.sanitizer?.unavailable)
  }

  /// A test that leaves a child running with its output (XCTestOnly's) held every sanitized
  /// process until its time limit, ten minutes, while the child held the pipe: the arm's
  /// processes write to nowhere, and the call returns when the program exits.
  func testAChildLeftRunningDoesNotHoldASanitizedProcess() throws {
    let process = try CapturedProcess.run(
      "/bin/sh", ["-c", "sleep 30 & exit 3"], timeLimit: .seconds(20), discardingOutput: true)
    XCTAssertEqual(process.status, 3)
    XCTAssertThrowsError(try CapturedProcess.run("/bin/sh", ["-c", "sleep 30 & exit 3"], timeLimit: .seconds(1))) {
      XCTAssertTrue($0 is CapturedProcess.TimedOut, "\($0)")
    }
  }
}
