#pragma once
// One accelerator chip in PHAZE's template: numTensorCores systolic arrays of
// tensorCoreRows × tensorCoreCols MACs, numVectorCores vector units of vectorCoreLanes lanes, one
// shared on-chip global buffer, off-chip HBM. Defaults are the TPUv4-like reference chip, with
// its documented efficiencies (docs/cost-model.md); ideal() is the same chip as PHAZE prices it.
// Ranges, units and descriptions of every field live in the parameter registry
// (parameter_registry.h); validate through it.
#include <cstdint>
#include <string_view>

namespace tandem::core::hardware {

// How operators share the chip (ARCHITECTURE.md §2.3). Overlapped, PHAZE's template: the layer
// scheduler runs tensor-core and vector-core operators at the same time on different cores.
// Serial: one operator at a time on all cores of its class, in topological order, as a GPU runs
// the kernels of one CUDA stream (its tensor cores and CUDA cores sit in the same SMs).
enum class OperatorExecution { Overlapped, Serial };

std::string_view toString(OperatorExecution e);

// The number format GEMMs run in (docs/cost-model.md, "Precision"). fp16 and bf16: the tensor
// cores' dense rate with 2-byte operands (the same on every chip here). fp8 as NVIDIA's
// Transformer Engine runs it: GEMMs at fp8MacRatio × that rate with 1-byte operands and 2-byte
// outputs, each GEMM's activation operand cast from bf16 in a pass of its own, and an fp8 copy of
// each weight and of its transpose kept beside the bf16 one; everything else stays bf16.
enum class Precision { Fp16, Bf16, Fp8 };

std::string_view toString(Precision p);

struct AcceleratorConfig {
    std::int64_t numTensorCores = 8;
    std::int64_t tensorCoreRows = 128;
    std::int64_t tensorCoreCols = 128;
    std::int64_t numVectorCores = 2;
    std::int64_t vectorCoreLanes = 128;
    std::int64_t globalBufferBytes = std::int64_t(128) << 20;
    std::int64_t hbmCapacityBytes = std::int64_t(32) << 30;
    double hbmBandwidthBytesPerSecond = 1.2e12;
    double clockHz = 1.05e9;
    std::int64_t bytesPerElement = 2;
    // Achievable, not peak, rates (docs/cost-model.md); ideal() has PHAZE's 1 and 0.
    double tensorCoreEfficiency = 0.85;     // fraction of the tensor-core peak a GEMM sustains
    double hbmEfficiency = 0.85;            // fraction of the HBM bandwidth kernels sustain
    double operatorOverheadSeconds = 1e-6;  // fixed cost per operator (kernel launch and tail)
    // Host time to issue one operator (framework dispatch and launch on the CPU). The device
    // cannot start an operator the host has not issued: a stream of operators takes at least
    // their count times this (ARCHITECTURE.md §2.4). 0: a compiled step issued as one program.
    double hostOverheadSeconds = 0;
    // Cycles to drain one row of a finished output tile from the tensor core's accumulators
    // while the next fold computes (gemm_cost_model.h): a fold takes at least
    // tensorCoreRows × this. 0: PHAZE's array, whose drain is free.
    double tensorCoreDrainCyclesPerRow = 1;
    // The output tile a tensor core computes per pass, in folds (arrays) along each side, and
    // the cycles each pass costs beyond its reduction (operand staging, storing the tile) that
    // the next pass does not hide. A systolic array: 1 and 0; a GPU SM: its thread-block tile.
    std::int64_t tensorCoreTileFolds = 1;
    double tensorCoreTileOverheadCycles = 0;
    OperatorExecution operatorExecution = OperatorExecution::Overlapped;
    // Parameter-sized tensors a separate kernel streams through HBM per microbatch to add each
    // layer's weight gradients to the accumulated ones (read the new gradient, read and write
    // the accumulator: 3), after the layer's backward pass. 0: the accumulation is fused into
    // the weight-gradient GEMM's epilogue, which a compute-bound GEMM hides (XLA's output
    // fusion, Megatron-LM's --gradient-accumulation-fusion), or not modelled (PHAZE).
    std::int64_t gradientAccumulationStreams = 0;
    // The format GEMMs run in, and what the tensor cores support: bf16 (1) or not (0: V100), and
    // fp8 at this many times the fp16 MAC rate (0: no fp8). Checked together by the registry.
    Precision precision = Precision::Bf16;
    std::int64_t bf16Supported = 1;
    double fp8MacRatio = 0;
    // The share of tensorCoreEfficiency an fp8 GEMM's main loop keeps against its own (fp8)
    // peak: a chip's measured best fp8 GEMM over its best bf16 one, each over its peak (H100
    // SXM 70.9 % against 80.3 %: 0.883); 1 where no fp8 ceiling is measured.
    double fp8EfficiencyRatio = 1;
    // Share of the compute cores a collective takes while it runs beside compute (overlapped
    // communication): a GPU's NCCL and userbuffers kernels occupy SMs (16 by Transformer
    // Engine's default); 0 when DMA engines move the data and the cores keep computing.
    double collectiveComputeShare = 0;
    // Results per cycle of each vector core's special-function unit (exp2, reciprocal), which a
    // FlashAttention kernel's softmax waits on: one exponential per score forward and one again
    // backward, issued between the kernel's two GEMMs rather than beside them (FlashAttention-2,
    // cuDNN's fused attention). GPU SMs: 16 (CUDA C++ Programming Guide, throughput of native
    // arithmetic instructions; Shah et al. 2024, FlashAttention-3: 3.9 TFLOP/s of special
    // functions on H100 SXM5). 0: none modelled, the softmax follows the vector-core table and
    // overlaps the array, as in PHAZE's template.
    double specialFunctionOpsPerCycle = 0;
    // Energy (docs/cost-model.md, "Energy"), read by core/energy only: what a unit of work
    // costs and what the die burns whatever it does. Defaults: the TPUv4-like chip.
    // One dense fp16/bf16 MAC, all-in at the core (datapath, operand registers, clocking): a
    // preset's is (TDP − static power) / (tensorCoreEfficiency × dense MAC rate), the chip
    // at its datasheet power running the GEMMs it sustains.
    double macEnergyPicojoules = 1.47;
    double fp8MacEnergyFraction = 0.5;  // an fp8 MAC over a bf16 one (one TDP, twice the rate)
    // A byte moved between the global buffer and the cores: the operand streams of each
    // GEMM's output tile, and every byte to or from HBM.
    double globalBufferEnergyPicojoulesPerByte = 1.0;
    double hbmEnergyPicojoulesPerByte = 31.2;  // HBM2: 3.9 pJ/bit (O'Connor et al. 2017)
    // Leakage and always-on clocking, per mm² of die, burnt whenever the device is in use.
    double staticPowerWattsPerSquareMillimetre = 0.07;
    // The die's area; 0: the area model's (area_model.h), as for every design-space chip.
    double dieAreaSquareMillimetres = 0;

    // Dense fp16/bf16 tensor-core peak over all cores, FLOP/s (2 FLOP per MAC per cycle): the
    // peak MFU is measured against, whatever the precision, as published MFU figures are.
    double peakFlopsPerSecond() const {
        return 2.0 * double(numTensorCores) * double(tensorCoreRows) * double(tensorCoreCols) *
               clockHz;
    }
    // The GEMMs' MAC rate over that peak: fp8MacRatio when they run in fp8, else 1.
    double gemmRateOverPeak() const {
        return precision == Precision::Fp8 && fp8MacRatio > 0 ? fp8MacRatio : 1.0;
    }
    // The shortest fold the tensor core's drain allows, cycles.
    double minFoldCycles() const { return double(tensorCoreRows) * tensorCoreDrainCyclesPerRow; }
    // What memory-bound kernels sustain: the HBM bandwidth times hbmEfficiency, B/s.
    double achievableHbmBandwidth() const { return hbmBandwidthBytesPerSecond * hbmEfficiency; }
    // The same chip executed as PHAZE models it: efficiencies 1, no overhead, overlapped
    // operators (what the phaze-compat cost model uses, whatever the description says).
    AcceleratorConfig ideal() const {
        AcceleratorConfig c = *this;
        c.tensorCoreEfficiency = 1.0;
        c.fp8EfficiencyRatio = 1.0;
        c.hbmEfficiency = 1.0;
        c.operatorOverheadSeconds = 0;
        c.hostOverheadSeconds = 0;
        c.tensorCoreDrainCyclesPerRow = 0;
        c.tensorCoreTileFolds = 1;
        c.tensorCoreTileOverheadCycles = 0;
        c.operatorExecution = OperatorExecution::Overlapped;
        c.gradientAccumulationStreams = 0;
        c.specialFunctionOpsPerCycle = 0;
        return c;
    }
    bool operator==(const AcceleratorConfig&) const = default;
};

}  // namespace tandem::core::hardware
