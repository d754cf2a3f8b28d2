/// One section of `make bench`: measures one capability against a peer or a physical limit
/// measured in the same run, and prints each figure beside it as a ratio.
protocol BenchSection {
    /// A short lower-case name; `storefront-bench NAME…` runs only the named sections.
    var name: String { get }
    /// One line saying what is measured.
    var summary: String { get }
    /// Runs the measurements, printing through `report`.
    func run(_ report: BenchReport) throws
}
