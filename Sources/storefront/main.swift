import Foundation
import StoreCore

let help = """
storefront \(StoreCoreInfo.version): an in-app purchase engine, a local App Store and a terminal storefront.

USAGE: storefront [COMMAND] [OPTIONS]
"""
print(help)
