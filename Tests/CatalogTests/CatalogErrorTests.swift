import Testing

@testable import Catalog

@Suite struct CatalogErrorTests {
    @Test func descriptionNamesFilePathAndProblem() {
        let e = CatalogError(file: "A.storekit", path: "$.products[0].productID", problem: "missing")
        #expect(e.description == "A.storekit: $.products[0].productID: missing")
    }
}
