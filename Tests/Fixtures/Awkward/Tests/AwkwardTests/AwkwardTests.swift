import Awkward
import Dispatch
import Foundation
import Synchronization
import Testing

@Test func passesAtFileScope() {
  #expect(1 + 1 == 2)
}

@Test(.disabled("waiting on a fix")) func disabled() {
  Issue.record("a disabled test never runs")
}

private let reasons = Counter()

/// Fails every time, for one of two reasons: two outcomes.
@Test func failsForTwoReasons() {
  Issue.record(reasons.next() % 2 == 0 ? "the cache was cold" : "the cache was stale")
}

private let orders = Counter()

/// Records the same two issues, in an order that changes: one outcome.
@Test func recordsTwoIssuesInEitherOrder() {
  let first = orders.next() % 2 == 0
  Issue.record(first ? "the name is empty" : "the date is missing")
  Issue.record(first ? "the date is missing" : "the name is empty")
}

/// Fails with a value that changes every time, and a comment: one outcome.
@Test func failsWithAChangingValue() {
  let token = UUID().uuidString
  #expect(token == "expected", "the session token")
}

/// An argument list that traps before the test can start.
@Test(arguments: argumentsThatTrap()) func trapsInItsArguments(number: Int) {
  #expect(number > 0)
}

func argumentsThatTrap() -> [Int] {
  fatalError("the argument list could not be built")
}

private let slowRuns = Counter()

/// Correct, and slow on every 20th run: 400 ms is no hang.
@Test func slowEveryTwentiethRun() async throws {
  if slowRuns.next() % 20 == 0 { try await Task.sleep(for: .milliseconds(400)) }
}

/// Starts a child that leaves its process group (`setsid`) and outlives the test.
@Test func leavesAChildInASessionOfItsOwn() throws {
  let shell = Process()
  shell.executableURL = URL(fileURLWithPath: "/bin/sh")
  shell.arguments = ["-c", "setsid /bin/sleep 3518 </dev/null >/dev/null 2>&1 &"]
  try shell.run()
}

/// Turns the serial executor off, as swift-concurrency-extras' `uncheckedUseMainSerialExecutor =
/// false` does: every later job goes to the global executor.
@Test func turnsTheSerialExecutorOff() async {
  typealias Hook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void
  let slot = dlsym(dlopen(nil, 0), "swift_task_enqueueGlobal_hook")!.assumingMemoryBound(to: Hook?.self)
  slot.pointee = nil
  await Task.yield()
}

/// Waits for an answer another thread gives after 20 ms, with a timeout of 5 s: passes unless
/// the timeout's clock runs ahead of real time.
@Test func answersFromAnotherThreadWithinItsTimeout() async {
  let answer = await withCheckedContinuation { (answered: CheckedContinuation<String, Never>) in
    let once = Once(answered)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { once.resume("answered") }
    Task {
      try? await Task.sleep(for: .seconds(5))
      once.resume("timed out")
    }
  }
  #expect(answer == "answered")
}

/// Resumes a continuation once, whoever comes first.
private final class Once: Sendable {
  private let continuation: Mutex<CheckedContinuation<String, Never>?>

  init(_ continuation: CheckedContinuation<String, Never>) {
    self.continuation = Mutex(continuation)
  }

  func resume(_ value: String) {
    continuation.withLock { $0.take() }?.resume(returning: value)
  }
}

/// Records a warning and counts it through an issue handler, as property-testing libraries do:
/// passes only when warnings reach the test's own handlers, as they do under `swift test`.
@Test func countsItsOwnWarnings() async throws {
  let warnings = Mutex(0)
  let handler = IssueHandlingTrait.compactMapIssues { issue in
    if issue.severity == .warning { warnings.withLock { $0 += 1 } }
    return nil
  }
  try await handler.provideScope(for: Test.current!, testCase: Test.Case.current) {
    Issue.record("worth a look", severity: .warning)
  }
  #expect(warnings.withLock { $0 } == 1)
}
