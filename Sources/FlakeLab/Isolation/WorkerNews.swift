/// What the supervisor read of a worker since it last looked: the failure records it published,
/// and once it ended its passes (every finished iteration that left no record) and its share of
/// the schedule hash. ``BatchMachine/take(_:for:)`` counts it into the run.
struct WorkerNews {
  var records: [ChannelRecord] = []
  var passes = 0
  /// XOR of the schedule shares of the iterations it finished.
  var scheduleShare: UInt64 = 0
  /// The worker said something outside the scheduler decided its order of jobs.
  var scheduleIsUncontrolled = false
}
