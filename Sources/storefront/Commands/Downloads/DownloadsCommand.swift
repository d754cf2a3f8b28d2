/// `storefront downloads [pause|resume|cancel ID]`: hosted-content downloads.
struct DownloadsCommand: VerbCommand {
    let name = "downloads"
    let summary = "List hosted-content downloads; pause, resume or cancel one."
    let verbs: [any Verb] = [
        DownloadsListVerb(), DownloadControlVerb.pause, DownloadControlVerb.resume, DownloadControlVerb.cancel,
    ]
    let discussion = """
        Products with hosted content (the Demo's level pack, sticker set and sound pack) are
        downloaded after 'storefront buy' or 'storefront restore', checked against the catalog's
        SHA-256 digests and installed into DATA/Content/PRODUCT_ID/VERSION/. The transaction is
        finished with the store only once its content is installed.

        The local store's 'bandwidth' and 'fail-downloads-at' settings ('storefront store set')
        shape the downloads. --json prints objects with id, transactionID, productID,
        contentVersion, state, bytesWritten, totalBytes, percent and, when known, contentPath
        and error.
        """
}
