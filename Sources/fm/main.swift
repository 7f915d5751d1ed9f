import FMCommandLine
import Foundation

let status = await FMTool.run(Array(CommandLine.arguments.dropFirst()))
// The process ends without running C++ static destructors: a model still loading or a cache
// still being prewarmed in the background would otherwise call into llama.cpp's backend
// registry while exit() destroys it (a crash on leaving a resumed chat at once).
// Every stdio stream is flushed first (nil: all of them).
fflush(nil)
_exit(status)
