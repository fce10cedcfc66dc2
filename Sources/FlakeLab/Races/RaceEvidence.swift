/// What a test's runs under the thread sanitizer showed: how many processes ran it, how many of
/// them failed it, and each race they reported, with in how many of the processes.
package struct RaceEvidence: Sendable, Equatable {
  /// A race and the sanitized processes that reported it.
  package struct Seen: Sendable, Equatable {
    package let race: DataRace
    package var runs: Int

    package init(race: DataRace, runs: Int) {
      self.race = race
      self.runs = runs
    }
  }

  /// Sanitized processes that ran the test to an end.
  package var runs = 0
  /// Of them, those that failed it (a failure, a crash, a time-out).
  package var failedRuns = 0
  /// The races, the most often reported first.
  package var races: [Seen] = []
  /// The tests that ran in the same processes before it (its polluters), if any.
  package var alongside: [PackageTest] = []

  package init(runs: Int = 0, failedRuns: Int = 0, races: [Seen] = [], alongside: [PackageTest] = []) {
    self.runs = runs
    self.failedRuns = failedRuns
    self.races = races
    self.alongside = alongside
  }

  /// Adds a process's end: whether it failed the test, and the races it reported, each counted
  /// once per process by its pair of lines.
  package mutating func add(failed: Bool, races reported: [DataRace], packagePath: String) {
    runs += 1
    if failed { failedRuns += 1 }
    for race in reported {
      let key = race.key(in: packagePath)
      if let index = races.firstIndex(where: { $0.race.key(in: packagePath) == key }) {
        races[index].runs += 1
      } else {
        races.append(Seen(race: race, runs: 1))
      }
    }
    races.sort { $0.runs > $1.runs }
  }

  /// The sanitized runs failed the test and no process reported a data race: what is left is a
  /// logical race (steps each safe, the whole not), not a missing lock.
  package var showsNoDataRace: Bool { races.isEmpty && failedRuns > 0 }

  /// The races in which a thread no executor orders takes part (Dispatch, a `Thread`, an event
  /// loop): no serial executor or seed changes them.
  package var unorderedRaces: [Seen] { races.filter(\.race.involvesUnorderedThread) }
}
