import Foundation
import StoreCore
import SystemIO

/// Maps `STOREFRONT_FAULT=POINT` to a process that kills itself with SIGKILL at that point,
/// so tests can prove that nothing acknowledged is lost and nothing is delivered twice.
enum FaultInjection {
    /// The fault points the README documents.
    static let points: [FaultPoint] = [.beforeCharge, .afterCharge, .beforeFinish, .midDownload, .midVaultWrite]

    /// The hook for `environment`: does nothing unless `STOREFRONT_FAULT` names a point.
    /// - Throws: `CLIError.usage` when the variable names no known point.
    static func hook(environment: [String: String]) throws(CLIError) -> FaultHook {
        guard let name = environment["STOREFRONT_FAULT"], !name.isEmpty else { return { _ in } }
        guard let point = points.first(where: { $0.rawValue == name }) else {
            throw .usage("STOREFRONT_FAULT=\(name) names no fault point; use one of \(points.map(\.rawValue).joined(separator: ", ")).")
        }
        return { reached in
            if reached == point { CurrentProcess.killImmediately() }
        }
    }
}
