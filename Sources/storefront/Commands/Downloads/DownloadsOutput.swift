import Foundation
import StoreCore

/// How downloads are shown: progress lines and bars, table rows, JSON. Pure functions.
enum DownloadsOutput {
    /// Bytes for people: `812 KB`, `2.8 MB`.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return "\(bytes / 1_000) KB" }
        if bytes < 1_000_000_000 { return String(format: "%.1f MB", Double(bytes) / 1e6) }
        return String(format: "%.2f GB", Double(bytes) / 1e9)
    }

    /// A whole percentage, rounded down (100 only when complete).
    static func percent(_ d: Download) -> Int {
        d.bytesWritten >= d.totalBytes ? 100 : Int(d.fraction * 100)
    }

    /// `1.4 of 2.8 MB, 1.5 MB/s, 1 s left` (rate and time only when known).
    static func detail(_ d: Download) -> String {
        var parts = ["\(size(d.bytesWritten)) of \(size(d.totalBytes))"]
        if d.bytesPerSecond > 0 { parts.append("\(size(Int64(d.bytesPerSecond)))/s") }
        if let left = d.timeRemaining { parts.append("\(Int(left.rounded(.up))) s left") }
        return parts.joined(separator: ", ")
    }

    /// One redrawn terminal line: `Forest level pack [██████░░░░░░░░░░░░░░]  31%  0.9 of 2.8 MB, 1.5 MB/s, 2 s left`.
    static func bar(_ d: Download, name: String, width: Int = 24) -> String {
        let filled = min(width, Int(d.fraction * Double(width)))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let pct = String(percent(d)).leftPadded(to: 3)
        return "\(name) [\(bar)] \(pct)%  \(detail(d))"
    }

    /// A plain progress line, for output that is not a terminal.
    static func line(_ d: Download, name: String) -> String {
        "Downloading \(name): \(percent(d))% (\(detail(d)))"
    }

    /// The closing line once a download settles.
    static func outcome(_ d: Download, name: String) -> String {
        switch d.state {
        case .finished: "Installed \(name) \(d.contentVersion) (\(size(d.totalBytes))) in \(d.contentPath ?? "?")."
        case .paused: "Paused \(name) at \(percent(d))%; continue with 'storefront downloads resume \(d.id)'."
        case .cancelled:
            "Cancelled the download of \(name); the purchase is kept. Download again with 'storefront downloads resume \(d.id)'."
        case .failed:
            "The download of \(name) failed at \(percent(d))%: \(d.error?.description ?? "unknown error"). The purchase is kept; retry with 'storefront downloads resume \(d.id)'."
        default: "\(name) is \(d.state) in another process (\(percent(d))%)."
        }
    }

    /// A row of the `storefront downloads` table.
    static func row(_ d: Download) -> [String] {
        [
            d.id, d.productID, d.contentVersion, d.state.rawValue, "\(percent(d))%",
            "\(size(d.bytesWritten)) / \(size(d.totalBytes))", d.error?.description ?? d.contentPath ?? "",
        ]
    }

    /// A download as JSON, the `--json` contract of `downloads` and `buy`.
    static func json(_ d: Download) -> JSONText {
        var members: [(String, JSONText)] = [
            ("id", .string(d.id)),
            ("transactionID", .string(d.transactionID)),
            ("productID", .string(d.productID)),
            ("contentVersion", .string(d.contentVersion)),
            ("state", .string(d.state.rawValue)),
            ("bytesWritten", .number(String(d.bytesWritten))),
            ("totalBytes", .number(String(d.totalBytes))),
            ("percent", .number(String(percent(d)))),
        ]
        if let path = d.contentPath { members.append(("contentPath", .string(path))) }
        if let error = d.error { members.append(("error", .string(error.description))) }
        return .object(members)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
