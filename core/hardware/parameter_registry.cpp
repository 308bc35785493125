#include "core/hardware/parameter_registry.h"

#include "core/hardware/registry_fields.h"

namespace tandem::core::hardware {

using namespace registry_fields;

namespace {

// A rate where 0 means "no such unit": a positive one so small that the work it prices
// overflows (a reduction step or an exponential per thousands of cycles) is a typo.
Status checkUnitRate(const std::string& section, std::string_view key, double rate,
                     std::string_view unit, std::string_view per) {
    constexpr double kMinUnitRate = 0.001;
    if (!(rate > 0) || rate >= kMinUnitRate) return Status::success();
    return Error{section + "." + std::string(key) + " = " + formatNumber(rate) +
                 " is out of range: 0 (no " + std::string(unit) + ") or at least " +
                 formatNumber(kMinUnitRate) + " (" + std::string(per) + ")"};
}

// A precision the tensor cores cannot run is refused with the fields that say so.
Status checkAccelerator(const AcceleratorConfig& a, std::string_view section) {
    const std::string s(section);
    if (a.precision == Precision::Bf16 && a.bf16Supported == 0)
        return Error{s + ".precision = bf16 is not supported by this chip (" + s +
                     ".bf16Supported = no): use fp16"};
    if (a.precision == Precision::Fp8 && !(a.fp8MacRatio > 0))
        return Error{s + ".precision = fp8 needs tensor cores with an fp8 rate (" + s +
                     ".fp8MacRatio = 0 on this chip): use bf16 or fp16, or a chip with fp8"};
    if (Status st = checkUnitRate(s, "fp8MacRatio", a.fp8MacRatio, "fp8", "x fp16"); !st) return st;
    return checkUnitRate(s, "specialFunctionOpsPerCycle", a.specialFunctionOpsPerCycle,
                         "special-function unit", "per cycle");
}

ParameterRegistry<AcceleratorConfig> makeAcceleratorRegistry() {
    using A = AcceleratorConfig;
    ParameterSpec bytesPerElement =
        integer("bytesPerElement", "Bytes per element", "B", "Clock and precision",
                "Size of one activation or weight element: 2 for fp16/bf16, 4 for fp32.", 2, 1, 8);
    // Number formats are 1, 2, 4 or 8 bytes wide; anything else is a typo.
    bytesPerElement.powerOfTwo = true;
    return ParameterRegistry<A>(
        "accelerator",
        {
            field<&A::numTensorCores>(costOf(
                kCostOfGemm,
                searchedOnPowersOfTwo(integer(
                    "numTensorCores", "Tensor cores", "cores", "Tensor cores",
                    "Systolic-array cores for GEMMs; an operator runs on one or on all of them.", 8,
                    1, 65536)))),
            field<&A::tensorCoreRows>(costOf(
                kCostOfGemm,
                searchedOnPowersOfTwo(integer(
                    "tensorCoreRows", "Tensor core rows", "PEs", "Tensor cores",
                    "Rows of multiply-accumulate units in each tensor core's systolic array.", 128,
                    1, 4096)))),
            field<&A::tensorCoreCols>(costOf(
                kCostOfGemm,
                searchedOnPowersOfTwo(integer(
                    "tensorCoreCols", "Tensor core columns", "PEs", "Tensor cores",
                    "Columns of multiply-accumulate units in each tensor core's systolic array.",
                    128, 1, 4096)))),
            field<&A::numVectorCores>(
                costOf(kCostOfVector,
                       searchedOnPowersOfTwo(integer(
                           "numVectorCores", "Vector cores", "cores", "Vector cores",
                           "Vector units for element-wise ops, softmax, norms and reductions.", 2,
                           1, 65536)))),
            field<&A::vectorCoreLanes>(
                costOf(kCostOfVector,
                       searchedOnPowersOfTwo(integer(
                           "vectorCoreLanes", "Vector core lanes", "lanes", "Vector cores",
                           "SIMD lanes per vector core: elements processed per cycle and core.",
                           128, 1, 4096)))),
            field<&A::globalBufferBytes>(costOf(
                kCostOfGemm,
                searchedOnPowersOfTwo(integer(
                    "globalBufferBytes", "Global buffer", "B", "Memory",
                    "On-chip SRAM shared by all cores; GEMM operands that do not fit are re-read "
                    "from HBM.",
                    128 * kMiB, kKiB, 64 * kGiB)))),
            field<&A::hbmCapacityBytes>(
                integer("hbmCapacityBytes", "HBM capacity", "B", "Memory",
                        "Off-chip memory per device; weights, optimizer state and activations of a "
                        "pipeline stage must fit.",
                        32 * kGiB, kMiB, 16 * kTiB)),
            field<&A::hbmBandwidthBytesPerSecond>(
                costOf(kCostOfGemm | kCostOfVector,
                       real("hbmBandwidthBytesPerSecond", "HBM bandwidth", "B/s", "Memory",
                            "Off-chip memory bandwidth that bounds memory-bound operators.", 1.2e12,
                            kMinBandwidth, kMaxBandwidth, false))),
            field<&A::clockHz>(costOf(
                kCostOfGemm | kCostOfVector,
                real("clockHz", "Clock", "Hz", "Clock and precision",
                     "Core clock frequency; one MAC per PE per cycle.", 1.05e9, 1e6, 1e10, false))),
            field<&A::bytesPerElement>(
                costOf(kCostOfGemm | kCostOfVector, advanced(bytesPerElement))),
            field<&A::tensorCoreEfficiency>(costOf(
                kCostOfGemm,
                efficiency(
                    "tensorCoreEfficiency", "Tensor-core efficiency", "Efficiency",
                    "Fraction of the tensor cores' peak MAC rate a GEMM sustains once tiles and "
                    "waves "
                    "are counted (instruction issue, operand staging, clock under load); 1 is "
                    "PHAZE's ideal array.",
                    0.85))),
            field<&A::tensorCoreDrainCyclesPerRow>(costOf(
                kCostOfGemm,
                advanced(real(
                    "tensorCoreDrainCyclesPerRow", "Tensor-core drain", "cycles/row", "Efficiency",
                    "Cycles to move one row of a finished output tile out of a tensor core's "
                    "accumulators while the next tile computes; a tile with fewer reduction steps "
                    "than rows x this waits for the drain. 0: free drain (PHAZE).",
                    1, 0, 64, false)))),
            field<&A::tensorCoreTileFolds>(costOf(
                kCostOfGemm,
                advanced(integer(
                    "tensorCoreTileFolds", "Tensor-core tile", "arrays", "Efficiency",
                    "Output tile a tensor core computes per pass, in arrays along each side: 1 for "
                    "a systolic array; a GPU SM's thread-block tile (128x128 outputs on an SM "
                    "worth "
                    "a 32x32 array is 4). GEMMs are quantised to whole tiles.",
                    1, 1, 64)))),
            field<&A::tensorCoreTileOverheadCycles>(costOf(
                kCostOfGemm,
                advanced(real(
                    "tensorCoreTileOverheadCycles", "Tensor-core tile overhead", "cycles",
                    "Efficiency",
                    "Cycles each tile pass costs beyond its reduction steps that the next pass "
                    "does "
                    "not hide: staging its first operands and storing the finished tile. 0: fully "
                    "overlapped (PHAZE).",
                    0, 0, 1e6, false)))),
            field<&A::hbmEfficiency>(costOf(
                kCostOfGemm | kCostOfVector,
                efficiency(
                    "hbmEfficiency", "HBM efficiency",
                    "Efficiency",
                    "Fraction of the HBM bandwidth that memory-bound operators (norms, softmax, "
                    "dropout, activations, the optimizer step) and GEMM operand traffic sustain; 1 "
                    "is "
                    "ideal.",
                    0.85))),
            field<&A::operatorOverheadSeconds>(costOf(
                kCostOfGemm | kCostOfVector | kCostOfCollective,
                advanced(real("operatorOverheadSeconds", "Operator overhead", "s", "Efficiency",
                              "Fixed time every operator costs beyond its work: a GPU kernel's "
                              "launch gap and "
                              "tail; 0 is PHAZE's ideal.",
                              1e-6, 0, 1e-3, false)))),
            field<&A::hostOverheadSeconds>(advanced(real(
                "hostOverheadSeconds", "Host overhead", "s", "Efficiency",
                "Host time to issue one operator (the framework's dispatch and the kernel launch "
                "on the CPU); the device waits when its operators are shorter. 0: the step is "
                "compiled and issued as one program (XLA, CUDA graphs).",
                0, 0, 1e-2, false))),
            field<&A::operatorExecution>(advanced(choiceIn(
                "Efficiency", "operatorExecution", "Operator execution",
                "overlapped: tensor-core and vector-core operators of a layer run at the same time "
                "on different cores (PHAZE's template); serial: one operator at a time on all "
                "cores of its class, as a GPU runs the kernels of one stream.",
                {toString(OperatorExecution::Overlapped), toString(OperatorExecution::Serial)}))),
            field<&A::gradientAccumulationStreams>(advanced(integer(
                "gradientAccumulationStreams", "Gradient accumulation", "tensors", "Efficiency",
                "Parameter-sized tensors a separate kernel streams through HBM per microbatch to "
                "add the weight gradients to the accumulated ones, after each layer's backward "
                "pass: 3 for PyTorch's and Megatron-LM's unfused add (read the new gradient, "
                "read and write the accumulator); 0 when the add is fused into the "
                "weight-gradient GEMM (XLA, --gradient-accumulation-fusion).",
                0, 0, 16))),
            field<&A::precision>(costOf(
                kCostOfGemm,
                advanced(withDefault(double(Precision::Bf16),
                                     choiceIn("Clock and precision", "precision", "Precision",
                                              "Number format of the GEMMs: fp16 or bf16 at the "
                                              "tensor cores' dense rate; fp8 "
                                              "as Transformer Engine runs it (fp8 GEMMs at the fp8 "
                                              "rate, activation casts, "
                                              "fp8 weight copies; everything else bf16).",
                                              {toString(Precision::Fp16), toString(Precision::Bf16),
                                               toString(Precision::Fp8)}))))),
            field<&A::bf16Supported>(advanced(withDefault(
                1, choiceIn("Clock and precision", "bf16Supported", "bf16 support",
                            "Whether the tensor cores take bf16 operands (no: V100 and older, "
                            "fp16 only).",
                            {"no", "yes"})))),
            field<&A::fp8MacRatio>(
                costOf(kCostOfGemm,
                       advanced(real("fp8MacRatio", "fp8 rate", "x fp16", "Clock and precision",
                                     "fp8 MACs per cycle over fp16 ones: 2 on H100, H200, B200 and "
                                     "MI300X; 0 when the tensor cores have no fp8.",
                                     0, 0, 8, false)))),
            field<&A::fp8EfficiencyRatio>(costOf(
                kCostOfGemm,
                efficiency("fp8EfficiencyRatio", "fp8 efficiency", "Efficiency",
                           "Share of the tensor-core efficiency an fp8 GEMM keeps against its "
                           "own, fp8MacRatio times higher, peak: the chip's measured best fp8 "
                           "GEMM over its best bf16 one, each over its peak (H100 SXM: 70.9 % "
                           "against 80.3 %, 0.883); 1 where no fp8 ceiling is measured.",
                           1.0))),
            field<&A::collectiveComputeShare>(advanced(real(
                "collectiveComputeShare", "Collective's share of cores", "fraction", "Efficiency",
                "Share of the compute cores a collective occupies while it overlaps compute "
                "(--overlap-grad-reduce, --overlap-param-gather, --tp-comm-overlap): the "
                "overlapped "
                "GEMMs lose that share while it runs. GPUs: 16 SMs (NCCL's channels, Transformer "
                "Engine's userbuffers default); 0: DMA engines move the data.",
                0, 0, 0.9, false))),
            field<&A::specialFunctionOpsPerCycle>(costOf(
                kCostOfVector,
                advanced(real(
                    "specialFunctionOpsPerCycle", "Special-function rate", "per cycle",
                    "Vector cores",
                    "Exponentials (and reciprocals) each vector core's special-function unit "
                    "returns per cycle. A FlashAttention kernel's softmax waits on them between "
                    "its GEMMs: one per score forward, one backward. GPU SMs: 16 (CUDA "
                    "Programming Guide; 3.9 TFLOP/s on H100 SXM5). 0: the softmax runs on the "
                    "vector lanes beside the tensor cores, as in PHAZE's template.",
                    0, 0, 4096, false)))),
            field<&A::macEnergyPicojoules>(energy(
                "macEnergyPicojoules", "Energy per MAC", "pJ",
                "One dense fp16/bf16 multiply-accumulate, all-in at the core (datapath, operand "
                "registers, clocking). Presets: (TDP - static power) / (sustained share x dense "
                "MAC rate), the chip at its datasheet power running the GEMMs it sustains.",
                1.47, 1000)),
            field<&A::fp8MacEnergyFraction>(energy(
                "fp8MacEnergyFraction", "fp8 MAC energy", "x bf16",
                "Energy of an fp8 MAC over a bf16 one: 0.5 where the datasheet gives one TDP for "
                "twice the fp8 rate, 0.5 / fp8EfficiencyRatio where fp8 GEMMs sustain less of it.",
                0.5, 1)),
            field<&A::globalBufferEnergyPicojoulesPerByte>(
                energy("globalBufferEnergyPicojoulesPerByte", "Global buffer energy", "pJ/B",
                       "A byte moved between the global buffer and the cores: GEMM operand streams "
                       "(bytes per element / tile side, per MAC) and every HBM byte. ~1 pJ/B: "
                       "Horowitz's 45 nm SRAM figures (2.5-12.5 pJ/B) scaled to 7 nm.",
                       1.0, 1000)),
            field<&A::hbmEnergyPicojoulesPerByte>(energy(
                "hbmEnergyPicojoulesPerByte", "HBM energy", "pJ/B",
                "A byte read from or written to HBM: 31.2 pJ/B is HBM2's 3.9 pJ/bit (O'Connor et "
                "al., MICRO 2017).",
                31.2, 10000)),
            field<&A::staticPowerWattsPerSquareMillimetre>(energy(
                "staticPowerWattsPerSquareMillimetre", "Static power", "W/mm2",
                "Leakage and always-on clocking per mm2 of die, burnt while the device is in use: "
                "0.07 W/mm2 is an idle A100 (about 58 W over 826 mm2).",
                0.07, 10)),
            field<&A::dieAreaSquareMillimetres>(energy(
                "dieAreaSquareMillimetres", "Die area", "mm2",
                "Silicon area the static power is paid on; 0 takes the area model's (PHAZE's "
                "tables), as every design-space chip does.",
                0, 1e5)),
        },
        &checkAccelerator);
}

Status checkCluster(const ClusterConfig& cluster, std::string_view section) {
    if (cluster.devicesPerNode > cluster.devices)
        return Error{std::string(section) + ".devicesPerNode = " +
                     std::to_string(cluster.devicesPerNode) + " is larger than " +
                     std::string(section) + ".devices = " + std::to_string(cluster.devices) +
                     ": must be an integer in [1, devices] (devices)"};
    return Status::success();
}

ParameterRegistry<ClusterConfig> makeClusterRegistry() {
    using C = ClusterConfig;
    const double flatLink = 4 * kGiB;  // PHAZE's single chip-to-chip link
    return ParameterRegistry<C>(
        "cluster",
        {
            field<&C::devices>(integer("devices", "Devices", "devices", "Cluster",
                                       "Accelerators the model is placed on.", 1024, 1, 1e6)),
            field<&C::devicesPerNode>(
                costOf(kCostOfCollective,
                       integer("devicesPerNode", "Devices per node", "devices", "Cluster",
                               "Accelerators sharing the fast intra-node link; groups that fit in "
                               "a node use it.",
                               4, 1, 1e6))),
            field<&C::intraNodeBandwidthBytesPerSecond>(costOf(
                kCostOfCollective,
                real("intraNodeBandwidthBytesPerSecond", "Intra-node bandwidth", "B/s", "Cluster",
                     "Per-device link bandwidth between devices of the same node.", flatLink,
                     kMinBandwidth, kMaxBandwidth, false))),
            field<&C::interNodeBandwidthBytesPerSecond>(costOf(
                kCostOfCollective,
                real("interNodeBandwidthBytesPerSecond", "Inter-node bandwidth", "B/s", "Cluster",
                     "Per-device link bandwidth between devices of different nodes.", flatLink,
                     kMinBandwidth, kMaxBandwidth, false))),
            field<&C::hopLatencySeconds>(
                costOf(kCostOfCollective,
                       advanced(real("hopLatencySeconds", "Per-hop latency", "s", "Cluster",
                                     "Fixed latency of each ring step or point-to-point message.",
                                     0, 0, 1, false)))),
            field<&C::collectiveLatencySeconds>(costOf(
                kCostOfCollective,
                advanced(real(
                    "collectiveLatencySeconds", "Collective latency", "s", "Cluster",
                    "Fixed cost of one collective beyond its ring or tree steps: the collective "
                    "kernel's start and first handshake (NCCL's base latency); 0 is PHAZE's ideal "
                    "link.",
                    0, 0, 1, false)))),
            field<&C::collectiveEfficiency>(costOf(
                kCostOfCollective,
                efficiency(
                    "collectiveEfficiency", "Collective efficiency", "Efficiency",
                    "Fraction of a link's bandwidth that all-reduces and point-to-point transfers "
                    "sustain (NCCL's bus bandwidth over the link rate); 1 is PHAZE's ideal "
                    "link."))),
            field<&C::dataParallelOverlap>(advanced(real(
                "dataParallelOverlap", "Data-parallel overlap", "fraction", "Efficiency",
                "A further share of the data-parallel collectives hidden behind compute, beyond "
                "what --overlap-grad-reduce and --overlap-param-gather schedule; 0 in every "
                "preset (Megatron-LM 2021, PHAZE).",
                0, 0, 1, false))),
            field<&C::intraNodeLinkEnergyPicojoulesPerByte>(energy(
                "intraNodeLinkEnergyPicojoulesPerByte", "Intra-node link energy", "pJ/B",
                "A byte sent to a device of the same node: SerDes at both ends, ~5 pJ/bit for "
                "board-level links (NVLink, Infinity Fabric, ICI).",
                40, 1e5)),
            field<&C::interNodeLinkEnergyPicojoulesPerByte>(energy(
                "interNodeLinkEnergyPicojoulesPerByte", "Inter-node link energy", "pJ/B",
                "A byte sent to a device of another node: SerDes, the NICs and a switch hop, ~10 "
                "pJ/bit.",
                80, 1e5)),
        },
        &checkCluster);
}

}  // namespace

const ParameterRegistry<AcceleratorConfig>& acceleratorParameters() {
    static const ParameterRegistry<AcceleratorConfig> registry = makeAcceleratorRegistry();
    return registry;
}

const ParameterRegistry<ClusterConfig>& clusterParameters() {
    static const ParameterRegistry<ClusterConfig> registry = makeClusterRegistry();
    return registry;
}

}  // namespace tandem::core::hardware
