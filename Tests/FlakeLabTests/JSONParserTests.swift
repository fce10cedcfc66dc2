import XCTest

@testable import FlakeLab

/// The JSON reader on the strings it meets: plain ones (read straight from their bytes), escaped
/// ones, and what RFC 8259 refuses.
final class JSONParserTests: XCTestCase {
  private func parse(_ text: String) -> JSONValue? { JSONParser.parse(Array(text.utf8)) }

  func testStringsPlainAndEscapedReadAsWritten() {
    XCTAssertEqual(parse(#""plain, with é and 🐢""#), .string("plain, with é and 🐢"))
    XCTAssertEqual(parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\udc22""#), .string("a\"b\\c/d\n\té🐢"))
    XCTAssertEqual(parse(#""é\/🐢\/ü\/""#), .string("é/🐢/ü/"), "runs between escapes, multi-byte ones too")
    XCTAssertNil(parse("\"a\\/b\u{1}\""), "a control character after an escape")
    XCTAssertEqual(parse(#"{"k": "v", "e": ""}"#)?["k"], .string("v"))
    XCTAssertEqual(parse(#"{"k": "v", "e": ""}"#)?["e"], .string(""))
    for value: JSONValue in [.string("x\u{1}y"), .string("q\"\\"), .string("🐢 \u{7f}")] {
      XCTAssertEqual(parse(value.serialized()), value, "what the writer writes reads back")
    }
  }

  func testWhatTheRFCRefusesIsNil() {
    XCTAssertNil(parse("\"raw \n line\""), "a control character must be escaped")
    XCTAssertNil(parse(#""unterminated"#))
    XCTAssertNil(parse(#""\x""#))
    XCTAssertNil(parse(#""\ud83d""#), "a high surrogate alone")
    XCTAssertNil(JSONParser.parse([UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\"")]), "not UTF-8")
    XCTAssertNil(parse("tru"))
    XCTAssertEqual(parse(" [true, false, null] \n"), .array([.bool(true), .bool(false), .null]))
  }
}
