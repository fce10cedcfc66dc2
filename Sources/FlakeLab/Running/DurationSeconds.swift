extension Duration {
  /// The duration in seconds, as a floating-point number for reports and benchmarks.
  package var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}
