import Foundation

/// The outcome of an XCTest process the lab cannot steer, one iteration per process: passed when
/// it exits 0, failed when it exits 1 (with the `error:` lines XCTest printed), crashed otherwise.
///
/// The fallback for a toolchain where the preloaded `XCTMain` replacement did not take effect:
/// slower (a process per iteration) but measured under the right executor.
final class ExitStatusFeed: OutcomeFeed {
  let descriptor: Int32
  private let index: Int
  private var completed = 0
  private var record: ChannelRecord?

  init(index: Int) throws {
    descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw SystemError("open /dev/null") }
    self.index = index
  }

  deinit {
    close(descriptor)
  }

  var workerIsReady: Bool { true }

  func poll() -> (completed: Int, records: [ChannelRecord]) {
    defer { record = nil }
    return (completed, record.map { [$0] } ?? [])
  }

  func workerEnded(status: Int32, output: String) {
    guard status & 0x7f == 0 else { return }  // a signal: the supervisor records the crash
    switch (status >> 8) & 0xff {
    case 0:
      completed = 1
    case 1:
      completed = 1
      record = ChannelRecord(
        index: index, outcome: .failed(observation: Self.failures(in: output)), fingerprint: 0)
    default:
      return  // an unexpected exit: recorded as a crash with its status
    }
  }

  /// `…/File.swift:12: error: IsLoadingXCTests.testYield : XCTAssertTrue failed - ` → the part
  /// after the test's name.
  static func failures(in output: String) -> String {
    let messages = output.split(whereSeparator: \.isNewline).compactMap { line -> String? in
      guard let range = line.range(of: ": error: ") else { return nil }
      let rest = line[range.upperBound...]
      let message = rest.range(of: " : ").map { rest[$0.upperBound...] } ?? rest
      return FailureText.normalize(String(message))
    }
    return messages.isEmpty ? "the test failed" : messages.joined(separator: "; ")
  }
}
