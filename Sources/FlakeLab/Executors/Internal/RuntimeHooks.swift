import Foundation

/// The Swift runtime's global-enqueue hook, reached the only way a library can reach it.
///
/// `swift_task_enqueueGlobal_hook` is one of the hooks in the runtime's
/// `include/swift/Runtime/ConcurrencyHooks.def`: when set, every job the runtime would hand to the
/// global executor goes to the hook instead. It is not part of any public module, so it is found
/// by name with `dlsym`. Everything that touches it lives in this file.
package enum GlobalEnqueueHook {
  package typealias Original = @convention(thin) (UnownedJob) -> Void
  package typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

  /// Sends every global job to the main actor's serial executor.
  package static let mainActorRedirect: Hook = { job, _ in MainActor.shared.enqueue(job) }

  /// The hook's storage in the runtime. Reads and writes are plain, as in the runtime itself:
  /// set it while no other thread is enqueueing work that must not be redirected.
  nonisolated(unsafe) private static let slot: UnsafeMutablePointer<Hook?> = {
    guard let symbol = SystemCalls.address(of: "swift_task_enqueueGlobal_hook") else {
      fatalError("the Swift runtime does not export swift_task_enqueueGlobal_hook")
    }
    return symbol.assumingMemoryBound(to: Hook?.self)
  }()

  package static var current: Hook? {
    get { slot.pointee }
    set { slot.pointee = newValue }
  }
}
