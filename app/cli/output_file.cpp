#include "app/cli/output_file.h"

#include "core/common/text_file.h"

namespace tandem::cli {

core::Status writeOutputFile(const std::string& path, std::string_view content, std::ostream& out) {
    if (path == kStandardOutput) {
        out << content;
        if (!content.empty() && content.back() != '\n') out << '\n';
        out.flush();
        if (!out) return core::Error{"cannot write to standard output"};
        return core::Status::success();
    }
    return core::writeFileAtomically(path, content);
}

}  // namespace tandem::cli
