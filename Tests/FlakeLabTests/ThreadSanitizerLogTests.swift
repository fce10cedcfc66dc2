import Foundation
import XCTest

@testable import FlakeLab

/// The thread sanitizer's reports, as the toolchain wrote them for the Races fixture's tests
/// (`Tests/Reports/ThreadSanitizer`, the package's path written `/package`), read into races:
/// both accesses at their lines in the package's sources, what ran each, never a line of the
/// toolchain.
final class ThreadSanitizerLogTests: XCTestCase {
  private let package = "/package"

  private func races(_ name: String) throws -> [DataRace] {
    let path = ReadmeExamplesTests.root.appendingPathComponent("Tests/Reports/ThreadSanitizer/\(name).log").path
    // The fixture's own sources, where a frame without a line finds its function's declaration.
    let fixture = ReadmeExamplesTests.root.appendingPathComponent("Tests/Fixtures/Races").path
    return ThreadSanitizerLog.races(in: try String(contentsOfFile: path, encoding: .utf8), packagePath: package) {
      function, path in
      ThreadSanitizerLog.declarationLine(of: function, in: fixture + path.dropFirst(package.count))
    }
  }

  private func places(_ race: DataRace) -> [String] {
    race.accesses.map { $0.place(in: package).map { "\($0.path(relativeTo: package)):\($0.line)" } ?? "-" }
  }

  func testACounterTwoTasksBumpIsOneRaceAtItsLine() throws {
    let races = try races("testCounterFromTasks")
    // The Swift access race and the data race at one address are one race; the data race has
    // the lines.
    XCTAssertEqual(races.count, 1)
    XCTAssertEqual(races[0].kind, "data race")
    XCTAssertEqual(places(races[0]), ["Sources/Races/Counter.swift:5", "Sources/Races/Counter.swift:5"])
    XCTAssertEqual(races[0].accesses.map(\.isWrite), [true, true])
    XCTAssertEqual(races[0].accesses.map(\.runner), [.task, .task])
    XCTAssertEqual(races[0].accesses[0].function(in: package), "Counter.bump()")
    XCTAssertFalse(races[0].involvesUnorderedThread)
  }

  func testAStaticNamesItsVariable() throws {
    let races = try races("testUncheckedStatic")
    XCTAssertEqual(races.count, 1)
    XCTAssertEqual(races[0].variable, "Registry.registered")
    XCTAssertEqual(places(races[0]).first, "Sources/Races/Registry.swift:4")
  }

  func testADictionaryIsOpenedInThePackageNeverInTheStandardLibrary() throws {
    let races = try races("testDictionaryFromTaskGroup")
    XCTAssertFalse(races.isEmpty)
    for race in races {
      for place in places(race) where place != "-" {
        XCTAssertTrue(place.hasPrefix("Sources/") || place.hasPrefix("Tests/"), place)
      }
    }
    // A Swift access race alone (the dictionary's own writes are in the standard library, which
    // is not instrumented): its frame has no line, its function's declaration gives one.
    XCTAssertEqual(races.map(places), [["Sources/Races/Tally.swift:5", "Sources/Races/Tally.swift:5"]])
  }

  /// The Races fixture's `Tally` made a `Synchronization.Mutex`: the sanitizer, blind to a
  /// contended Mutex's hand-off on Linux, reported its locked writes as racing (real log). Such
  /// a race is set aside; the same lines in a file with no Mutex are kept.
  func testARaceUnderASynchronizationMutexIsSetAside() throws {
    let log = try String(
      contentsOfFile: ReadmeExamplesTests.root.appendingPathComponent(
        "Tests/Reports/ThreadSanitizer/testMutexGuarded.log"
      )
      .path, encoding: .utf8)
    let locked = """
      import Synchronization

      /// Words counted in a dictionary that every task writes, under one lock.
      public final class Tally: Sendable {
        private let locked = Mutex<[String: Int]>([:])
        public var counts: [String: Int] { locked.withLock { $0 } }
        public init() {}
        public func add(_ word: String) { locked.withLock { $0[word, default: 0] += 1 } }
      }
      """
    let unlocked = locked.replacingOccurrences(of: "import Synchronization", with: "import Foundation")
      .replacingOccurrences(of: "locked.withLock { $0[word, default: 0] += 1 }", with: "counts[word, default: 0] += 1")
    func races(_ text: String) -> [DataRace] {
      SanitizedArm.packageRaces(
        in: log, packagePath: package, mutexes: MutexScope(read: { $0.hasSuffix("Tally.swift") ? text : nil }))
    }
    XCTAssertFalse(ThreadSanitizerLog.races(in: log, packagePath: package).isEmpty, "the sanitizer reported it")
    XCTAssertEqual(races(locked), [])
    XCTAssertEqual(races(unlocked).count, 1)
    // Inside a closure that opens lines above; a declaration above ends the search.
    var scope = MutexScope(read: { _ in
      "import Synchronization\nfunc a() {\n  m.withLock { v in\n    v += 1\n  }\n}\nfunc b() {\n  v += 1\n}"
    })
    XCTAssertTrue(scope.contains(SourceLocation(path: "/p/A.swift", line: 4)))
    XCTAssertFalse(scope.contains(SourceLocation(path: "/p/A.swift", line: 8)))
  }

  func testConcurrentPerformRunsOnDispatchAndTheMainThread() throws {
    let races = try races("testConcurrentPerform")
    XCTAssertFalse(races.isEmpty)
    let runners = Set(races.flatMap { $0.accesses.map(\.runner) })
    XCTAssertTrue(runners.isSubset(of: [.dispatch, .mainThread]), "\(runners)")
    XCTAssertTrue(races.allSatisfy(\.involvesUnorderedThread))
    XCTAssertEqual(places(races[0]).first, "Sources/Races/Counter.swift:5")
  }

  func testAThreadIsNamedAsOne() throws {
    let races = try races("testTaskAgainstThread")
    XCTAssertEqual(races.count, 1)
    XCTAssertEqual(Set(races[0].accesses.map(\.runner)), [.thread, .task])
    // The read is in an assertion's autoclosure: no line of its own, its test's name instead.
    let read = try XCTUnwrap(races[0].accesses.first { !$0.isWrite })
    XCTAssertNil(read.place(in: package))
    XCTAssertEqual(read.function(in: package), "DataRaceTests.testTaskAgainstThread()")
  }

  func testFramesAreReadWithAndWithoutLines() {
    let frame = ThreadSanitizerLog.frame(
      "#1 $s10RacesTests08DataRaceB0C21testConcurrentPerformyyFySiXEfU_ /package/Tests/RacesTests/RacesTests.swift:16:68"
        + " (RacesPackageTests.xctest+0x148421)")
    XCTAssertEqual(
      frame,
      DataRace.Frame(
        function: "DataRaceTests.testConcurrentPerform()", path: "/package/Tests/RacesTests/RacesTests.swift", line: 16,
        image: "RacesPackageTests.xctest"))
    let library = ThreadSanitizerLog.frame("#5 _dispatch_apply_invoke crtstuff.c (libdispatch.so+0x234ae)")
    XCTAssertEqual(
      library, DataRace.Frame(function: "_dispatch_apply_invoke", path: nil, line: 0, image: "libdispatch.so"))
    let unlined = ThreadSanitizerLog.frame("#0 $s5Races7CounterC4bumpyyF /package/Sources/Races/Counter.swift (R+0x1)")
    XCTAssertEqual(unlined?.line, 0)
    XCTAssertEqual(unlined?.path, "/package/Sources/Races/Counter.swift")
  }
}
