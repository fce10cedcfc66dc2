/// How schedules read in reports: fingerprints in hex, and the command that replays an iteration.
public enum ScheduleText {
  /// `0x00c0ffee12345678`.
  public static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Virtual time as reports show it: `0 s`, `5.000 s`.
  public static func virtualTime(_ duration: Duration) -> String {
    VirtualTime.text(duration)
  }

  public static func parseHex(_ text: String) -> UInt64? {
    text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil
  }

  /// `flakelab replay isLoading.endpointYield --executor seeded --seed 1234 --index 37`.
  public static func replayCommand(_ run: RunResult, _ failing: RunSchedule.FailingIteration)
    -> String
  {
    "flakelab replay \(run.selector) --executor \(run.executor) --seed \(failing.seed) --index \(failing.index)"
  }
}
