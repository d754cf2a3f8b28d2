/// Why a bench section could not measure: a peer that failed, or a result that was not what
/// the section set up (a bench never prints a figure for work it did not do).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}
