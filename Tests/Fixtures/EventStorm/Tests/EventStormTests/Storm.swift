import Testing

struct Failure: Error {}

@Test func empty1() {}
@Test func empty2() {}
@Test func empty3() {}
@Test func empty4() {}
@Test func throws1() throws { throw Failure() }
@Test func throws2() throws { throw Failure() }
@Test func records() { Issue.record("recorded") }
@Test func expects() { #expect(1 + 1 == 3) }
@Test func knownIssue() { withKnownIssue { Issue.record("known") } }
@Test func knownThrow() { withKnownIssue { throw Failure() } }
@Test(.disabled("not today")) func disabled() {}

/// Many issues while the others start and end: the events of tests on other threads are
/// written between them.
func recordMany() {
  for index in 0..<20 { Issue.record("issue \(index)") }
}

@Test func recordsMany1() { recordMany() }
@Test func recordsMany2() { recordMany() }
@Test func recordsMany3() { recordMany() }
@Test func recordsMany4() { recordMany() }
@Test func recordsMany5() { recordMany() }
@Test func recordsMany6() { recordMany() }

@Test func empty5() {}
@Test func empty6() {}
@Test func empty7() {}
@Test func empty8() {}
