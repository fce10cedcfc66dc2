import Foundation
import XCTest

@testable import FlakeLabCommand

/// Every command, every declared option, spelled wrong the ways people and scripts spell them
/// wrong: each is one line on stderr, nothing on stdout, exit 2, and leaves no file and no
/// process behind, and says what is wrong. The lines are generated from the commands' own declarations, so a new option
/// is covered the day it is declared.
final class MalformedCommandLineTests: XCTestCase {
  /// A value each option accepts, for the cases where the value itself is fine.
  private func goodValue(for option: OptionSpec) -> String {
    switch option.name {
    case "format": "json"
    case "executor": "global"
    case "executors": "global,serial"
    case "shard": "0/2"
    case "timeout", "budget": "1s"
    case "confidence": "0.95"
    case "rate", "max-failure-rate", "min-failure-rate": "1%"
    case "schedule": "0.1"
    default: "1"
    }
  }

  /// Each malformed line with the start of the one line it must give (after `flakelab: `).
  private var malformedLines: [(arguments: [String], message: String)] {
    var lines: [(arguments: [String], message: String)] = []
    for command in LabCommandLine.commands(.standard) where !command.isHidden {
      let name = command.name
      let twoDashes = "options start with exactly two dashes"
      lines += [
        ([name, "--no-such-option"], "unknown option '--no-such-option' for '\(name)'"),
        ([name, "-x"], "unknown option '-x' for '\(name)'; \(twoDashes)"),
        ([name, "---iterations", "3"], "unknown option '---iterations' for '\(name)'; \(twoDashes)"),
        ([name, "--no-such-option=1"], "unknown option '--no-such-option=1' for '\(name)'"),
        ([name, "--\n"], "unknown option '--\\n' for '\(name)'"),
      ]
      for option in command.options {
        if option.valueName == nil {
          lines.append(([name, "--\(option.name)=yes"], "--\(option.name) takes no value"))
          lines.append(([name, "--\(option.name)", "--\(option.name)"], "--\(option.name) is given more than once"))
        } else {
          if !option.valueMayBeLeftOut {
            lines.append(([name, "--\(option.name)"], "--\(option.name) needs a value (\(option.synopsis))"))
          }
          if !option.isRepeatable {
            let value = goodValue(for: option)
            lines.append(
              (
                [name, "--\(option.name)", value, "--\(option.name)=\(value)"],
                "--\(option.name) is given more than once"
              ))
          }
        }
      }
    }
    return lines + [
      (["frobnicate"], "unknown command 'frobnicate'"), (["help", "frobnicate"], "no help on 'frobnicate'"),
      (["-iterations"], "unknown command '-iterations'"), (["--verison"], "unknown command '--verison'"),
    ]
  }

  func testEveryMalformedLineIsOneLineOnStderrAndExitTwo() throws {
    let lines = malformedLines
    XCTAssertGreaterThanOrEqual(lines.count, 150)
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-malformed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for (arguments, message) in lines {
      let result = try Flakelab.run(arguments, directory: directory)
      let shown = arguments.joined(separator: " ")
      XCTAssertEqual(result.status, 2, shown)
      XCTAssertEqual(result.stdout, "", shown)
      XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "\(shown): \(result.stderr)")
      XCTAssertTrue(result.stderr.hasPrefix("flakelab: " + message), "\(shown): \(result.stderr)")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    XCTAssertEqual(OwnProcesses.left("flakelab-worker worker"), [])
  }
}
