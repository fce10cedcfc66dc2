import Foundation
import XCTest

@testable import FlakeLab

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Well-formed (it is XHTML), and nothing in it is fetched: no script, no link, no image, no
/// address at all.
func assertSelfContained(_ page: String, file: StaticString = #filePath, line: UInt = #line) {
  let parser = XMLParser(data: Data(page.utf8))
  XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")", file: file, line: line)
  for fetched in ["http:", "https:", "<script", "<link", "<img", "src=", "url("] {
    XCTAssertFalse(page.contains(fetched), fetched, file: file, line: line)
  }
}

/// A page as headless Chromium shows it, at 1280 and 400 pixels wide, in light and dark: it
/// loads with nothing said on the console and no request but the page itself, and draws
/// something. Chromium from Debian's packages; `.ci/run` installs it and asks for it
/// (`FLAKELAB_REQUIRE_BROWSER=1`), elsewhere the test is skipped without one.
enum HeadlessBrowser {
  static func assertShows(_ page: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let browser = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let browser else {
      if ProcessInfo.processInfo.environment["FLAKELAB_REQUIRE_BROWSER"] == "1" {
        XCTFail("no chromium", file: file, line: line)
      }
      throw XCTSkip("no chromium on this machine")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-page-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let html = directory.appendingPathComponent("page.html")
    try Data(page.utf8).write(to: html)
    for (width, scheme) in [(1280, "light"), (400, "light"), (1280, "dark")] {
      let name = "\(width)-\(scheme)"
      let screenshot = directory.appendingPathComponent("\(name).png")
      let netLog = directory.appendingPathComponent("\(name).json")
      let result = try CapturedProcess.run(
        browser,
        [
          "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
          "--user-data-dir=\(directory.path)/profile-\(name)", "--window-size=\(width),2000",
          "--blink-settings=preferredColorScheme=\(scheme == "dark" ? 0 : 1)",
          "--log-net-log=\(netLog.path)", "--screenshot=\(screenshot.path)", html.absoluteString,
        ], timeLimit: .seconds(120))
      XCTAssertEqual(result.status, 0, result.errorOutput, file: file, line: line)
      let size = (try FileManager.default.attributesOfItem(atPath: screenshot.path)[.size] as? Int) ?? 0
      XCTAssertGreaterThan(size, 20_000, name, file: file, line: line)
      XCTAssertFalse(result.errorOutput.contains("CONSOLE"), result.errorOutput, file: file, line: line)
      // The page's own requests are those isolated under its origin, file://; the browser's
      // own (updates, time) are not the page's.
      let log = try XCTUnwrap(JSONParser.parse(try Data(contentsOf: netLog)), file: file, line: line)
      let fetched = (log["events"]?.array ?? []).compactMap { event -> String? in
        guard let url = event["params"]?["url"]?.string,
          event["params"]?["network_isolation_key"]?.string?.hasPrefix("file://") == true
        else { return nil }
        return url.hasPrefix("file:") ? nil : url
      }
      XCTAssertEqual(fetched, [], name, file: file, line: line)
    }
  }
}
