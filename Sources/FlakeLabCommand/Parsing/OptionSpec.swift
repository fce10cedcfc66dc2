/// How an option is spelled, whether it takes a value, and its help line: the part of an
/// ``Option`` or ``Flag`` declaration that parsing and `--help` read.
package struct OptionSpec: Sendable {
  package let name: String
  /// The placeholder shown in help (`N`, `R`, `FILE`), or nil for a flag that takes no value.
  package let valueName: String?
  package let help: String
  /// Whether the option may be given more than once (`--filter A --filter B`); any other
  /// option given twice is an error, never a silent choice of one value.
  package var isRepeatable = false
  /// Whether the value may be left out (`--record` alone, or before another option), which
  /// then parses as the empty text: the option's default place.
  package var valueMayBeLeftOut = false

  /// `--iterations N`, as shown in help and usage lines (`--filter REGEX...` when repeatable,
  /// `--record [DB]` when the value may be left out).
  package var synopsis: String {
    (valueName.map { valueMayBeLeftOut ? "--\(name) [\($0)]" : "--\(name) \($0)" } ?? "--\(name)")
      + (isRepeatable ? "..." : "")
  }
}
