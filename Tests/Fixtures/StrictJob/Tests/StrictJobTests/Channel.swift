import Foundation
import Testing

/// Closes the descriptors a process has open past its standard ones, then fails. Alone in its
/// framework's process: nothing else there needs them.
@Test func closesDescriptorsThenFails() {
  for descriptor in Int32(3)...20 { close(descriptor) }
  #expect(1 == 2, "after closing descriptors")
}
