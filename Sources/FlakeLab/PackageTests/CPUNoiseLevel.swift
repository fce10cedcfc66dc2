import Foundation

/// How much noise the stressed layout makes: two busy threads for every core the test process
/// may use, so that a thread of the test gets about a third of a core while they spin.
package enum CPUNoiseLevel {
  package static var threads: Int { 2 * ProcessInfo.processInfo.activeProcessorCount }
}
