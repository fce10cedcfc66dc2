package import FlakeLab

/// A subcommand of `flakelab` (or of a lab of one's own): its name, help, declared options, and
/// what it does. Its metatype is sendable: the command table's closures capture it.
package protocol Command: SendableMetatype {
  static var name: String { get }
  /// One line for the command list.
  static var abstract: String { get }
  /// The synopsis after the program's name, e.g. `run <selector>... [options]`.
  static var usage: String { get }
  /// Paragraphs shown by `--help` after the usage line.
  static var discussion: String { get }
  static var options: [OptionSpec] { get }
  /// Set for commands the lab runs itself and `flakelab --help` does not list.
  static var isHidden: Bool { get }
  /// The commands under this one (`history import`), chosen by the word after its name.
  static func subcommands(_ catalog: ScenarioCatalog) -> [CommandEntry]

  /// The command `arguments` ask for, with names looked up in `catalog`.
  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError)

  /// Whether this process must run on the deterministic scheduler, which is installed before
  /// the first task exists.
  var needsDeterministicScheduler: Bool { get }

  /// Whether the command starts as an async `main` starts its task, its first part on the main
  /// thread at once: where it runs iterations on the runtime's own executor, whose failure rates
  /// depend on how the process was entered (GlobalRates.md, "A faithful worker").
  var startsAsAnAsyncMain: Bool { get }

  @MainActor
  func run() async throws -> ExitStatus
}

extension Command {
  package static var isHidden: Bool { false }

  package static func subcommands(_ catalog: ScenarioCatalog) -> [CommandEntry] { [] }

  package var needsDeterministicScheduler: Bool { false }

  package var startsAsAnAsyncMain: Bool { false }

  /// The command as an entry of the command table of a lab with `catalog`.
  package static func entry(_ catalog: ScenarioCatalog) -> CommandEntry {
    CommandEntry(
      name: name, abstract: abstract, isHidden: isHidden, helpText: { helpText }, options: { options },
      subcommands: { subcommands(catalog) },
      make: { arguments throws(UsageError) in try Self(arguments, catalog: catalog) })
  }

  /// The `--help` text, laid out as swift-argument-parser does.
  static var helpText: String {
    let usageLines = wrap("\(Program.name) \(usage)", width: helpColumns - 7)
    var lines =
      ["OVERVIEW: \(abstract)", "", "USAGE: " + usageLines[0]]
      + usageLines.dropFirst().map { "         " + $0 }
    if !discussion.isEmpty { lines += ["", discussion] }
    let all = options + [Flag("help", "Show this help.").spec]
    let width = all.map(\.synopsis.count).max() ?? 0
    lines += ["", "OPTIONS:"]
    for option in all {
      let padding = String(repeating: " ", count: width - option.synopsis.count)
      let wrapped = wrap(option.help, width: max(30, helpColumns - width - 4))
      lines.append("  \(option.synopsis)\(padding)  \(wrapped[0])")
      lines += wrapped.dropFirst().map { String(repeating: " ", count: width + 4) + $0 }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Help lines stay within this many columns.
  static var helpColumns: Int { 100 }

  /// `text` in lines of at most `width` characters, broken between words.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    return lines + [line]
  }
}

/// A command as the entry point sees it: names and help to show, and how to build it.
///
/// A table of these, rather than of `any Command.Type`: Swift 6.3 crashes compiling a typed-throws
/// initializer called through an existential metatype. Help, options and subcommands are made
/// when asked for: every process the lab starts builds the table, and laying out every
/// command's help was a tenth of a worker's start.
package struct CommandEntry: Sendable {
  package let name: String
  package let abstract: String
  package let isHidden: Bool
  private let makeHelpText: @Sendable () -> String
  private let makeOptions: @Sendable () -> [OptionSpec]
  private let makeSubcommands: @Sendable () -> [CommandEntry]
  package let make: @Sendable (ParsedArguments) throws(UsageError) -> any Command

  package init(
    name: String, abstract: String, isHidden: Bool, helpText: @escaping @Sendable () -> String,
    options: @escaping @Sendable () -> [OptionSpec], subcommands: @escaping @Sendable () -> [CommandEntry],
    make: @escaping @Sendable (ParsedArguments) throws(UsageError) -> any Command
  ) {
    (self.name, self.abstract, self.isHidden) = (name, abstract, isHidden)
    (makeHelpText, makeOptions, makeSubcommands, self.make) = (helpText, options, subcommands, make)
  }

  package var helpText: String { makeHelpText() }
  package var options: [OptionSpec] { makeOptions() }
  package var subcommands: [CommandEntry] { makeSubcommands() }
}
