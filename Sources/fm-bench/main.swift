import Foundation

print("fm-bench")
