#pragma once
// Class-directed mutations of a valid JSON document, for test_cli_fuzz: each keeps the document
// well-formed where it can, so that the input reaches the reader's checks rather than stopping
// at the parser, and puts one kind of hostile value in it.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace json_fuzz {

enum class MutationClass { Deep = 1, Numbers = 2, Sizes = 3 };

class JsonMutator {
public:
    explicit JsonMutator(std::uint64_t seed) : rng_(seed) {}

    std::size_t below(std::size_t n) { return n == 0 ? 0 : std::size_t(rng_() % n); }

    std::string mutate(std::string s, MutationClass kind) {
        const int rounds = 1 + int(below(3));
        for (int r = 0; r < rounds; ++r) {
            switch (kind) {
                case MutationClass::Deep:
                    nest(s);
                    break;
                case MutationClass::Numbers:
                    replaceNumber(s, hugeNumbers());
                    break;
                case MutationClass::Sizes:
                    switch (below(4)) {
                        case 0:
                            longArray(s);
                            break;
                        case 1:
                            longString(s);
                            break;
                        default:
                            replaceNumber(s, boundaries());
                            break;
                    }
                    break;
            }
        }
        return s;
    }

private:
    struct Token {
        std::size_t start = 0;
        std::size_t length = 0;
    };

    // Values of the document outside strings: numbers, strings after a colon, arrays ("[" … "]").
    struct Tokens {
        std::vector<Token> numbers, strings, arrays, values;
    };

    static Tokens scan(const std::string& s) {
        Tokens t;
        std::vector<std::size_t> open;
        char previous = 0;  // the last structural character outside strings
        for (std::size_t i = 0; i < s.size(); ++i) {
            const char c = s[i];
            if (c == '"') {
                std::size_t j = i + 1;
                while (j < s.size() && s[j] != '"') j += s[j] == '\\' ? 2 : 1;
                const Token token{i, std::min(j, s.size() - 1) - i + 1};
                if (previous == ':' || previous == '[' || previous == ',') {
                    if (previous == ':') t.strings.push_back(token);
                    t.values.push_back(token);
                }
                i = j;
                previous = '"';
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                std::size_t j = i;
                while (j < s.size() &&
                       std::string_view("+-.0123456789eE").find(s[j]) != std::string_view::npos)
                    ++j;
                t.numbers.push_back({i, j - i});
                t.values.push_back({i, j - i});
                i = j - 1;
                previous = '0';
            } else if (c == '[') {
                open.push_back(i);
                previous = c;
            } else if (c == ']') {
                if (!open.empty()) {
                    t.arrays.push_back({open.back(), i - open.back() + 1});
                    t.values.push_back(t.arrays.back());
                    open.pop_back();
                }
                previous = c;
            } else if (c == ':' || c == ',' || c == '{' || c == '}') {
                previous = c;
            }
        }
        return t;
    }

    template <typename List>
    const Token* pick(const List& list) {
        return list.empty() ? nullptr : &list[below(list.size())];
    }

    // A value wrapped in 60 – 100,000 levels of arrays or of objects.
    void nest(std::string& s) {
        const Tokens t = scan(s);
        const Token* v = pick(t.values);
        if (!v) return;
        static const int depths[] = {60, 63, 64, 65, 200, 5000, 100000};
        const int depth = depths[below(std::size(depths))];
        const bool arrays = below(2) == 0;
        std::string open, close;
        for (int d = 0; d < depth; ++d) {
            open += arrays ? "[" : "{\"k\":";
            close += arrays ? "]" : "}";
        }
        s.insert(v->start + v->length, close);
        s.insert(v->start, open);
    }

    static const std::vector<std::string>& hugeNumbers() {
        static const std::vector<std::string> values = {"1e999",
                                                        "-1e999",
                                                        "1e308",
                                                        "-1e308",
                                                        "1.7976931348623157e308",
                                                        "5e-324",
                                                        "-5e-324",
                                                        "1e-400",
                                                        "-0",
                                                        "-0.0",
                                                        "0",
                                                        "18446744073709551616",
                                                        "18446744073709551615",
                                                        "-9223372036854775809",
                                                        "9223372036854775807",
                                                        "-9223372036854775808",
                                                        "123456789012345678901234567890",
                                                        "4294967296",
                                                        "2147483648",
                                                        "-2147483649",
                                                        "9007199254740993",
                                                        "0.1e-320",
                                                        "1E+300"};
        return values;
    }

    static const std::vector<std::string>& boundaries() {
        static const std::vector<std::string> values = {"1",
                                                        "2",
                                                        "3",
                                                        "7",
                                                        "63",
                                                        "64",
                                                        "65",
                                                        "256",
                                                        "257",
                                                        "1023",
                                                        "1024",
                                                        "1025",
                                                        "4096",
                                                        "10000",
                                                        "10001",
                                                        "65535",
                                                        "65536",
                                                        "100000",
                                                        "100001",
                                                        "1000000",
                                                        "1000001",
                                                        "1048576",
                                                        "1048577",
                                                        "16777216",
                                                        "16777217",
                                                        "2147483647",
                                                        "2147483648",
                                                        "4294967296",
                                                        "9007199254740992",
                                                        "9007199254740993",
                                                        "1e15",
                                                        "1000000000000000000",
                                                        "1e19",
                                                        "0.5",
                                                        "1.5",
                                                        "0.001"};
        return values;
    }

    void replaceNumber(std::string& s, const std::vector<std::string>& values) {
        const Tokens t = scan(s);
        const Token* n = pick(t.numbers);
        if (!n) return;
        s.replace(n->start, n->length, values[below(values.size())]);
    }

    // An array replaced by one of 65 – 100,000 entries (its first entry repeated, or counting).
    void longArray(std::string& s) {
        const Tokens t = scan(s);
        const Token* a = pick(t.arrays);
        if (!a) return;
        static const std::size_t lengths[] = {65, 1000, 100000};
        const std::size_t length = lengths[below(std::size(lengths))];
        std::string first = s.substr(a->start + 1, a->length - 2);
        int depth = 0;
        for (std::size_t i = 0; i < first.size(); ++i) {
            if (first[i] == '[' || first[i] == '{') ++depth;
            if (first[i] == ']' || first[i] == '}') --depth;
            if (first[i] == ',' && depth == 0) {
                first.resize(i);
                break;
            }
        }
        // Counting when the first entry is empty or long (100,000 copies of a megabyte string
        // would exhaust the test, not the reader).
        const bool counting = below(2) == 0 || first.size() > 200 ||
                              first.find_first_not_of(" \n") == std::string::npos;
        std::string array = "[";
        for (std::size_t i = 0; i < length; ++i)
            array += (i ? "," : "") + (counting ? std::to_string(i + 1) : first);
        s.replace(a->start, a->length, array + "]");
    }

    // A string value replaced by one of a megabyte (or of control characters).
    void longString(std::string& s) {
        const Tokens t = scan(s);
        const Token* v = pick(t.strings);
        if (!v) return;
        const std::string body =
            below(2) == 0 ? std::string(std::size_t(1) << 20, 'x') : std::string("\\u0000\\n\\t");
        s.replace(v->start, v->length, "\"" + body + "\"");
    }

    std::mt19937_64 rng_;
};

}  // namespace json_fuzz
