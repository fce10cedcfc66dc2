import Foundation
import XCTest

@testable import FlakeLab

/// A suite of any size and any name length reaches its test process: Linux limits each string
/// of a process's environment and arguments to 128 KiB, which swift-atomics' 1,972 test IDs
/// (158 KB) passed when they went through one environment variable.
final class LargeSuiteTests: XCTestCase {
  /// 5,000 IDs of 200 characters: a megabyte.
  private let ids = (0..<5_000).map { "Module.Suite\($0 % 40)/test_" + String(repeating: "x", count: 170) + "_\($0)" }

  func testNoStringTheWorkerGetsOutgrowsTheKernelsLimit() throws {
    let tests = ids.map { PackageTest(id: $0, framework: .xctest) }
    let configuration = HarnessConfiguration(mechanism: .mainQueueRedirect, tests: tests)
    let environment = TestLaunch.environment(configuration, preload: "/lib/libFlakeLabPreload.so")
    XCTAssertLessThan(environment.map { $0.key.utf8.count + $0.value.utf8.count + 1 }.max() ?? 0, 128 * 1024)
    let swiftTesting = ids.map { PackageTest(id: $0, framework: .swiftTesting) }
    for arguments in [
      TestLaunch.arguments(swiftTesting, repetitions: 1, inParallel: true, channel: 200, eventStreamVersion: "6.3"),
      TestLaunch.arguments(
        Array(swiftTesting.prefix(2_000)), of: Set(ids), repetitions: 1, inParallel: true, channel: 200,
        eventStreamVersion: "6.3"),
    ] {
      XCTAssertLessThan(arguments.map(\.utf8.count).max() ?? 0, 128 * 1024)
    }
  }

  /// The split patterns choose exactly the tests chosen: every `--filter` alternative one of them,
  /// every `--skip` one of the rest.
  func testASplitSelectionChoosesTheSameTests() throws {
    let all = Set(ids)
    for chosen in [Array(ids.prefix(4_000)), Array(ids.prefix(1_000)), ids] {
      let options = TestLaunch.selection(chosen.map { PackageTest(id: $0, framework: .swiftTesting) }, of: all)
      let pairs = stride(from: 0, to: options.count, by: 2).map { (options[$0], options[$0 + 1]) }
      XCTAssertEqual(Set(pairs.map(\.0)).count, pairs.isEmpty ? 0 : 1, "one kind of option")
      XCTAssertGreaterThan(pairs.count, chosen.count == ids.count ? -1 : 1)
      let patterns = try pairs.map { try NSRegularExpression(pattern: $0.1) }
      func matched(_ id: String) -> Bool {
        patterns.contains { $0.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil }
      }
      let runs = Set(ids.filter { id in pairs.first?.0 == "--skip" ? !matched(id) : (pairs.isEmpty || matched(id)) })
      XCTAssertTrue(runs == Set(chosen), "\(runs.count) run, \(chosen.count) chosen")
    }
  }

  /// The list goes through a descriptor the process inherits and reads whole.
  func testAProcessReadsAMegabyteListFromTheDescriptorItInherits() throws {
    let configuration = HarnessConfiguration(
      mechanism: .untouched, tests: ids.map { PackageTest(id: $0, framework: .xctest) })
    let output = try PipeEnds()
    let spawned = try ProcessSpawner.spawn(
      executable: "/bin/bash", arguments: ["-c", "cat <&\(configuration.testList)"], environment: [:],
      channel: output.writeEnd, as: 1, inherited: [try configuration.testListFile()])
    close(output.writeEnd)
    defer { close(spawned.output) }
    var read: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = Foundation.read(output.readEnd, &chunk, chunk.count)
      if count <= 0 { break }
      read += chunk[..<count]
    }
    close(output.readEnd)
    var status: Int32 = 0
    XCTAssertEqual(waitpid(spawned.pid, &status, 0), spawned.pid)
    let environment = configuration.environment
    let back = try XCTUnwrap(HarnessConfiguration(environment: environment) { _ in read })
    XCTAssertTrue(back.testIDs == ids, "the list read back is the list written")
    XCTAssertTrue(back == configuration)
  }
}
