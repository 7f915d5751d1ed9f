import Foundation

MaskBench(arguments: CommandLine.arguments).run()
