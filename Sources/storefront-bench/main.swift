import Foundation

print("storefront-bench: no benchmarks yet")
