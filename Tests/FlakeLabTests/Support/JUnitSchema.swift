import Foundation
import XCTest

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// What the Jenkins `junit-10.xsd` schema allows each element to contain, and its attributes;
/// with `reruns`, Maven Surefire's additions for reruns (`flakyFailure`, `flakyError`,
/// `rerunFailure`, `rerunError` in a test case), which Jenkins' and GitLab's readers take.
enum JUnitSchema {
  typealias Rule = (children: Set<String>, attributes: Set<String>)

  static let jenkins: [String: Rule] = [
    "testsuites": (["testsuite"], ["name", "time", "tests", "failures", "disabled", "errors"]),
    "testsuite": (
      ["properties", "testcase", "system-out", "system-err"],
      [
        "name", "tests", "failures", "errors", "time", "disabled", "skipped", "timestamp", "hostname",
        "id", "package", "file", "log", "url", "version",
      ]
    ),
    "properties": (["property"], []),
    "property": ([], ["name", "value"]),
    "testcase": (
      ["skipped", "error", "failure", "system-out", "system-err"],
      ["name", "assertions", "time", "classname", "status"]
    ),
    "skipped": ([], ["message"]),
    "failure": ([], ["message", "type"]),
    "error": ([], ["message", "type"]),
    "system-out": ([], []),
    "system-err": ([], []),
  ]

  static let reruns: [String: Rule] = {
    var rules = jenkins
    let rerun = ["flakyFailure", "flakyError", "rerunFailure", "rerunError"]
    rules["testcase"]?.children.formUnion(rerun)
    for name in rerun { rules[name] = (["stackTrace", "system-out", "system-err"], ["message", "type"]) }
    rules["stackTrace"] = ([], [])
    return rules
  }()

  static func check(
    _ element: XMLElement, rules: [String: Rule] = jenkins, file: StaticString = #filePath, line: UInt = #line
  ) {
    let name = element.name ?? "?"
    guard let rule = rules[name] else {
      return XCTFail("<\(name)> is not in the schema", file: file, line: line)
    }
    for attribute in element.attributes ?? [] {
      XCTAssertTrue(
        rule.attributes.contains(attribute.name ?? ""), "<\(name) \(attribute.name ?? "")>", file: file, line: line)
    }
    for case let child as XMLElement in element.children ?? [] {
      XCTAssertTrue(
        rule.children.contains(child.name ?? ""), "<\(name)> holds <\(child.name ?? "")>", file: file, line: line)
      check(child, rules: rules, file: file, line: line)
    }
  }
}
