import FlakeLab
import Foundation

/// What the thread sanitizer's arm costs beside the plain arm: the Races fixture's tests built
/// plainly and sanitized (a first sanitized build in a cache of the bench's own, then the build
/// SwiftPM reuses while the sources are the same), and a process of one test (the counter two
/// tasks bump), plain and sanitized, in alternating rounds: medians with their spread.
func sanitizerCostFigures() throws {
  let package = "Tests/Fixtures/Races"
  let test = "RacesTests.DataRaceTests/testCounterFromTasks"
  let clock = ContinuousClock()
  func timed(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = clock.now
    try process.run()
    process.waitUntilExit()
    return (clock.now - start).seconds
  }
  print("")
  let plainBuild = try timed("/usr/bin/env", ["swift", "build", "--build-tests", "--package-path", package])
  let cache = FileManager.default.temporaryDirectory.appendingPathComponent("bench-sanitized-\(getpid())").path
  defer { try? FileManager.default.removeItem(atPath: cache) }
  let listed = TestPackage(path: package, testBinary: "\(package)/.build/debug/RacesPackageTests.xctest")
  let environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cache]) { $1 }
  let build: SanitizedBuild
  do {
    build = try SanitizedBuild.build(listed, environment: environment)
  } catch let unavailable as SanitizedBuild.Unavailable {
    print("Thread sanitizer's arm: \(unavailable.reason); no figure")
    return
  }
  let reused = try SanitizedBuild.build(listed, environment: environment).took
  let logs = FileManager.default.temporaryDirectory.appendingPathComponent("bench-races-\(getpid())").path
  try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: logs) }
  var plain: [Double] = []
  var sanitized: [Double] = []
  for _ in 0..<7 {
    plain.append(try timed(listed.testBinary, [test]))
    sanitized.append(
      try timed(build.binary, [test], environment: ["TSAN_OPTIONS": "exitcode=0:log_path=\(logs)/race"]))
  }
  func figure(_ values: [Double]) -> String {
    String(format: "%.0f ms [%.0f–%.0f]", median(values) * 1000, values.min()! * 1000, values.max()! * 1000)
  }
  print("Thread sanitizer's arm: \(package), median [min–max] of 7 alternating rounds")
  print(
    String(
      format: "  builds: plain %.1f s (incremental), sanitized %.1f s the first time, %.1f s reused",
      plainBuild, build.took.seconds, reused.seconds))
  print(
    "  a process of \(test): plain \(figure(plain)), sanitized \(figure(sanitized)), "
      + String(
        format: "%.1f× (an arm's 5 processes a test: about %.1f s)", median(sanitized) / median(plain),
        5 * median(sanitized)))
}
