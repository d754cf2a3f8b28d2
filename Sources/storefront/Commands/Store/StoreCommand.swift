/// `storefront store VERB …`: the local App Store's transaction manager and settings, one verb
/// a file in the folders beside this one. A new verb is its file plus one line here.
struct StoreCommand: VerbCommand {
    let name = "store"
    let summary = "The local App Store's transaction manager and settings."
    let verbs: [any Verb] = [
        PendingVerb(),
        PendingAnswerVerb.approve,
        PendingAnswerVerb.decline,
        PendingAnswerVerb.resolve,
        ChargesVerb(),
        SettingsVerb(),
        SetVerb(),
        SubscriptionsVerb(),
        RenewVerb(),
        ExpireVerb(),
        CancelVerb(),
        RenewIntoVerb(),
        RefundVerb(),
        BillingIssueVerb(),
        ConsumptionVerb(),
        SignOfferVerb(),
        CodesVerb(),
        IssueCodesVerb(),
        RefundRequestsVerb(),
        RefundDecisionVerb.approve,
        RefundDecisionVerb.decline,
        NotificationsVerb(),
        ResendNotificationVerb(),
        PriceIncreaseVerb(),
        RefundReverseVerb(),
        RetentionVerb(),
        RetentionLogVerb(),
        ReviewVerb.approveMessage,
        ReviewVerb.rejectMessage,
        ReviewVerb.approveImage,
        ReviewVerb.rejectImage,
        FamilyVerb(),
        FamilyAddVerb(),
        FamilyRemoveVerb(),
        FamilyShareVerb(),
        FamilySignInVerb(),
    ]
    var discussion: String {
        SetVerb.settings + """


            Everything persists in the data directory. Every other storefront process uses a change
            from its next store operation; a storefront open in another terminal shows approvals,
            declines, refunds and renewals made here within about 2 seconds, and its Store Settings
            window (o) shows the settings as they are when it opens.
            """
    }
}
