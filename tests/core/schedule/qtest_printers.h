#pragma once
// QCOMPARE for the scheduler's enums. QCOMPARE itself cannot be used on them: its unqualified
// toString() call finds our toString(enum) → string_view by argument-dependent lookup, which
// QTest cannot print. Comparing the names gives readable failures.
#include <QtTest>

#include <string>

#include "core/schedule/layer_schedule.h"

namespace QTest {
template <>
inline char* toString(const std::string& v) {
    return qstrdup(v.c_str());
}
}  // namespace QTest

#define QCOMPARE_ENUM(actual, expected) \
    QCOMPARE(std::string(toString(actual)), std::string(toString(expected)))
