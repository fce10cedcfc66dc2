/// The live line a long run shows on a terminal:
/// `isLoading.naive (global)  4,200/10,000  12 not passed (0.29%)  ETA 3s`.
package enum ProgressLine {
  package static func render(_ progress: Supervisor.Progress) -> String {
    let rate = progress.done > 0 ? Double(progress.notPassed) / Double(progress.done) : 0
    var line =
      "\(progress.label)  \(Formatting.count(progress.done))/\(Formatting.count(progress.total))"
      + "  \(Formatting.count(progress.notPassed)) not passed (\(Formatting.percent(rate)))"
    if progress.done > 0, progress.done < progress.total {
      let remaining =
        progress.elapsed.seconds * Double(progress.total - progress.done)
        / Double(progress.done)
      line += "  ETA \(eta(remaining))"
    }
    if let slowest = progress.slowest, slowest.duration >= .seconds(1) {
      line += "  slowest: \(slowest.test) \(Formatting.duration(slowest.duration)) (\(slowest.executor))"
    }
    return line
  }

  private static func eta(_ seconds: Double) -> String {
    switch seconds {
    case ..<60: "\(Int(seconds.rounded(.up)))s"
    case ..<3600: "\(Int(seconds / 60))m\(Int(seconds) % 60)s"
    default: "\(Int(seconds / 3600))h\(Int(seconds / 60) % 60)m"
    }
  }
}
