/// `flakelab --generate-completion-script SHELL`: a completion script for bash, zsh or fish,
/// written from the same command table and option declarations that parsing and `--help` read,
/// so a new option completes as soon as it parses. `make install` installs all three.
///
/// Commands complete at the first word, each command's options after it; an option whose value
/// is a path (`FILE`, `DIR`, `DB`) completes file names, any other value nothing.
enum CompletionScript {
  enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  /// The top-level flag that asks for a script.
  static let flag = "--generate-completion-script"

  static func script(for shell: Shell, program: String, commands: [CommandEntry]) -> String {
    let visible = commands.filter { !$0.isHidden }
    switch shell {
    case .bash: return bash(program: program, commands: visible)
    case .zsh: return zsh(program: program, commands: visible)
    case .fish: return fish(program: program, commands: visible)
    }
  }

  /// The shell function's name: `_flakelab`, `_own_lab` for a lab of one's own.
  private static func function(_ program: String) -> String {
    "_" + String(program.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }

  /// A command's options and its subcommands' (each once), `--help` last, as parsing knows them.
  private static func options(_ command: CommandEntry) -> [OptionSpec] {
    var seen = Set<String>()
    return (command.options + command.subcommands.flatMap(\.options) + [Flag("help", "Show this help.").spec])
      .filter { seen.insert($0.name).inserted }
  }

  /// Whether the option's value names a file or a directory.
  private static func takesPath(_ option: OptionSpec) -> Bool {
    ["FILE", "DIR", "DB"].contains(option.valueName ?? "")
  }

  /// A help line's first sentence, without the characters the shells' quoting gives meaning to.
  private static func description(_ help: String) -> String {
    let sentence = help.split(separator: ". ", maxSplits: 1).first.map(String.init) ?? help
    let plain = sentence.filter { !"[]:'\"\\`$".contains($0) }
    return plain.count > 70 ? String(plain.prefix(69)) + "…" : plain
  }

  private static func bash(program: String, commands: [CommandEntry]) -> String {
    let cases = commands.map { command in
      let all = options(command)
      let words = (command.subcommands.map(\.name) + all.map { "--" + $0.name }).joined(separator: " ")
      let paths = all.filter(takesPath).map { "--" + $0.name }.joined(separator: " ")
      let values = all.filter { $0.valueName != nil && !takesPath($0) }.map { "--" + $0.name }.joined(separator: " ")
      return "    \(command.name)) options=\"\(words)\"; paths=\"\(paths)\"; values=\"\(values)\" ;;"
    }
    return """
      # bash completion for \(program), written by `\(program) \(flag) bash`.
      \(function(program))() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        if (( COMP_CWORD == 1 )); then
          COMPREPLY=( $(compgen -W "\(commands.map(\.name).joined(separator: " ")) --help --version \(flag)" -- "$cur") )
          return
        fi
        if (( COMP_CWORD == 2 )) && [[ $prev == \(flag) ]]; then
          COMPREPLY=( $(compgen -W "\(Shell.allCases.map(\.rawValue).joined(separator: " "))" -- "$cur") )
          return
        fi
        local options="" paths="" values=""
        case ${COMP_WORDS[1]} in
      \(cases.joined(separator: "\n"))
        esac
        if [[ " $paths " == *" $prev "* ]]; then
          COMPREPLY=( $(compgen -f -- "$cur") )
        elif [[ " $values " == *" $prev "* ]]; then
          COMPREPLY=()
        else
          COMPREPLY=( $(compgen -W "$options" -- "$cur") )
        fi
      }
      complete -o filenames -F \(function(program)) \(program)

      """
  }

  private static func zsh(program: String, commands: [CommandEntry]) -> String {
    let names = commands.map { "    '\($0.name):\(description($0.abstract))'" }
    let cases = commands.map { command in
      let specs = options(command).map { option in
        let value = option.valueName.map { ":\($0):" + (takesPath(option) ? "_files" : "") } ?? ""
        return "        '\(option.isRepeatable ? "*" : "")--\(option.name)[\(description(option.help))]\(value)'"
      }
      let subcommands =
        command.subcommands.isEmpty
        ? [] : ["        '1::subcommand:(\(command.subcommands.map(\.name).joined(separator: " ")))'"]
      return "    \(command.name))\n      _arguments \\\n" + (subcommands + specs).joined(separator: " \\\n")
        + "\n      ;;"
    }
    return """
      #compdef \(program)
      # zsh completion for \(program), written by `\(program) \(flag) zsh`.
      \(function(program))() {
        local -a commands
        commands=(
      \(names.joined(separator: "\n"))
        )
        if (( CURRENT == 2 )); then
          _describe -t commands '\(program) command' commands
          compadd -- --help --version \(flag)
          return
        fi
        if [[ $words[2] == \(flag) ]]; then
          compadd -- \(Shell.allCases.map(\.rawValue).joined(separator: " "))
          return
        fi
        local command=$words[2]
        shift words
        (( CURRENT-- ))
        case $command in
      \(cases.joined(separator: "\n"))
        esac
      }
      \(function(program)) "$@"

      """
  }

  private static func fish(program: String, commands: [CommandEntry]) -> String {
    var lines = [
      "# fish completion for \(program), written by `\(program) \(flag) fish`.",
      "complete -c \(program) -f",
      "complete -c \(program) -n __fish_use_subcommand -l help -d 'Show the commands'",
      "complete -c \(program) -n __fish_use_subcommand -l version -d 'Show the version'",
      "complete -c \(program) -n __fish_use_subcommand -l \(flag.dropFirst(2)) -x -a '"
        + Shell.allCases.map(\.rawValue).joined(separator: " ") + "' -d 'Write a completion script'",
    ]
    for command in commands {
      lines.append(
        "complete -c \(program) -n __fish_use_subcommand -a \(command.name) -d '\(description(command.abstract))'")
      for subcommand in command.subcommands {
        lines.append(
          "complete -c \(program) -n '__fish_seen_subcommand_from \(command.name)' -a \(subcommand.name)"
            + " -d '\(description(subcommand.abstract))'")
      }
      for option in options(command) {
        let value = option.valueName == nil ? "" : takesPath(option) ? " -r -F" : " -x"
        lines.append(
          "complete -c \(program) -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name)\(value)"
            + " -d '\(description(option.help))'")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
