#include "core/importers/onnx_tied_weights.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <tuple>

namespace tandem::core::importers {

namespace {

constexpr std::int64_t kSignatureValues = 16;
constexpr int kSamples = 64;

// Bytes per element of the floating-point TensorProto.DataTypes (FLOAT, FLOAT16, DOUBLE,
// BFLOAT16); 0 for the others.
std::int64_t elementBytes(std::int64_t dataType) {
    switch (dataType) {
        case 1:
            return 4;
        case 10:
        case 16:
            return 2;
        case 11:
            return 8;
        default:
            return 0;
    }
}

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

// A 2-D weight whose elements can be read one by one from the file.
struct Matrix {
    const OnnxRawPayload* payload = nullptr;
    std::int64_t rows = 0, cols = 0, element = 0;
    std::string firstRow, firstColumn;  // up to kSignatureValues elements, raw bytes
};

class ElementReader {
public:
    explicit ElementReader(std::FILE* file) : file_(file) {}

    // The raw bytes of element (i, j); empty when the file cannot be read there.
    std::string at(const Matrix& m, std::int64_t i, std::int64_t j) {
        std::string bytes(std::size_t(m.element), '\0');
        const std::int64_t offset = m.payload->offset + (i * m.cols + j) * m.element;
        if (fseeko(file_, off_t(offset), SEEK_SET) != 0 ||
            std::fread(bytes.data(), 1, bytes.size(), file_) != bytes.size())
            return {};
        return bytes;
    }

private:
    std::FILE* file_;
};

// Same values at 64 pseudo-random positions, `transposed` comparing copy(i, j) with
// original(j, i); false when every sampled value of the copy is the same.
bool samplesAgree(ElementReader& in, const Matrix& copy, const Matrix& original, bool transposed) {
    std::mt19937_64 rng(std::uint64_t(copy.rows * 1000003 + copy.cols));
    std::string first;
    bool varied = false;
    for (int k = 0; k < kSamples; ++k) {
        const std::int64_t i = std::int64_t(rng() % std::uint64_t(copy.rows));
        const std::int64_t j = std::int64_t(rng() % std::uint64_t(copy.cols));
        const std::string a = in.at(copy, i, j);
        const std::string b = transposed ? in.at(original, j, i) : in.at(original, i, j);
        if (a.empty() || a != b) return false;
        if (k == 0) first = a;
        varied = varied || a != first;
    }
    return varied;
}

using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::string>;

}  // namespace

std::unordered_map<std::string, std::string> findTiedWeights(
    const std::filesystem::path& file, const std::vector<OnnxRawPayload>& payloads,
    const std::unordered_map<std::string, std::vector<std::int64_t>>& dims) {
    std::unordered_map<std::string, std::string> ties;
    std::unique_ptr<std::FILE, FileCloser> handle(std::fopen(file.c_str(), "rb"));
    if (!handle) return ties;
    ElementReader in(handle.get());
    // Earlier matrices by what a later copy's first row must equal: their first row (an
    // equal copy) or their first column (a transposed copy).
    std::map<Key, const Matrix*> byRow, byColumn;
    std::vector<std::unique_ptr<Matrix>> kept;
    for (const OnnxRawPayload& payload : payloads) {
        const auto shape = dims.find(payload.name);
        if (shape == dims.end() || shape->second.size() != 2) continue;
        auto m = std::make_unique<Matrix>();
        m->payload = &payload;
        m->rows = shape->second[0];
        m->cols = shape->second[1];
        m->element = elementBytes(payload.dataType);
        if (m->element == 0 || m->rows < 2 || m->cols < 2 ||
            payload.bytes != m->rows * m->cols * m->element)
            continue;
        for (std::int64_t j = 0; j < std::min(kSignatureValues, m->cols); ++j)
            m->firstRow += in.at(*m, 0, j);
        for (std::int64_t i = 0; i < std::min(kSignatureValues, m->rows); ++i)
            m->firstColumn += in.at(*m, i, 0);
        const Key mine{payload.dataType, m->rows, m->cols, m->firstRow};
        const Matrix* original = nullptr;
        if (const auto it = byColumn.find(mine);
            it != byColumn.end() && samplesAgree(in, *m, *it->second, true))
            original = it->second;
        else if (const auto eq = byRow.find(mine);
                 eq != byRow.end() && samplesAgree(in, *m, *eq->second, false))
            original = eq->second;
        if (original) {
            ties.emplace(payload.name, original->payload->name);
            continue;
        }
        // As an original: a transposed copy's first row is our first column.
        byColumn.emplace(Key{payload.dataType, m->cols, m->rows, m->firstColumn}, m.get());
        byRow.emplace(mine, m.get());
        kept.push_back(std::move(m));
    }
    return ties;
}

}  // namespace tandem::core::importers
