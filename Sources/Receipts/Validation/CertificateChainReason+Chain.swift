import Crypto
import Foundation
import StoreKitValues

/// Which of the four reasons a failure of `CertificateChain.verify` is (it needs the Crypto module).
extension CertificateChainReason {
    /// The reason for a chain that failed its check at `checkedAt`.
    static func chain(_ failure: CertificateChain.Failure, checkedAt: Date) -> Self {
        switch failure {
        case .expired(let subject, let notAfter):
            .certificateExpired(subject: subject, notAfter: notAfter, checkedAt: checkedAt)
        case .notYetValid(let subject, let notBefore):
            .certificateNotYetValid(subject: subject, notBefore: notBefore, checkedAt: checkedAt)
        case .untrusted(let subject, let reason): .untrustedChain(subject: subject, reason: reason)
        case .invalid(let subject, let reason): .invalidCertificate(subject: subject, reason: reason)
        }
    }
}
