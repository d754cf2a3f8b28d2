/// `storefront store notifications resend UUID`: a notification is sent again, as it was.
struct ResendNotificationVerb: Verb {
    let name = "notifications resend"
    let arguments = [Argument("UUID")]
    let abstract = "send a notification again (same UUID and payload)"

    func run(_ call: VerbCall) async throws(CLIError) {
        let n = try await call.store { try await $0.notifications.resend(call.arguments[0]) }
        call.write(
            json: NotificationOutput.json(n),
            lines: ["Notification \(n.notificationUUID) (\(NotificationOutput.kind(n))) will be sent again now."])
    }
}
