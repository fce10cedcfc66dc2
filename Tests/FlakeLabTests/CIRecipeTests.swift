import Foundation
import XCTest

@testable import FlakeLab

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// FlakeLab where teams run CI. Every YAML the README, the guide and the GitHub Action
/// show parses with a strict parser and names the keys its system requires; the action's steps
/// run here as a job would run them, against a copy of the CIJob fixture, with a fake `GITHUB_*`
/// environment, and leave the job summary, the annotations, the JUnit and the history a real run
/// would.
final class CIRecipeTests: XCTestCase {
  static let root = ReadmeExamplesTests.root
  static let action = root.appendingPathComponent(".github/actions/flakelab")

  /// What YAML parsers refuse, and GitHub with them: the README's old matrix in a flow mapping
  /// first.
  func testTheParserRefusesWhatACISystemRefuses() {
    let refused = [
      "with: { name: ci-${{ matrix.os }}, path: ci-${{ matrix.os }}.json }",
      "a: 1\na: 2",
      "run: echo a: b",
      "key: 'unclosed",
      "jobs:\n\ttest: 1",
      "a:\n  b: 1\n c: 2",
      "on: [push, pull_request",
      "x: *alias",
    ]
    for text in refused {
      XCTAssertThrowsError(try YAML.parse(text), text)
    }
    let parsed = try? YAML.parse(
      """
      on:
        push:
          branches: [main]
      jobs:
        test:
          runs-on: ubuntu-24.04   # a comment
          steps:
            - uses: actions/checkout@v4
            - run: |
                echo "${{ matrix.os }}: #1"
                make
            - with:
                path: ci-${{ matrix.os }}.json
                note: "quoted: fine"
      """)
    XCTAssertEqual(parsed?["on"]?["push"]?["branches"], .sequence([.scalar("main")]))
    XCTAssertEqual(parsed?["jobs"]?["test"]?["runs-on"]?.string, "ubuntu-24.04")
    let steps = parsed?["jobs"]?["test"]?["steps"]?.items ?? []
    XCTAssertEqual(steps.count, 3)
    XCTAssertEqual(steps[safe: 1]?["run"]?.string, "echo \"${{ matrix.os }}: #1\"\nmake\n")
    XCTAssertEqual(steps[safe: 2]?["with"]?["path"]?.string, "ci-${{ matrix.os }}.json")
  }

  /// Each ```yaml block of the README and the guide, with the document it is in.
  private func documentedYAML() throws -> [(where: String, text: String)] {
    try ReadmeExamplesTests.documents().flatMap { document in
      var blocks: [(String, String)] = []
      var current: [String]?
      for line in document.text.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line == "```yaml" {
          current = []
        } else if current != nil, line == "```" {
          blocks.append((document.path, current!.joined(separator: "\n")))
          current = nil
        } else {
          current?.append(String(line))
        }
      }
      return blocks
    }
  }

  func testEveryWorkflowParsesAndNamesTheKeysItsSystemRequires() throws {
    let blocks = try documentedYAML()
    var systems: Set<String> = []
    for (place, text) in blocks {
      let document: YAML
      do { document = try YAML.parse(text) } catch {
        XCTFail("\(place): \(error)\n\(text)")
        continue
      }
      if let jobs = document["jobs"] {
        systems.insert("github")
        assertGitHubWorkflow(document, jobs: jobs, place: place)
      } else if document.keys.contains(where: { document[$0]?["script"] != nil }) {
        systems.insert("gitlab")
        for key in document.keys
        where !key.hasPrefix(".") && !["stages", "variables", "default", "include", "workflow"].contains(key) {
          let job = document[key]
          XCTAssertNotNil(job?["script"]?.items, "\(place): GitLab job \(key) has a script")
          XCTAssertNotNil(job?["image"]?.string, "\(place): GitLab job \(key) names its image")
          XCTAssertNotNil(job?["artifacts"]?["reports"]?["junit"]?.string, "\(place): GitLab job \(key) reports JUnit")
        }
      } else {
        XCTFail("\(place): a YAML block of no known CI system:\n\(text)")
      }
    }
    XCTAssertEqual(systems, ["github", "gitlab"])
    // The Jenkinsfile: its junit step reads the file the ci step writes.
    let recipes = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/FlakeLab/FlakeLab.docc/CIRecipes.md"), encoding: .utf8)
    let start = try XCTUnwrap(recipes.range(of: "```groovy\n"))
    let jenkinsfile = recipes[start.upperBound...].components(separatedBy: "\n```")[0]
    XCTAssertTrue(
      jenkinsfile.contains("flakelab ci --format junit --output flakelab-ci.json > flakelab-ci.xml"), jenkinsfile)
    XCTAssertTrue(jenkinsfile.contains("junit 'flakelab-ci.xml'"), jenkinsfile)
    XCTAssertEqual(jenkinsfile.filter { $0 == "{" }.count, jenkinsfile.filter { $0 == "}" }.count)
  }

  private func assertGitHubWorkflow(_ document: YAML, jobs: YAML, place: String) {
    XCTAssertNotNil(document["name"]?.string, "\(place): a workflow has a name")
    XCTAssertNotNil(document["on"], "\(place): a workflow says when it runs (on:)")
    XCTAssertFalse(jobs.keys.isEmpty, place)
    for name in jobs.keys {
      let job = jobs[name]
      XCTAssertNotNil(job?["runs-on"]?.string, "\(place): job \(name) has runs-on")
      XCTAssertNotNil(job?["container"]?.string, "\(place): job \(name) sets up Swift (container: swift:6.3)")
      if let needs = job?["needs"]?.string {
        XCTAssertTrue(jobs.keys.contains(needs), "\(place): \(name) needs \(needs)")
      }
      let steps = job?["steps"]?.items ?? []
      XCTAssertFalse(steps.isEmpty, "\(place): job \(name) has steps")
      for step in steps {
        XCTAssertTrue(
          (step["uses"] == nil) != (step["run"] == nil), "\(place): a step of \(name) either uses or runs: \(step)")
      }
    }
  }

  /// The action's own file: a composite action whose inputs, step IDs and scripts all exist.
  func testTheActionIsAValidCompositeAction() throws {
    let text = try String(contentsOf: Self.action.appendingPathComponent("action.yml"), encoding: .utf8)
    let action = try YAML.parse(text)
    XCTAssertNotNil(action["name"]?.string)
    XCTAssertNotNil(action["description"]?.string)
    XCTAssertEqual(action["runs"]?["using"]?.string, "composite")
    let inputs = Set(action["inputs"]?.keys ?? [])
    XCTAssertEqual(
      inputs,
      [
        "package-path", "retries", "fail-on-flaky", "quarantine", "history", "formats", "output-directory", "arguments",
        "flakelab",
      ])
    for input in inputs { XCTAssertNotNil(action["inputs"]?[input]?["description"]?.string, input) }
    var ids: [String] = []
    for step in action["runs"]?["steps"]?.items ?? [] {
      XCTAssertNotNil(step["name"]?.string)
      if step["run"] != nil {
        XCTAssertEqual(step["shell"]?.string, "bash", "\(step)")
        for script in (step["run"]?.string ?? "").matches(of: /\$ACTION_PATH\/([a-z]+\.sh)/).map({ String($0.1) }) {
          XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: Self.action.appendingPathComponent(script).path), script)
        }
      } else {
        XCTAssertNotNil(step["uses"]?.string, "\(step)")
      }
      // Each expression names a declared input or an earlier step.
      for expression in "\(step)".matches(of: /\$\{\{([^}]*)\}\}/).map({ String($0.1) }) {
        for input in expression.matches(of: /inputs\.([a-z-]+)/) {
          XCTAssertTrue(inputs.contains(String(input.1)), expression)
        }
        for earlier in expression.matches(of: /steps\.([a-z-]+)\./) {
          XCTAssertTrue(ids.contains(String(earlier.1)), expression)
        }
      }
      if let id = step["id"]?.string { ids.append(id) }
    }
    for output in action["outputs"]?.keys ?? [] {
      XCTAssertNotNil(action["outputs"]?[output]?["value"]?.string, output)
    }
  }

  /// The action's `run` steps, run as a job runs them (its `uses:` steps are GitHub's caches),
  /// on a copy of CIJob: a test that fails once is flaky, a broken one fails the job, and the
  /// summary, annotations, JUnit, JSON and history are where a team looks for them.
  func testTheActionsStepsRunAsAJobWouldAgainstAFixturePackage() throws {
    let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("action-\(UUID().uuidString)")
    let package = workspace.appendingPathComponent("CIJob")
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: workspace) }
    for item in ["Package.swift", "Tests"] {
      try FileManager.default.copyItem(
        at: URL(fileURLWithPath: Fixtures.ciJob).appendingPathComponent(item), to: package.appendingPathComponent(item))
    }
    let state = workspace.appendingPathComponent("state")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    let summary = workspace.appendingPathComponent("summary.md")
    let action = try YAML.parse(
      try String(contentsOf: Self.action.appendingPathComponent("action.yml"), encoding: .utf8))
    var inputs: [String: String] = [:]
    for name in action["inputs"]?.keys ?? [] { inputs[name] = action["inputs"]?[name]?["default"]?.string ?? "" }
    inputs["package-path"] = "CIJob"
    inputs["arguments"] = "--skip hangs|crashesOnce --timeout 20s"
    inputs["flakelab"] = Flakelab.executable.path
    let runner = workspace.appendingPathComponent("runner-temp")
    var outputs: [String: [String: String]] = [:]
    var last: (status: Int32, stdout: String, stderr: String)?
    for step in action["runs"]?["steps"]?.items ?? [] {
      guard let script = step["run"]?.string else { continue }
      let output = workspace.appendingPathComponent("output-\(outputs.count)")
      XCTAssertTrue(FileManager.default.createFile(atPath: output.path, contents: nil))
      var environment = [
        "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace.path, "GITHUB_STEP_SUMMARY": summary.path,
        "GITHUB_OUTPUT": output.path, "GITHUB_ACTION_PATH": Self.action.path, "RUNNER_TEMP": runner.path,
        "CIJOB_STATE": state.path,
      ]
      for name in step["env"]?.keys ?? [] {
        environment[name] = try Self.evaluate(
          step["env"]?[name]?.string ?? "", inputs: inputs, steps: outputs, runnerTemp: runner.path)
      }
      let result = try Flakelab.run(
        URL(fileURLWithPath: "/bin/bash"), ["-e", "-c", script], environment: environment, directory: workspace)
      if let id = step["id"]?.string {
        outputs[id] = Dictionary(
          (try String(contentsOf: output, encoding: .utf8)).split(separator: "\n").compactMap { line in
            line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
          }, uniquingKeysWith: { $1 })
      }
      last = (result.status, result.stdout, result.stderr)
      if result.status != 0 { break }
    }
    let ci = try XCTUnwrap(last)
    // CIJob's broken test fails the job; its step's outputs say where the files are.
    XCTAssertEqual(ci.status, 1, ci.stderr)
    let files = try XCTUnwrap(outputs["ci"])
    XCTAssertEqual(files["status"], "1")
    XCTAssertEqual(files["junit"], workspace.appendingPathComponent("flakelab-reports/flakelab-ci.xml").path)
    // The annotations: an error at the broken test's line, a warning for each flaky one.
    XCTAssertTrue(ci.stderr.contains("::error file=CIJob/Tests/CIJobTests/Job.swift,line="), ci.stderr)
    XCTAssertTrue(ci.stderr.contains("title=CIJobTests.failsOnce() flaky"), ci.stderr)
    // The job summary, the JUnit with Surefire's flaky marks, the JSON a history can import.
    let markdown = try String(contentsOf: summary, encoding: .utf8)
    XCTAssertTrue(markdown.hasPrefix("### flakelab ci: the job fails"), markdown)
    let junit = try XMLDocument(contentsOf: URL(fileURLWithPath: try XCTUnwrap(files["junit"])))
    XCTAssertFalse(try junit.nodes(forXPath: "//testcase[@status='flaky']/flakyFailure").isEmpty)
    let json = try XCTUnwrap(FileManager.default.contents(atPath: try XCTUnwrap(files["json"])))
    let run = try CIJSONReader.read(try XCTUnwrap(JSONParser.parse(json)))
    XCTAssertEqual(run.tests.first { $0.test.id == "CIJobTests.failsOnce()" }?.status, .flaky)
    // The history the cache step saves.
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: package.appendingPathComponent(".flakelab/history.sqlite").path))
  }

  /// The run step hands flakelab every line of `arguments`, and fails when `output-directory`
  /// cannot be made rather than writing the reports to `/`. A stand-in flakelab says what it
  /// was given; no package runs.
  func testTheRunStepTakesEveryLineOfItsArgumentsAndFailsWhereItCannotWrite() throws {
    let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("action-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: workspace) }
    let stand = workspace.appendingPathComponent("flakelab")
    try "#!/bin/bash\nprintf '%s\\n' \"$@\" > \"$SAID\"\n".write(to: stand, atomically: true, encoding: .utf8)
    XCTAssertEqual(chmod(stand.path, 0o755), 0)
    try "".write(to: workspace.appendingPathComponent("a-file"), atomically: true, encoding: .utf8)
    func run(directory: String, arguments: String) throws -> (status: Int32, said: [String], stdout: String) {
      let said = workspace.appendingPathComponent("said")
      try? FileManager.default.removeItem(at: said)
      let output = workspace.appendingPathComponent("output")
      try "".write(to: output, atomically: true, encoding: .utf8)
      let result = try Flakelab.run(
        URL(fileURLWithPath: "/bin/bash"), [Self.action.appendingPathComponent("run.sh").path],
        environment: [
          "FLAKELAB": stand.path, "SAID": said.path, "GITHUB_OUTPUT": output.path, "INPUT_PACKAGE_PATH": ".",
          "INPUT_RETRIES": "2", "INPUT_FAIL_ON_FLAKY": "false", "INPUT_QUARANTINE": "", "INPUT_HISTORY": "",
          "INPUT_FORMATS": "junit,json", "INPUT_OUTPUT_DIRECTORY": directory, "INPUT_ARGUMENTS": arguments,
        ], directory: workspace)
      let words = (try? String(contentsOf: said, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
      return (result.status, words, result.stdout)
    }
    let lines = try run(directory: "-reports", arguments: "--filter A\n  --timeout 2m\n--fail-on-flaky\n")
    XCTAssertEqual(lines.status, 0)
    XCTAssertEqual(
      Array(lines.said.prefix(11)),
      [
        "ci", "--package-path", ".", "--retries", "2", "--no-progress", "--filter", "A", "--timeout", "2m",
        "--fail-on-flaky",
      ])
    XCTAssertTrue(
      lines.said.contains(workspace.appendingPathComponent("-reports/flakelab-ci.json").resolvingSymlinksInPath().path),
      "\(lines.said)")
    let blocked = try run(directory: "a-file", arguments: "")
    XCTAssertEqual(blocked.status, 2)
    XCTAssertTrue(
      blocked.stdout.contains("::error title=FlakeLab::the output-directory input, 'a-file'"), blocked.stdout)
    XCTAssertEqual(blocked.said, [], "flakelab never ran")
  }

  /// `${{ … }}` as the runner expands it, for the expressions the action's `run` steps use: an
  /// input, `github.action_path`, `runner.temp`, an earlier step's output. Any other is an error,
  /// so the action keeps to what this test can check.
  static func evaluate(
    _ text: String, inputs: [String: String], steps: [String: [String: String]], runnerTemp: String
  ) throws -> String {
    var result = text
    for match in text.matches(of: /\$\{\{\s*([^}]*?)\s*\}\}/) {
      let path = String(match.1).split(separator: ".").map(String.init)
      let value: String? =
        switch path.first {
        case "inputs": inputs[path[1]]
        case "github" where path == ["github", "action_path"]: action.path
        case "runner" where path == ["runner", "temp"]: runnerTemp
        case "steps" where path.count == 4 && path[2] == "outputs": steps[path[1]]?[path[3]] ?? ""
        default: nil
        }
      guard let value else { throw YAML.Invalid(line: 0, reason: "an expression this test does not know: \(match.0)") }
      result = result.replacingOccurrences(of: String(match.0), with: value)
    }
    return result
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
