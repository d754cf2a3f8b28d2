/// Every `storefront` command, in help order. A new command is one file in `Commands/` plus one line here.
enum CommandRegistry {
    static let all: [any Command] = [
        ProductsCommand(),
        BuyCommand(),
        RedeemCommand(),
        CancelCommand(),
        RefundRequestCommand(),
        RestoreCommand(),
        SyncCommand(),
        HistoryCommand(),
        LatestCommand(),
        EntitlementsCommand(),
        ReceiptCommand(),
        TransactionCommand(),
        SignedCommand(),
        AppTransactionCommand(),
        StorefrontCommand(),
        DownloadsCommand(),
        StoreCommand(),
        ServeCommand(),
        CredentialsCommand(),
        HelpCommand(),
    ]
}
