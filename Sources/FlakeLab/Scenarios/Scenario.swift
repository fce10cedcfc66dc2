/// A classic async test, written the ways people write it, to be run thousands of times.
///
/// A scenario is the feature model under test and its test; each ``Variant`` is one way the test
/// is written (naive, with a yield, with the fix its source recommends). The engine runs variants
/// by name and never looks inside them.
///
/// ```swift
/// let isLoading = Scenario(
///   name: "isLoading",
///   summary: "isLoading is true while a fact loads",
///   source: "swift-concurrency-extras README",
///   variants: [Variant(name: "naive", summary: "asserts right after spawning") { _ in … }]
/// )
/// ```
public struct Scenario: Sendable {
  /// The name used on the command line, e.g. `isLoading`.
  public let name: String
  /// One line saying what the test checks.
  public let summary: String
  /// Where the model and test come from, so a reader can compare.
  public let source: String
  /// The ways the test is written, in the order `list` shows them.
  public let variants: [Variant]
  /// A scenario that exercises the lab itself rather than teaching something; `list` hides it
  /// unless asked with `--all`.
  public let isDiagnostic: Bool

  public init(
    name: String, summary: String, source: String, isDiagnostic: Bool = false,
    variants: [Variant]
  ) {
    self.name = name
    self.summary = summary
    self.source = source
    self.isDiagnostic = isDiagnostic
    self.variants = variants
  }

  /// The variant called `name`, if there is one.
  public func variant(named name: String) -> Variant? {
    variants.first { $0.name == name }
  }
}
