/// The classes that run in their own `swift test`, beside every other test (`make test`, through
/// `Tests/side-by-side.sh`, which finds them by this conformance, written in the class's
/// declaration): the few whose tests wait longest on the processes they start, so that the two
/// halves take about as long.
protocol LongHalf {}
