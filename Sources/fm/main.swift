import FMCommandLine
import Foundation

exit(await FMTool.run(Array(CommandLine.arguments.dropFirst())))
