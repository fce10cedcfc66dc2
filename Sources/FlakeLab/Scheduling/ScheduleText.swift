import Foundation

/// How schedules read in reports: fingerprints in hex, and the command that replays an iteration.
package enum ScheduleText {
  /// `0x00c0ffee12345678`.
  package static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Virtual time as reports show it: `0 s`, `5.000 s`.
  package static func virtualTime(_ duration: Duration) -> String {
    VirtualTime.text(duration)
  }

  package static func parseHex(_ text: String) -> UInt64? {
    text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil
  }

  /// `flakelab replay isLoading.endpointYield --executor seeded --seed 1234 --index 37`; for a
  /// package's test, the `flakelab test` command that runs that one iteration with the run's
  /// seed (the iteration's own seed is derived from it inside the test process). `program` is
  /// the executable that ran the run: `flakelab`, or a lab of one's own.
  package static func replayCommand(
    _ run: RunResult, _ failing: RunSchedule.FailingIteration, program: String
  ) -> String {
    guard let test = run.test, let runSeed = run.schedule?.seed else {
      return
        "\(program) replay \(run.selector) --executor \(run.executor) --seed \(failing.seed) --index \(failing.index)"
    }
    let filter = "^" + NSRegularExpression.escapedPattern(for: test.test.id) + "$"
    // The suite layout is the default; a pass of one test replays as that test alone would. The
    // diagnosis's own layouts replay as the one a user can ask for that runs the iteration so.
    let asked: TestReference.ProcessLayout =
      switch test.layout {
      case .suite, .oneAtATime, .alone: .suite
      case .repetitions, .stressed: .repetitions
      case .fresh, .replay: .fresh
      }
    let layout = asked == .suite ? "" : "--layout \(asked.rawValue) "
    return "\(program) test --package-path \(shellQuoted(test.packagePath)) \(layout)--filter \(shellQuoted(filter)) "
      + "--executor \(run.executor) --seed \(runSeed) --index \(failing.index)"
  }

  /// `text` as one shell word.
  package static func shellQuoted(_ text: String) -> String {
    let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:=,".contains($0) }
    return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
