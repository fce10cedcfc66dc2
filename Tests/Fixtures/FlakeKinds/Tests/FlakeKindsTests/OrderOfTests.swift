import XCTest

/// A process-wide default, as a global logger or a shared formatter's locale is.
nonisolated(unsafe) var defaultCurrency = "EUR"

/// One test changes the default and never restores it, as a test that replaces a global logger
/// does (swift-log): the tests after it in XCTest's order fail, and alone each passes. XCTest
/// runs a class's tests in order of name, which is also their order here.
final class CurrencyTests: XCTestCase {
  func testChangesTheCurrency() {
    defaultCurrency = "USD"
    XCTAssertEqual(defaultCurrency, "USD")
  }

  func testFormatsAPrice() {
    XCTAssertEqual("\(defaultCurrency) 5", "EUR 5")
  }

  func testParsesAPrice() {
    XCTAssertEqual("EUR 5".hasPrefix(defaultCurrency), true)
  }

  func testRoundsAnAmount() {
    XCTAssertEqual((5.5).rounded(), 6)
  }
}
