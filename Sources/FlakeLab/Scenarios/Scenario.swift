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

  /// A scenario, as a ``ScenarioCatalog`` lists it.
  ///
  /// - Parameters:
  ///   - name: the name on the command line; a selector is `name` or `name.variant`.
  ///   - summary: one line saying what the test checks.
  ///   - source: where the model and the test come from.
  ///   - isDiagnostic: whether it exercises the lab rather than teaching something (hidden
  ///     from `list` unless `--all`).
  ///   - variants: the ways the test is written.
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

  /// The variant called `name`.
  ///
  /// - Parameter name: a variant's name, without the scenario's.
  /// - Returns: the variant, or nil when the scenario has none of that name.
  public func variant(named name: String) -> Variant? {
    variants.first { $0.name == name }
  }
}
