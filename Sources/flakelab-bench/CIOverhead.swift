import FlakeLab
import Foundation

/// What `flakelab ci` costs over a plain `swift test --skip-build` when nothing fails: the whole
/// command each way (the lab's listing, its one pass, its report; SwiftPM's own plumbing), on
/// the tests of `packagePath` that pass, alternating rounds, and again recording each run in a
/// history (`--record`: git asked for the checkout, one SQLite transaction); returns the median
/// ratio of the two, the larger.
func ciOverheadFigure(packagePath: String, flakelab: String, skip: String) throws -> Double {
  let rounds = 5
  func seconds(_ executable: String, _ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: packagePath)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = clock.now
    try process.run()
    process.waitUntilExit()
    return start.duration(to: clock.now).seconds
  }
  let history = FileManager.default.temporaryDirectory.appendingPathComponent("bench-history-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: history) }
  var lab: [Double] = []
  var recorded: [Double] = []
  var plain: [Double] = []
  var ratios: [Double] = []
  var recordedRatios: [Double] = []
  for _ in 0..<rounds {
    let ci = try seconds(flakelab, ["ci", "--skip-build", "--no-progress", "--skip", skip])
    let record = try seconds(
      flakelab,
      [
        "ci", "--skip-build", "--no-progress", "--skip", skip, "--record",
        history.appendingPathComponent("h.sqlite").path,
      ])
    let swiftTest = try seconds("/usr/bin/env", ["swift", "test", "--skip-build", "--skip", skip])
    lab.append(ci)
    recorded.append(record)
    plain.append(swiftTest)
    ratios.append(ci / swiftTest)
    recordedRatios.append(record / swiftTest)
  }
  print("")
  print(
    "flakelab ci against swift test --skip-build: \(packagePath), tests not matching '\(skip)', median of \(rounds) alternating rounds"
  )
  print(
    String(
      format: "  flakelab ci %.2f s, swift test %.2f s: %.2f× (target ≤ 1.10×); with --record %.2f s: %.2f×",
      median(lab),
      median(plain), median(ratios), median(recorded), median(recordedRatios)))
  return max(median(ratios), median(recordedRatios))
}
