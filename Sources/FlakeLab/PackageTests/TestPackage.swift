import Foundation
import Synchronization

/// A user's SwiftPM package, built for testing: where its test binary is and which tests it has.
///
/// The lab runs the binary SwiftPM builds (`<bin-path>/<Name>PackageTests.xctest`) directly,
/// not `swift test`, because only the binary itself accepts `--repetitions`, and only a binary
/// the lab starts can be handed the preloaded harness. `<Name>` is the manifest's name as it is
/// now: a build folder keeps the binaries of names the package had before, which run old tests.
package struct TestPackage: Sendable {
  /// The directory as given, for messages and replay commands.
  package let path: String
  package let testBinary: String
  /// Where each listed test is declared, where it could be found (``SourceLocation``).
  package private(set) var locations: [PackageTest: SourceLocation] = [:]
  /// Why a test's declared line may be wrong, where the reading of its sources was unsure
  /// (``XCTestDeclaration/doubt``).
  package private(set) var locationDoubts: [PackageTest: String] = [:]
  /// The lines of each XCTest test's body: where a failure recorded while another test ran
  /// probably came from (``FailureOrigin``).
  package private(set) var bodies = TestBodies()
  /// The ID `swift test --filter` matches for each listed test whose framework matches another
  /// than the one it lists: Swift Testing's, with the source location appended.
  package private(set) var filterIDs: [String: String] = [:]
  /// Every Swift Testing test the binary lists: a pass of them all needs no filter.
  package private(set) var swiftTestingTests: Set<String> = []
  /// The version of Swift Testing's event stream the binary writes for the lab, found by
  /// ``listed(preload:)``: ``newestEventStreamVersion`` where its Swift Testing takes it, else `0`.
  package private(set) var eventStreamVersion = Self.newestEventStreamVersion

  /// The event stream version the lab asks for first. From 6.3 on, warnings (`Issue.record(…,
  /// severity: .warning)`) reach the test's own issue handlers; with version 0 Swift Testing
  /// drops them before any handler sees them, and a test that counts its warnings fails under
  /// the lab and passes under `swift test` (swift-property-based's `WarningTests` did).
  package static let newestEventStreamVersion = "6.3"

  /// How long a test binary may take to list its tests.
  static let listingLimit: Duration = .seconds(60)

  /// Throws unless `path` is a directory with a manifest.
  private static func checkIsPackage(_ path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw PackageError.noDirectory(path: path)
    }
    guard FileManager.default.fileExists(atPath: path + "/Package.swift") else {
      throw PackageError.noManifest(path: path)
    }
  }

  /// Builds the package at `path` with its tests (`swift build --build-tests`), showing nothing
  /// unless the build fails (or it waits for another lab's build: `onWait` is told); with
  /// `skippingBuild`, uses what an earlier build left.
  ///
  /// - Throws: ``PackageError`` for a path that is no package, does not build or has no tests,
  ///   ``LabInterrupted`` when Ctrl-C or SIGTERM stops the build.
  package static func build(
    at path: String, skippingBuild: Bool = false, onWait: (String) -> Void = { _ in }
  ) throws -> TestPackage {
    try checkIsPackage(path)
    return try usingSwiftPM(at: path, onWait: onWait) { swift in
      if !skippingBuild {
        let build = try swift(["build", "--build-tests"])
        if build.status != 0 {
          throw PackageError.doesNotBuild(
            path: path, status: build.status,
            compilerLines: Self.compilerErrors(in: build.output + build.errorOutput))
        }
      }
      let binPath =
        try Self.defaultBinPath(of: path)
        ?? swift(["build", "--build-tests", "--show-bin-path"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
      let built = ((try? FileManager.default.contentsOfDirectory(atPath: binPath)) ?? [])
        .filter { $0.hasSuffix("PackageTests.xctest") }.sorted()
      // A build's products hold one package's test binary: then it is the package's, and reading
      // the manifest for its name (a fifth of a second, a CI job's every run) is not needed.
      if skippingBuild, built.count == 1, FileManager.default.isExecutableFile(atPath: "\(binPath)/\(built[0])") {
        return TestPackage(path: path, testBinary: "\(binPath)/\(built[0])")
      }
      let manifest = try swift(["package", "dump-package"])
      guard manifest.status == 0,
        let object = try? JSONSerialization.jsonObject(with: Data(manifest.output.utf8)) as? [String: Any],
        let name = object["name"] as? String
      else {
        throw PackageError.unreadableManifest(path: path, status: manifest.status)
      }
      let binary = "\(binPath)/\(name)PackageTests.xctest"
      guard FileManager.default.isExecutableFile(atPath: binary) else {
        throw PackageError.noTestBinary(
          name: name, path: path, binPath: binPath, others: built, skippedBuild: skippingBuild)
      }
      return TestPackage(path: path, testBinary: binary)
    }
  }

  /// Runs `body` with SwiftPM on the package at `path` as the lab runs it; `swift` runs one
  /// `swift` command there (`--package-path` added), with `environment` (the lab's).
  ///
  /// SwiftPM leaves empty `TemporaryDirectory.*` folders behind: it gets a directory of the
  /// lab's own, removed afterwards. Two builds of one package at once (ten `quarantine add`s, a
  /// lab beside a ci job, a sanitized build beside a plain one) collide in SwiftPM's build
  /// database, and one fails as if the package did not build: the lab's builds of a package take
  /// turns, on a lock of its directory (`onWait` is told when this one waits).
  ///
  /// - Throws: what `body` throws; ``LabInterrupted`` when Ctrl-C or SIGTERM stops a command.
  static func usingSwiftPM<Result>(
    at path: String, environment: [String: String] = ProcessInfo.processInfo.environment,
    onWait: (String) -> Void = { _ in }, _ body: (_ swift: ([String]) throws -> CapturedProcess) throws -> Result
  ) throws -> Result {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-build-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    var environment = environment
    environment["TMPDIR"] = scratch.path
    let lock = try BuildLock(package: path, onWait: onWait)
    defer { lock.release() }
    return try body { arguments in
      do {
        return try CapturedProcess.run("swift", arguments + ["--package-path", path], environment: environment)
      } catch is CapturedProcess.Interrupted {
        throw LabInterrupted(stage: .build)
      }
    }
  }

  /// Where `swift build` put the products in its default place: `.build/debug`, the link
  /// SwiftPM keeps to `.build/<triple>/debug`. Reading the link saves a `swift build
  /// --show-bin-path` (a quarter of a second); nil, when there is none, sends the caller to ask.
  static func defaultBinPath(of path: String) -> String? {
    let link = URL(fileURLWithPath: path).appendingPathComponent(".build/debug")
    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link.path) else { return nil }
    let resolved =
      target.hasPrefix("/")
      ? URL(fileURLWithPath: target) : link.deletingLastPathComponent().appendingPathComponent(target)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory), isDirectory.boolValue
    else { return nil }
    return resolved.standardizedFileURL.path
  }

  /// The compiler's located errors (`File.swift:3:9: error: …`), each once; where there are
  /// none, any line that says `error:`; where there is none either, the last lines. A macro's
  /// expansion repeats fragments of an error without a location, which say nothing alone.
  static func compilerErrors(in output: String) -> [String] {
    let lines = output.split(whereSeparator: \.isNewline).map(String.init)
    var seen = Set<String>()
    let located = lines.filter { $0.firstMatch(of: #/^.+\.swift:\d+:\d+: error: /#) != nil && seen.insert($0).inserted }
    if !located.isEmpty { return Array(located.prefix(12)) }
    let errors = lines.filter { $0.contains("error:") && seen.insert($0).inserted }
    return Array((errors.isEmpty ? lines : errors).suffix(12))
  }

  package init(path: String, testBinary: String) {
    self.path = path
    self.testBinary = testBinary
  }

  /// The exit status of a test binary asked to list a framework's tests when it has none
  /// (`EX_UNAVAILABLE`): Swift Testing's answer in a package with XCTest tests only.
  static let noTestsOfFramework: Int32 = 69

  /// Every test of both frameworks, as the binary lists them, XCTest first, and the package as
  /// its listing describes it: where each test is declared, the lines of XCTest's bodies, the
  /// IDs `--filter` matches (``filterID(of:)``), and the event stream version its Swift Testing
  /// takes. A built package runs nothing until it is listed.
  ///
  /// - Parameter preload: the harness, which then ties each listing process's life to the lab's:
  ///   killed, even by SIGKILL, the lab leaves no lister behind.
  package func listed(preload: String? = nil) throws -> (package: TestPackage, tests: [PackageTest]) {
    var listed = self
    var tests: [PackageTest] = []
    let records = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-listing-\(getpid())-\(UUID().uuidString).jsonl").path
    defer { unlink(records) }
    // The two listings are two processes of the binary: side by side, the listing costs the
    // slower of them, not both.
    let frameworks = PackageTest.Framework.allCases
    let package = self
    let outcomes = Mutex<[PackageTest.Framework: Result<(CapturedProcess, version: String), any Error>]>([:])
    DispatchQueue.concurrentPerform(iterations: frameworks.count) { index in
      let framework = frameworks[index]
      let outcome = Result { try package.listing(framework, records: records, preload: preload) }
      outcomes.withLock { $0[framework] = outcome }
    }
    for framework in frameworks {
      let (listing, version) = try outcomes.withLock { $0[framework]! }.get()
      let found = try Self.tests(of: framework, in: listing, binary: testBinary)
      let ids = found.map(\.id)
      tests += found
      switch framework {
      case .swiftTesting:
        listed.eventStreamVersion = version
        let parsed = ListingRecord.parse(FileManager.default.contents(atPath: records) ?? Data(), tests: ids)
        for test in found { listed.locations[test] = parsed[test.id]?.location }
        listed.filterIDs.merge(parsed.mapValues(\.filterID)) { $1 }
        listed.swiftTestingTests = Set(ids)
      case .xctest:
        let declarations = XCTestDeclaration.find(ids, under: path + "/Tests")
        for test in found {
          listed.locations[test] = declarations[test.id]?.location
          listed.locationDoubts[test] = declarations[test.id]?.doubt
        }
        listed.bodies = TestBodies(declarations, listed: ids)
      }
    }
    return (listed, tests)
  }

  /// The listing of `framework`'s tests, and the event stream version it was asked with: Swift
  /// Testing's records go to `records`, asked with the newest version first.
  private func listing(
    _ framework: PackageTest.Framework, records: String, preload: String?
  ) throws -> (CapturedProcess, version: String) {
    guard framework == .swiftTesting else {
      return (try list(framework, eventStreamVersion: nil, to: nil, preload: preload), eventStreamVersion)
    }
    let listing = try list(framework, eventStreamVersion: eventStreamVersion, to: records, preload: preload)
    guard ![0, Self.noTestsOfFramework].contains(listing.status) else { return (listing, eventStreamVersion) }
    // An older Swift Testing refuses a version it does not know: version 0 it knows.
    return (try list(framework, eventStreamVersion: "0", to: records, preload: preload), "0")
  }

  /// The ID `swift test --filter REGEX` matches REGEX against: Swift Testing's full ID (with the
  /// source file, line and column), XCTest's `Module.Class/testName`.
  package func filterID(of test: PackageTest) -> String {
    filterIDs[test.id] ?? test.id
  }

  /// The binary's `--list-tests` for `framework`, asked with `eventStreamVersion` when given,
  /// the stream's records written to `records`.
  private func list(
    _ framework: PackageTest.Framework, eventStreamVersion: String?, to records: String?, preload: String?
  ) throws -> CapturedProcess {
    let version =
      eventStreamVersion.map {
        ["--event-stream-output-path", records ?? "/dev/null", "--event-stream-version", $0]
      } ?? []
    do {
      return try CapturedProcess.run(
        testBinary, ["--testing-library", framework.rawValue, "--list-tests"] + version,
        environment: preload.map { TestLaunch.environment(nil, preload: $0) }, timeLimit: Self.listingLimit)
    } catch is CapturedProcess.Interrupted {
      throw LabInterrupted(stage: .listing)
    } catch let timedOut as CapturedProcess.TimedOut {
      throw PackageError.listingTimedOut(binary: testBinary, framework: framework, limit: timedOut.limit)
    }
  }

  private static func tests(
    of framework: PackageTest.Framework, in listing: CapturedProcess, binary testBinary: String
  ) throws -> [PackageTest] {
    if listing.status == Self.noTestsOfFramework { return [] }
    guard listing.status == 0 else {
      throw PackageError.notATestBinary(binary: testBinary, listingStatus: listing.status)
    }
    return testIDs(inListing: listing.output).map { PackageTest(id: $0, framework: framework) }
  }

  /// The IDs a `--list-tests` printed: every line but XCTest's header (`Listing 3 tests in …`)
  /// and blank ones. Swift Testing's tests at file scope have no `/` (`Module.test()`).
  static func testIDs(inListing output: String) -> [String] {
    // Read as bytes: an ID is ASCII around its names, and thousands of lines read as Characters
    // cost a listing milliseconds.
    let listing = Array("Listing ".utf8)
    let lines = output.utf8.split { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    return lines.compactMap { line in
      guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
        !line.starts(with: listing)
      else { return nil }
      return String(decoding: line, as: UTF8.self)
    }
  }
}
