import InferenceEngine

/// llama.cpp's two CPU attention kernels timed with a model's attention shape on this machine,
/// one layer at a time, over the workload a context's choice weighs
/// (`AttentionKernel.secondsPerRow`): the figure behind the kernel its contexts use.
struct AttentionFigure {
  let shape: AttentionKernel.Shape
  let runs: Int

  func measure() -> FigureReport {
    var flash: [Double] = []
    var plain: [Double] = []
    for _ in 0..<max(runs, 1) {
      let seconds = AttentionKernel.secondsPerRow(for: shape, threads: CPUTopology.physicalCores)
      flash.append((seconds[.flash] ?? .infinity) * 1000)
      plain.append((seconds[.plain] ?? .infinity) * 1000)
    }
    let ours = Measurements(values: plain)
    let reference = Measurements(values: flash)
    let chosen = AttentionKernel.measured(for: shape, threads: CPUTopology.physicalCores)
    return FigureReport(
      id: "attention",
      figure:
        "one layer's attention per query row, plain kernel (ours) against flash attention (reference); ratio flash / plain",
      unit: "ms", ours: ours, reference: reference, ratio: reference.median / max(ours.median, 1e-12), target: "—",
      pass: true,
      notes: [
        "shape":
          "\(shape.heads) heads, \(shape.keyValueHeads) cache heads, key \(shape.keySize), value \(shape.valueSize)",
        "chosen": chosen.rawValue,
      ])
  }
}
