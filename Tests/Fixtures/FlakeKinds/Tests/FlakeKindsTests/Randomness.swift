import Foundation
import Testing

/// A discount drawn in each run, with a bug above 7: fails three runs in ten, under every
/// executor, and a seed replays it.
@Test func randomValue() {
  let discount = Int.random(in: 0..<10)
  #expect(discount < 7)
}

/// A two-key dictionary encoded to JSON: its order is the hash order, drawn once per process.
@Test func hashOrder() throws {
  let encoded = try JSONEncoder().encode(["language": "en", "region": "US"])
  #expect(String(decoding: encoded, as: UTF8.self) == #"{"language":"en","region":"US"}"#)
}
