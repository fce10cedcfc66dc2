import DoesNotBuild
import Testing

@Test func answer() {
  #expect(DoesNotBuild.answer == 42)
}
