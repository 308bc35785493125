// Streaming protobuf walker for ONNX files (onnx_wire_reader.h). The field numbers are those of
// onnx.proto (ONNX 1.12); unknown fields are copied through unchanged, so newer files keep
// whatever the protobuf parser understands.
#include "core/importers/onnx_wire_reader.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>
#include <system_error>

namespace tandem::core::importers {

namespace {

enum class Message { Model, Graph, Node, Attribute, Tensor, SparseTensor, Function, Training };

// Which fields of each message hold a message we must walk into (everything that can contain a
// TensorProto); other fields are copied verbatim.
std::optional<Message> childMessage(Message parent, std::uint64_t field) {
    switch (parent) {
        case Message::Model:
            if (field == 7) return Message::Graph;
            if (field == 20) return Message::Training;
            if (field == 25) return Message::Function;
            break;
        case Message::Graph:
            if (field == 1) return Message::Node;
            if (field == 5) return Message::Tensor;
            if (field == 15) return Message::SparseTensor;
            break;
        case Message::Node:
            if (field == 5) return Message::Attribute;
            break;
        case Message::Attribute:
            if (field == 5 || field == 10) return Message::Tensor;
            if (field == 6 || field == 11) return Message::Graph;
            if (field == 22 || field == 23) return Message::SparseTensor;
            break;
        case Message::SparseTensor:
            if (field == 1 || field == 2) return Message::Tensor;
            break;
        case Message::Function:
            if (field == 7) return Message::Node;
            break;
        case Message::Training:
            if (field == 1 || field == 2) return Message::Graph;
            break;
        case Message::Tensor:
            break;
    }
    return std::nullopt;
}

// TensorProto payload fields: float_data, int32_data, string_data, int64_data, raw_data,
// double_data, uint64_data.
bool isPayloadField(std::uint64_t field) {
    return field == 4 || field == 5 || field == 6 || field == 7 || field == 9 || field == 10 ||
           field == 11;
}

// TensorProto.DataType values of integer and bool tensors.
bool isIntegerType(std::int64_t type) {
    constexpr std::array<std::int64_t, 9> types{2, 3, 4, 5, 6, 7, 9, 12, 13};
    for (std::int64_t t : types)
        if (t == type) return true;
    return false;
}

void putVarint(std::string& out, std::uint64_t value) {
    while (value >= 0x80) {
        out.push_back(char(value | 0x80));
        value >>= 7;
    }
    out.push_back(char(value));
}

struct WireError {
    std::string message;
};

// Buffered reader over a FILE* with absolute 64-bit positions; skips seek.
class FileInput {
public:
    FileInput(std::FILE* file, std::int64_t size) : file_(file), size_(size) {}

    std::int64_t position() const { return position_; }
    std::int64_t size() const { return size_; }

    [[noreturn]] void fail(const std::string& problem) const {
        throw WireError{"malformed protobuf at byte " + std::to_string(position_) + " of " +
                        std::to_string(size_) + ": " + problem};
    }

    unsigned char byte(std::int64_t end) {
        if (position_ >= end) fail("a field runs past the end of its message or of the file");
        if (next_ == filled_) refill();
        ++position_;
        return buffer_[next_++];
    }

    std::uint64_t varint(std::int64_t end) {
        std::uint64_t value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            const unsigned char b = byte(end);
            value |= std::uint64_t(b & 0x7F) << shift;
            if ((b & 0x80) == 0) return value;
        }
        fail("a varint is longer than 10 bytes");
    }

    void copy(std::int64_t count, std::int64_t end, std::string& out) {
        if (count > end - position_) fail("a length runs past the end of its message");
        while (count > 0) {
            if (next_ == filled_) refill();
            const std::int64_t take = std::min<std::int64_t>(count, std::int64_t(filled_ - next_));
            out.append(reinterpret_cast<const char*>(buffer_.data() + next_), std::size_t(take));
            next_ += std::size_t(take);
            position_ += take;
            count -= take;
        }
    }

    void skip(std::int64_t count, std::int64_t end) {
        if (count > end - position_) fail("a length runs past the end of its message");
        const std::int64_t buffered = std::int64_t(filled_ - next_);
        if (count <= buffered) {
            next_ += std::size_t(count);
        } else {
            if (fseeko(file_, off_t(position_ + count), SEEK_SET) != 0)
                fail("cannot seek: " + std::generic_category().message(errno));
            next_ = filled_ = 0;
        }
        position_ += count;
    }

private:
    void refill() {
        filled_ = std::fread(buffer_.data(), 1, buffer_.size(), file_);
        next_ = 0;
        if (filled_ == 0) fail("the file ends early (truncated?)");
    }

    std::FILE* file_;
    std::int64_t size_;
    std::int64_t position_ = 0;
    std::array<unsigned char, 1 << 16> buffer_{};
    std::size_t next_ = 0;
    std::size_t filled_ = 0;
};

// What one TensorProto being copied has shown so far: its name and data type, and where its
// raw_data was skipped.
struct TensorNotes {
    std::string name;
    std::int64_t dataType = -1;
    std::int64_t rawOffset = -1;
    std::int64_t rawBytes = 0;
};

class StructureCopier {
public:
    StructureCopier(FileInput& in, const OnnxWireLimits& limits) : in_(in), limits_(limits) {}

    std::int64_t skipped() const { return skipped_; }
    std::vector<OnnxRawPayload>& payloads() { return payloads_; }

    // Copies the fields of one message ending at absolute offset `end` into `out`.
    void message(Message kind, std::int64_t end, std::string& out, int depth,
                 TensorNotes* notes = nullptr) {
        if (depth > limits_.maxDepth)
            in_.fail("messages are nested more than " + std::to_string(limits_.maxDepth) + " deep");
        std::int64_t dataType = -1;  // TensorProto.data_type once seen
        while (in_.position() < end) {
            const std::uint64_t tag = in_.varint(end);
            const std::uint64_t field = tag >> 3;
            const unsigned wire = unsigned(tag & 7);
            if (field == 0) in_.fail("field number 0");
            switch (wire) {
                case 0: {
                    const std::uint64_t value = in_.varint(end);
                    if (kind == Message::Tensor && field == 2) {
                        dataType = std::int64_t(value);
                        if (notes) notes->dataType = dataType;
                    }
                    putVarint(out, tag);
                    putVarint(out, value);
                    break;
                }
                case 1:
                case 5:
                    putVarint(out, tag);
                    in_.copy(wire == 1 ? 8 : 4, end, out);
                    break;
                case 2:
                    lengthDelimited(kind, tag, end, dataType, out, depth, notes);
                    break;
                default:
                    in_.fail("wire type " + std::to_string(wire) + " (field " +
                             std::to_string(field) + ") is not used by ONNX");
            }
            budget(out);
        }
    }

private:
    void lengthDelimited(Message kind, std::uint64_t tag, std::int64_t end, std::int64_t dataType,
                         std::string& out, int depth, TensorNotes* notes) {
        const std::uint64_t field = tag >> 3;
        const std::uint64_t length = in_.varint(end);
        if (length > std::uint64_t(end - in_.position()))
            in_.fail("field " + std::to_string(field) + " claims " + std::to_string(length) +
                     " bytes but only " + std::to_string(end - in_.position()) + " remain");
        const auto bytes = std::int64_t(length);
        if (const auto child = childMessage(kind, field)) {
            std::string inner;
            // An initializer of the main graph (ModelProto.graph at depth 1, field 5).
            const bool initializer = kind == Message::Graph && field == 5 && depth == 1;
            TensorNotes tensor;
            message(*child, in_.position() + bytes, inner, depth + 1,
                    initializer ? &tensor : nullptr);
            if (initializer && tensor.rawOffset >= 0 && !tensor.name.empty())
                payloads_.push_back(
                    {std::move(tensor.name), tensor.dataType, tensor.rawOffset, tensor.rawBytes});
            putVarint(out, tag);
            putVarint(out, inner.size());
            out += inner;
            return;
        }
        if (kind == Message::Tensor && isPayloadField(field)) {
            const bool keep = bytes <= limits_.keepAnyPayloadBytes ||
                              (isIntegerType(dataType) && bytes <= limits_.keepIntegerPayloadBytes);
            if (!keep) {
                if (notes && field == 9) notes->rawOffset = in_.position(), notes->rawBytes = bytes;
                in_.skip(bytes, end);
                skipped_ += bytes;
                return;
            }
        }
        if (std::int64_t(out.size()) + bytes > limits_.maxStructureBytes) budgetExceeded();
        putVarint(out, tag);
        putVarint(out, length);
        in_.copy(bytes, end, out);
        if (notes && kind == Message::Tensor && field == 8)  // TensorProto.name
            notes->name = out.substr(out.size() - std::size_t(bytes));
    }

    void budget(const std::string& out) const {
        if (std::int64_t(out.size()) > limits_.maxStructureBytes) budgetExceeded();
    }
    [[noreturn]] void budgetExceeded() const {
        in_.fail("the graph structure (without tensor data) exceeds " +
                 std::to_string(limits_.maxStructureBytes >> 20) + " MiB");
    }

    FileInput& in_;
    const OnnxWireLimits& limits_;
    std::int64_t skipped_ = 0;
    std::vector<OnnxRawPayload> payloads_;
};

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

Expected<OnnxStructure> readOnnxStructure(const std::filesystem::path& path,
                                          const OnnxWireLimits& limits) {
    const std::string name = path.string();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return Error{name + ": is a directory, not an ONNX file"};
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return Error{name + ": cannot read the ONNX file: " + ec.message()};
    if (size == 0) return Error{name + ": the ONNX file is empty (0 bytes)"};
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file) return Error{name + ": cannot open the ONNX file for reading"};
    OnnxStructure result;
    result.fileBytes = std::int64_t(size);
    FileInput input(file.get(), result.fileBytes);
    StructureCopier copier(input, limits);
    try {
        copier.message(Message::Model, result.fileBytes, result.bytes, 0);
    } catch (const WireError& e) {
        return Error{name + ": not a valid ONNX model: " + e.message};
    } catch (const std::bad_alloc&) {
        return Error{name + ": not a valid ONNX model: out of memory while reading its structure"};
    }
    result.skippedPayloadBytes = copier.skipped();
    result.initializerPayloads = std::move(copier.payloads());
    return result;
}

}  // namespace tandem::core::importers
