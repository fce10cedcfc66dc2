/// A failure rate with its interval, as every text report shows it: `24.31% [23.48%, 25.16%]`,
/// and for a run with no failures `none [≤ 0.04%]`, which says both that none were seen and how
/// high the rate could still be.
public enum RateText {
  public static func withInterval(_ rate: Double, _ interval: WilsonInterval) -> String {
    if rate == 0 {
      return "none [≤ \(Formatting.percent(interval.high))]"
    }
    return
      "\(Formatting.percent(rate)) [\(Formatting.percent(interval.low)), \(Formatting.percent(interval.high))]"
  }
}
