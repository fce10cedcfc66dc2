import Foundation
import XCTest

/// `flakelab --generate-completion-script SHELL`, completing in the real shells: bash's
/// completion function called on a command line, fish's `complete -C`, zsh's parser. CI installs
/// zsh and fish and sets FLAKELAB_REQUIRE_SHELLS; elsewhere a missing shell skips its test.
final class CompletionScriptTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flakelab-completion-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// The script for `shell`, written to a file.
  private func script(_ shell: String) throws -> String {
    let result = try Flakelab.run(["--generate-completion-script", shell])
    XCTAssertEqual(result.status, 0, result.stderr)
    let path = directory.appendingPathComponent("flakelab.\(shell)").path
    try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The shell at `path`, or a skip (a failure where CI promised it).
  private func shell(_ path: String) throws -> String {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      if ProcessInfo.processInfo.environment["FLAKELAB_REQUIRE_SHELLS"] == "1" { XCTFail("no \(path)") }
      throw XCTSkip("no \(path) on this machine")
    }
    return path
  }

  private func output(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, String(decoding: data, as: UTF8.self))
    return String(decoding: data, as: UTF8.self)
  }

  /// bash: the words COMPREPLY holds for `words`, the cursor on the last.
  private func bashCompletes(_ words: [String], with script: String) throws -> [String] {
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let command =
      "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _flakelab; printf '%s\\n' \"${COMPREPLY[@]}\""
    return try output(shell("/bin/bash"), ["-c", command]).split(separator: "\n").map(String.init)
  }

  func testBashCompletesCommandsOptionsAndPaths() throws {
    let script = try script("bash")
    XCTAssertEqual(try bashCompletes(["flakelab", "te"], with: script), ["test"])
    XCTAssertEqual(try bashCompletes(["flakelab", "--gen"], with: script), ["--generate-completion-script"])
    XCTAssertEqual(try bashCompletes(["flakelab", "--generate-completion-script", "z"], with: script), ["zsh"])
    XCTAssertEqual(try bashCompletes(["flakelab", "run", "--iter"], with: script), ["--iterations"])
    XCTAssertEqual(
      Set(try bashCompletes(["flakelab", "ci", "--f"], with: script)), ["--filter", "--fail-on-flaky", "--format"])
    // A value that is no path completes nothing; a file's, the files there.
    XCTAssertEqual(try bashCompletes(["flakelab", "run", "--iterations", ""], with: script), [])
    try "".write(to: directory.appendingPathComponent("report.json"), atomically: true, encoding: .utf8)
    XCTAssertEqual(try bashCompletes(["flakelab", "test", "--output", "rep"], with: script), ["report.json"])
  }

  func testFishCompletesCommandsAndOptions() throws {
    let fish = try shell("/usr/bin/fish")
    let script = try script("fish")
    func completions(_ line: String) throws -> [String] {
      try output(fish, ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"]).split(separator: "\n")
        .map { String($0.split(separator: "\t").first ?? "") }
    }
    XCTAssertEqual(try completions("flakelab hist"), ["history"])
    XCTAssertEqual(try completions("flakelab test --fail"), ["--fail-on-flaky"])
    XCTAssertEqual(try completions("flakelab --generate-completion-script b"), ["bash"])
  }

  /// zsh's completion system needs a terminal to drive; its parser reads the script, and every
  /// command and option `--help` lists is in it.
  func testZshReadsTheScriptAndItNamesEveryOption() throws {
    let zsh = try shell("/usr/bin/zsh")
    let script = try script("zsh")
    _ = try output(zsh, ["-n", script])
    let text = try String(contentsOfFile: script, encoding: .utf8)
    XCTAssertTrue(text.hasPrefix("#compdef flakelab\n"))
    for (command, option) in [
      ("test", "--fail-on-flaky"), ("ci", "--quarantine"), ("history", "--window"), ("run", "--iterations"),
    ] {
      XCTAssertTrue(text.contains("\n    '\(command):"), command)
      XCTAssertTrue(text.contains("'\(option)["), option)
    }
    XCTAssertTrue(text.contains("'--output[Also write the JSON report to FILE (atomically).]:FILE:_files'"), text)
  }

  func testAnUnknownShellIsOneLineAndExitTwo() throws {
    let result = try Flakelab.run(["--generate-completion-script", "tcsh"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(
      result.stderr, "flakelab: --generate-completion-script takes one shell, bash, zsh, fish, not 'tcsh'\n")
  }
}
