import Foundation
import TestSupport
import Testing

/// A yearly subscription sold monthly over a 12-month commitment, in a real terminal and in
/// two languages: the details list the monthly plan, the buy sheet picks it and discloses the
/// commitment before the account's first, and My Purchases shows its progress and chooses what
/// it renews into. tmux runs the built storefront on the Demo catalog; the CLI (another
/// process on the same data directory) says what the store and the app then hold, and prices
/// each plan for the storefront the test expects on screen.
@Suite(.waitsOnProcesses, .serialized) struct TUICommitmentTests {
    static let proYearly = "com.storefront.demo.premium.pro.yearly"

    /// The words the screens use in one language, around the prices the CLI gives.
    struct Language: Sendable, CustomTestStringConvertible {
        let storefront: String
        let locale: String
        /// The Demo catalog's name of Pro (Yearly) in this language.
        let name: String
        /// `payment`, `total` → the monthly plan's price as the sheet and the details say it.
        let plan: @Sendable (String, String) -> String
        let upFront: String
        let monthly: String
        let disclosureTitle: String
        /// `payment`, `total` → the disclosure's first line.
        let disclosure: @Sendable (String, String) -> String
        let purchased: String
        let firstPayment: String
        let renewsMonthly: String
        let choiceTitle: String
        let renewsUpFront: String
        let renewsUpFrontColumn: String
        /// The product list's first key hints (shown only while no window is open).
        let listHints: String

        var testDescription: String { locale }

        static let english = Language(
            storefront: "USA", locale: "en_US", name: "Pro (Yearly)",
            plan: { "\($0)/month for 12 months · \($1) in all" }, upFront: "◂ Billed up front ▸",
            monthly: "◂ Monthly, 12-month commitment ▸", disclosureTitle: "Monthly with a 12-Month Commitment",
            disclosure: { "12 monthly payments of \($0): \($1) in all." }, purchased: "Purchased Pro (Yearly)",
            firstPayment: "Payment 1 of 12 · commitment ends", renewsMonthly: "Then Monthly plan",
            choiceTitle: "When the Commitment of Pro (Yearly) Ends",
            renewsUpFront: "Pro (Yearly) renews as Pro (Yearly) · Billed up front",
            renewsUpFrontColumn: "Then Up-front plan", listHints: "Enter Buy  /")

        static let german = Language(
            storefront: "DEU", locale: "de_DE", name: "Pro (jährlich)",
            plan: { "\($0)/Monat für 12 Monate · \($1) insgesamt" }, upFront: "◂ Im Voraus bezahlt ▸",
            monthly: "◂ Monatlich, 12 Monate Bindung ▸", disclosureTitle: "Monatlich mit 12 Monaten Bindung",
            disclosure: { "12 monatliche Zahlungen zu je \($0): \($1) insgesamt." },
            purchased: "Pro (jährlich) gekauft",
            firstPayment: "Zahlung 1 von 12 · Bindung endet am", renewsMonthly: "Danach Monatstarif",
            choiceTitle: "Wenn die Bindung von Pro (jährlich) endet",
            renewsUpFront: "Pro (jährlich) verlängert sich nach der Bindung als Pro (jährlich) · Im Voraus bezahlt",
            renewsUpFrontColumn: "Danach Vorauszahlung", listHints: "Enter Kaufen  /")
    }

    /// The monthly plan's payment and whole commitment as `storefront products --json` prices
    /// them for `language`'s storefront.
    func monthlyPrices(_ storefront: StorefrontCLI, _ language: Language) throws -> (String, String) {
        let products = try storefront.array([
            "products", "--storefront", language.storefront, "--locale", language.locale,
        ])
        let product = try #require(products.first { $0["productID"] as? String == Self.proYearly })
        let plans = try #require(product["billingPlans"] as? [[String: Any]])
        let monthly = try #require(plans.first { $0["type"] as? String == "MONTHLY" })
        return (
            try #require(monthly["displayPrice"] as? String), try #require(monthly["commitmentDisplayPrice"] as? String)
        )
    }

    @Test(arguments: [Language.english, .german])
    func detailsBuySheetDisclosureAndMyPurchasesLiveTheCommitment(_ language: Language) async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let (payment, total) = try monthlyPrices(storefront, language)
        let tmux = try await TUITmux(width: 140, height: 40, directory: TUIEndToEndTests.repositoryRoot)
        defer { tmux.close() }
        try tmux.run(
            storefront.commandLine + " --storefront \(language.storefront) --locale \(language.locale); echo exit=$?")
        try await tmux.waitFor(text: language.name)

        // The one product, by its identifier.
        try tmux.keys("/")
        try await tmux.press("pro.yearly", literal: true, until: "(1/19)")
        try tmux.keys("Enter")

        // The details list the monthly plan beside the up-front price.
        try await tmux.press("d", until: language.plan(payment, total))
        try tmux.keys("Escape")

        // The sheet opens on the up-front plan; → picks the monthly one, with its price.
        try await tmux.press("Enter", until: language.upFront)
        try await tmux.press("Right", until: language.monthly)
        try await tmux.waitFor(text: language.plan(payment, total))

        // Enter: the account's first commitment, so the disclosure first; Esc goes back to the
        // sheet, and Enter twice agrees and buys.
        try await tmux.press("Enter", until: language.disclosure(payment, total))
        try await tmux.waitFor(text: language.disclosureTitle)
        try await tmux.press("Escape", until: language.monthly)
        #expect(
            (try storefront.object(["history"])["transactions"] as? [Any])?.isEmpty == true,
            "nothing bought before agreeing")
        try await tmux.press("Enter", until: language.disclosureTitle)
        try await tmux.press("Enter", until: language.purchased)
        let bought = try #require(
            (try storefront.object(["history"])["transactions"] as? [[String: Any]])?.last, "the purchase")
        #expect(bought["billingPlanType"] as? String == "MONTHLY")
        #expect((bought["commitmentInfo"] as? [String: Any])?["billingPeriodNumber"] as? Int == 1, "\(bought)")

        // My Purchases → Subscriptions: the first payment of 12, renewing into a new commitment.
        // (Esc closes the purchase's sheet if it still shows Done, else clears the filter; the
        // list's key hints show once no window is open.)
        try tmux.keys("Escape")
        try await tmux.waitFor(text: language.listHints)
        try tmux.keys("p")
        try tmux.keys("Tab")
        try tmux.keys("Tab")
        try await tmux.waitFor(text: language.firstPayment)
        try await tmux.waitFor(text: language.renewsMonthly)

        // r: the choice, the current one marked; ↑ Enter: the up-front plan from the commitment's end.
        try await tmux.press("r", until: language.choiceTitle)
        try await tmux.press("Up", "Enter", until: language.renewsUpFront)
        try await tmux.waitFor(text: language.renewsUpFrontColumn)
        let subscription = try #require(try storefront.array(["store", "subscriptions"]).first)
        #expect(subscription["renewalBillingPlanType"] as? String == "BILLED_UPFRONT", "\(subscription)")
        #expect(subscription["autoRenewProductID"] as? String == Self.proYearly, "\(subscription)")

        try await tmux.press("Escape", "q", until: "exit=0")
    }
}
