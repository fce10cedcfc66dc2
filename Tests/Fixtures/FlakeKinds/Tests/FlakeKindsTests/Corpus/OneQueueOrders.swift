import Foundation
import Testing
import XCTest

// One queue's first-in, first-out order fails these every time, without a wait: a state looked
// at after the work that sets and clears it has already run, or code that checks, awaits, then
// acts on what it checked. Under global they pass now and then. Right: serial-deterministic.

/// A view model whose fetch never suspends (the reply is decoded at once): on one queue the
/// fetch runs start to end before the test looks at the spinner.
final class SpinnerModel: @unchecked Sendable {
  var spinnerIsShown = false
  var rows: [String] = []

  func refresh() async {
    spinnerIsShown = true
    defer { spinnerIsShown = false }
    rows = await decodedRows()
  }

  private func decodedRows() async -> [String] {
    let checksum = (0..<5_000).reduce(0) { $0 &+ $1 % 7 }
    return ["row \(checksum - checksum)"]
  }
}

final class SpinnerTests: XCTestCase {
  /// The spinner shows while the rows load.
  func testShowsTheSpinnerWhileRefreshing() async {
    let model = SpinnerModel()
    let refresh = Task { await model.refresh() }
    await Task.yield()
    XCTAssertTrue(model.spinnerIsShown)
    await refresh.value
    XCTAssertFalse(model.spinnerIsShown)
  }
}

/// An inventory that checks the stock, writes an audit line (a suspension), then takes one out:
/// a second reservation enters at the `await` and both take the last item.
actor Inventory {
  private(set) var stock = 1

  func reserve() async -> Bool {
    guard stock > 0 else { return false }
    await Task.yield()  // the audit log
    stock -= 1
    return true
  }
}

final class InventoryTests: XCTestCase {
  func testNeverSellsMoreThanItHas() async {
    let inventory = Inventory()
    async let first = inventory.reserve()
    async let second = inventory.reserve()
    _ = await (first, second)
    let stock = await inventory.stock
    XCTAssertGreaterThanOrEqual(stock, 0)
  }
}

/// A download whose progress is set at its start and reset at its end, with nothing in between
/// that suspends: on one queue the test always looks too late.
final class Download: @unchecked Sendable {
  var inProgress = false

  func start() async {
    inProgress = true
    _ = (0..<4_000).map { $0 &* $0 }.count
    inProgress = false
  }
}

@Suite struct DownloadProgress {
  @Test func showsProgressWhileDownloading() async {
    let download = Download()
    let task = Task { await download.start() }
    await Task.yield()
    #expect(download.inProgress)
    await task.value
  }
}
