/// One machine's share of every run, for spreading a long measurement over a CI matrix.
///
/// Shard `index` of `count` (0-based, as Bazel's `TEST_SHARD_INDEX`) takes a contiguous block of
/// each run's iteration indices. Indices stay global, so a scenario sees the same index whichever
/// shard runs it, and `flakelab merge` of all shards equals the unsharded run.
package struct Shard: Equatable, Hashable, Sendable {
  package let index: Int
  package let count: Int

  /// The most shards a measurement is split into.
  package static let maximumCount = 1_000_000

  /// A shard that is not `INDEX/COUNT` with `0 <= INDEX < COUNT <= maximumCount`.
  package struct Invalid: Error, Equatable {
    package let index: Int
    package let count: Int
  }

  package init(index: Int, count: Int) throws(Invalid) {
    guard (1...Self.maximumCount).contains(count), (0..<count).contains(index) else {
      throw Invalid(index: index, count: count)
    }
    self.index = index
    self.count = count
  }

  /// This shard's block of `0..<iterations`.
  package func indices(of iterations: Int) -> Range<Int> {
    (iterations * index / count)..<(iterations * (index + 1) / count)
  }
}
