import Foundation
import Testing

/// The `isLoading` test of swift-concurrency-extras' README, in the form that README warns of:
/// the endpoint never suspends, so on one queue the load runs start to end before the test
/// looks, every time. Under global the test looks while the endpoint decodes its reply, now and
/// then. The README's remedy: a suspension point in the endpoint, and the test on the serial
/// executor.
@Suite struct NumberFactTests {
  final class NumberFactModel: @unchecked Sendable {
    var isLoading = false
    var fact: String?
    let getFact: @Sendable (Int) async -> String

    init(getFact: @escaping @Sendable (Int) async -> String) { self.getFact = getFact }

    func getFactButtonTapped() async {
      isLoading = true
      defer { isLoading = false }
      fact = await getFact(42)
    }
  }

  @Test func isLoading() async {
    let model = NumberFactModel(getFact: { number in
      // Decoding the reply: work, but no suspension.
      let digits = (0..<5_000).reduce(0) { $0 &+ $1 % 10 }
      return "\(number + digits - digits) is a good number."
    })
    let task = Task { await model.getFactButtonTapped() }
    await Task.yield()
    #expect(model.isLoading)
    await task.value
    #expect(!model.isLoading)
  }
}

/// An actor that checks, awaits, then acts on what it checked: reentrancy lets a second
/// withdrawal in at the `await`, and both spend the same balance. On one queue the second call
/// is always there in time; under global it usually comes after the first has finished.
actor Account {
  private(set) var balance = 100

  func withdraw(_ amount: Int) async -> Bool {
    guard balance >= amount else { return false }
    await Task.yield()  // an audit log, a network call: any suspension
    balance -= amount
    return true
  }
}

@Test func reentrancy() async {
  let account = Account()
  let first = Task { await account.withdraw(80) }
  // The second tap comes a moment later.
  usleep(2_000)
  _ = await account.withdraw(80)
  _ = await first.value
  #expect(await account.balance >= 0)
}
