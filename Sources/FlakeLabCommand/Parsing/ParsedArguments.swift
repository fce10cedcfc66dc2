package import FlakeLab

/// A command's arguments split into positionals, option values and flags, checked against the
/// options the command declares.
///
/// Accepts `--name value` and `--name=value`; `--` ends the options. An unknown option, a missing
/// value, or a value given to a flag is a ``UsageError``.
package struct ParsedArguments {
  package private(set) var positionals: [String] = []
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []
  /// The names of the options the command declares.
  private let declared: Set<String>

  package init(_ arguments: [String], options: [OptionSpec], command: String) throws(UsageError) {
    declared = Set(options.map(\.name))
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        positionals += remaining
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        positionals.append(argument)
        continue
      }
      // Options are spelled `--name` exactly: `-name` and `---name` are typos, never guesses.
      guard argument.hasPrefix("--"), !argument.hasPrefix("---") else {
        throw UsageError(
          "unknown option '\(ValueParsers.shown(argument))' for '\(command)'; options start with exactly two dashes"
            + " (see '\(Program.name) \(command) --help')")
      }
      let body = argument.dropFirst(2)
      let (name, inlineValue): (String, String?) =
        if let equals = body.firstIndex(of: "=") {
          (String(body[..<equals]), String(body[body.index(after: equals)...]))
        } else {
          (String(body), nil)
        }
      guard let spec = options.first(where: { $0.name == name }) else {
        throw UsageError(
          "unknown option '\(ValueParsers.shown(argument))' for '\(command)'"
            + Suggestion.didYouMean(name, among: options.map(\.name), prefix: "--")
            + " (see '\(Program.name) \(command) --help')")
      }
      guard spec.isRepeatable || (values[name] == nil && !flags.contains(name)) else {
        throw UsageError("--\(name) is given more than once")
      }
      if spec.valueName == nil {
        guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
        flags.insert(name)
      } else if spec.valueMayBeLeftOut, inlineValue == nil, remaining.first.map({ $0.hasPrefix("--") }) ?? true {
        values[name, default: []].append("")
      } else if let value = inlineValue ?? remaining.popFirst() {
        values[name, default: []].append(value)
      } else {
        throw UsageError("--\(name) needs a value (\(spec.synopsis))")
      }
    }
  }

  /// The option's value, or its default when it was not given.
  package subscript<Value>(_ option: Option<Value>) -> Value {
    get throws(UsageError) {
      guard let text = values[option.spec.name]?.last else { return option.defaultValue }
      return try option.parse(text)
    }
  }

  /// Every value of a repeatable option, in the order given.
  package func all<Value>(_ option: Option<Value?>) throws(UsageError) -> [Value] {
    var all: [Value] = []
    for text in values[option.spec.name] ?? [] {
      if let value = try option.parse(text) { all.append(value) }
    }
    return all
  }

  /// The option's text as given, for messages that quote it.
  package func text<Value>(of option: Option<Value>) -> String? { values[option.spec.name]?.last }

  /// Whether the command declares `option`.
  package func declares<Value>(_ option: Option<Value>) -> Bool { declared.contains(option.spec.name) }

  /// The single `scenario.variant` a command such as `replay` takes, with its full selector.
  package func singleVariant(for command: String, in catalog: ScenarioCatalog) throws(UsageError)
    -> (selector: String, variant: Variant)
  {
    guard positionals.count == 1 else {
      throw UsageError("\(command) takes one scenario.variant (see '\(Program.name) \(command) --help')")
    }
    let selector = positionals[0]
    let (scenario, variant) = try UsageError.mapping { () throws(ScenarioCatalog.LookupError) in
      try catalog.variant(selector)
    }
    return ("\(scenario.name).\(variant.name)", variant)
  }

  package subscript(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }
}
