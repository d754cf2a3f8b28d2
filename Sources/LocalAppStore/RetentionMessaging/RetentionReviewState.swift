/// Apple's review state of a retention image or message (`imageState`, `messageState`).
///
/// Apple reviews what a developer uploads; the local store approves at once unless the
/// `retention-review` setting holds uploads for `store approve-message` / `reject-message`
/// (and `approve-image` / `reject-image`).
public enum RetentionReviewState: String, Codable, Hashable, Sendable, CaseIterable {
    /// Waiting for review.
    case pending = "PENDING"
    /// Approved: the App Store may show it.
    case approved = "APPROVED"
    /// Rejected: the App Store never shows it.
    case rejected = "REJECTED"
}
