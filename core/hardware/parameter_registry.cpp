#include "core/hardware/parameter_registry.h"

namespace tandem::core::hardware {

namespace {

constexpr double kKiB = 1024.0;
constexpr double kMiB = 1024.0 * kKiB;
constexpr double kGiB = 1024.0 * kMiB;
constexpr double kTiB = 1024.0 * kGiB;
// Bandwidths up to 1 PB/s: three orders of magnitude above any link or HBM in use today, far
// enough below overflow that products with sizes stay finite.
constexpr double kMaxBandwidth = 1e15;
// And down to 1 MB/s, slower than any memory or network an accelerator has been built with: a
// bandwidth near zero (5e-324 B/s is a positive double) turns every latency into infinity.
constexpr double kMinBandwidth = 1e6;

ParameterSpec integer(std::string_view key, std::string_view label, std::string_view unit,
                      std::string_view group, std::string_view description, double defaultValue,
                      double minValue, double maxValue) {
    ParameterSpec spec;
    spec.key = key;
    spec.label = label;
    spec.unit = unit;
    spec.group = group;
    spec.description = description;
    spec.kind = ParameterKind::Integer;
    spec.defaultValue = defaultValue;
    spec.minValue = minValue;
    spec.maxValue = maxValue;
    return spec;
}

ParameterSpec real(std::string_view key, std::string_view label, std::string_view unit,
                   std::string_view group, std::string_view description, double defaultValue,
                   double minValue, double maxValue, bool minExclusive) {
    ParameterSpec spec =
        integer(key, label, unit, group, description, defaultValue, minValue, maxValue);
    spec.kind = ParameterKind::Real;
    spec.minExclusive = minExclusive;
    return spec;
}

ParameterSpec searchedOnPowersOfTwo(ParameterSpec spec) {
    spec.searchPowerOfTwo = true;
    return spec;
}

ParameterSpec withDefault(double value, ParameterSpec spec) {
    spec.defaultValue = value;
    return spec;
}

// The operator estimates that read the field (ParameterSpec::costUse): operator_estimator.cpp's
// gemmCost, vectorCost and collectiveCost.
ParameterSpec costOf(std::uint8_t use, ParameterSpec spec) {
    spec.costUse = use;
    return spec;
}

ParameterSpec advanced(ParameterSpec spec) {
    spec.advanced = true;
    return spec;
}

// A fraction of an ideal rate: 1 is PHAZE's ideal, below 1 % is a typo (and would turn
// latencies into near-infinities).
ParameterSpec efficiency(std::string_view key, std::string_view label, std::string_view group,
                         std::string_view description, double defaultValue = 1.0) {
    return advanced(
        real(key, label, "fraction", group, description, defaultValue, 0.01, 1.0, false));
}

ParameterSpec choiceIn(std::string_view group, std::string_view key, std::string_view label,
                       std::string_view description, std::vector<std::string_view> names) {
    ParameterSpec spec =
        integer(key, label, "", group, description, 0, 0, double(names.size()) - 1);
    spec.kind = ParameterKind::Choice;
    spec.choices = std::move(names);
    return spec;
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
    return Status::success();
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
                "Share of the data-parallel gradient all-reduce hidden behind the backward pass; "
                "0: it runs after the backward pass (Megatron-LM 2021, PHAZE).",
                0, 0, 1, false))),
        },
        &checkCluster);
}

Status checkTraining(const TrainingConfig& training, std::string_view section) {
    if (training.microbatch > training.globalBatch)
        return Error{std::string(section) + ".microbatch = " + std::to_string(training.microbatch) +
                     " is larger than " + std::string(section) +
                     ".globalBatch = " + std::to_string(training.globalBatch) +
                     ": must be an integer in [1, globalBatch] (samples)"};
    return Status::success();
}

ParameterSpec choice(std::string_view key, std::string_view label, std::string_view description,
                     std::vector<std::string_view> names) {
    return choiceIn("Training", key, label, description, std::move(names));
}

ParameterRegistry<TrainingConfig> makeTrainingRegistry() {
    using T = TrainingConfig;
    const double maxBatch = double(1 << 24);
    return ParameterRegistry<T>(
        "training",
        {
            field<&T::globalBatch>(integer("globalBatch", "Global batch", "samples", "Training",
                                           "Samples per training iteration over all replicas.",
                                           4096, 1, maxBatch)),
            field<&T::microbatch>(integer(
                "microbatch", "Microbatch", "samples", "Training",
                "Samples per microbatch flowing through the pipeline; at most the global batch.", 1,
                1, maxBatch)),
            field<&T::sequenceLength>(
                integer("sequenceLength", "Sequence length", "tokens", "Training",
                        "Tokens per sample; 0 takes the model's own default.", 0, 0, 1 << 20)),
            field<&T::recompute>(choice(
                "recompute", "Recompute activations",
                "Recompute activations in the backward pass instead of storing them: off; on "
                "(Megatron's full recomputation: keep each layer's input, rerun its forward); "
                "selective (rerun only attention scores, softmax and dropout); auto (per "
                "pipeline stage, the fastest of off, selective and on that fits).",
                {toString(Recompute::Off), toString(Recompute::On), toString(Recompute::Auto),
                 toString(Recompute::Selective)})),
            field<&T::optimizer>(
                choice("optimizer", "Optimizer",
                       "Optimizer state kept in HBM: sgd (weights + gradients) or adam "
                       "(mixed-precision Adam, 16 bytes per parameter).",
                       {toString(Optimizer::Sgd), toString(Optimizer::Adam)})),
            field<&T::sequenceParallel>(choice(
                "sequenceParallel", "Sequence parallelism",
                "Megatron's sequence parallelism (Korthikanti et al. 2022): norms, dropout, bias "
                "and residual adds work on 1/t of the tokens and keep 1/t of their activations; "
                "each all-reduce becomes a reduce-scatter and an all-gather. Decoder "
                "transformers only.",
                {"off", "on"})),
            field<&T::interleave>(advanced(integer(
                "interleave", "Interleaved stages", "chunks", "Training",
                "Interleaved 1F1B (Narayanan et al. 2021): model chunks per pipeline device. "
                "The pipeline bubble shrinks V-fold, point-to-point traffic grows V-fold; 1 is "
                "plain 1F1B. Only for a given strategy (tandem-cli place --strategy); searches "
                "and placements need 1.",
                1, 1, 1024))),
            field<&T::zero>(advanced(integer(
                "zero", "ZeRO stage", "stage", "Training",
                "Shard over the data-parallel replicas (Rajbhandari et al. 2020): 0 nothing; 1 "
                "the optimizer state (Megatron-Core's distributed optimizer); 2 the gradients "
                "too, reduce-scattered every microbatch; 3 the parameters too, gathered layer "
                "by layer in every forward and backward pass (DeepSpeed ZeRO-3, FSDP). Only "
                "for a given strategy (tandem-cli place --strategy); searches need 0.",
                0, 0, 3))),
            field<&T::flashAttention>(choice(
                "flashAttention", "FlashAttention",
                "Each attention core (scores, mask, softmax, dropout, context) as one fused "
                "kernel that keeps its score tiles on chip (Dao et al. 2022; Megatron-Core with "
                "Transformer Engine): no s²-sized tensors in HBM or memory, a causal decoder "
                "skips its masked half. Off: the separate kernels of 2021-era Megatron-LM.",
                {"off", "on"})),
        },
        &checkTraining);
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

const ParameterRegistry<TrainingConfig>& trainingParameters() {
    static const ParameterRegistry<TrainingConfig> registry = makeTrainingRegistry();
    return registry;
}

}  // namespace tandem::core::hardware
