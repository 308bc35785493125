// The display formatters of core/common/units.h: one throughput formatter (samples/s with an SI
// prefix and three significant digits) for the status bar, charts and tables, and the rounding
// carry of every prefixed formatter (999.7 is "1.00 k", not the four-digit "1000").
#include <QtTest>
#include <cmath>
#include <limits>
#include <string>

#include "core/common/units.h"

using tandem::core::formatBytes;
using tandem::core::formatFrequency;
using tandem::core::formatRate;
using tandem::core::formatSeconds;
using tandem::core::formatThroughput;

namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void durationsInTheUnitAPersonCounts() {
        QCOMPARE(tandem::core::formatDuration(45), std::string("45 s"));
        QCOMPARE(tandem::core::formatDuration(699), std::string("11.7 min"));
        QCOMPARE(tandem::core::formatDuration(7200), std::string("2.00 h"));
    }
    void throughputHasPrefixAndThreeSignificantDigits_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        // The status bar's "2591.32 samples/s" and the charts' "2.59 ksamples/s" are one text.
        QTest::newRow("kilo") << 2591.32 << "2.59 ksamples/s";
        QTest::newRow("tens of kilo") << 25913.2 << "25.9 ksamples/s";
        QTest::newRow("mega") << 1.5e6 << "1.50 Msamples/s";
        QTest::newRow("hundreds") << 142.0 << "142 samples/s";
        QTest::newRow("tens") << 14.2 << "14.2 samples/s";
        QTest::newRow("ones") << 8.4 << "8.40 samples/s";
        QTest::newRow("below one") << 0.5 << "0.500 samples/s";
        QTest::newRow("hundredths") << 0.0123 << "0.0123 samples/s";
        QTest::newRow("zero") << 0.0 << "0 samples/s";
        QTest::newRow("carry to kilo") << 999.7 << "1.00 ksamples/s";
        QTest::newRow("carry to hundred") << 99.96 << "100 samples/s";
        QTest::newRow("carry to ten") << 9.996 << "10.0 samples/s";
        QTest::newRow("carry to one") << 0.9996 << "1.00 samples/s";
        QTest::newRow("infinite") << std::numeric_limits<double>::infinity() << "∞ samples/s";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "n/a";
    }
    void throughputHasPrefixAndThreeSignificantDigits() {
        QFETCH(double, value);
        QFETCH(QString, expected);
        QCOMPARE(q(formatThroughput(value)), expected);
    }

    void prefixedFormattersCarryTheRounding() {
        QCOMPARE(q(formatBytes(1048576)), QString("1.00 MiB"));
        QCOMPARE(q(formatBytes(87.4825 * 1024 * 1024 * 1024)), QString("87.5 GiB"));
        QCOMPARE(q(formatBytes(1023.7 * 1024)), QString("1.00 MiB"));
        QCOMPARE(q(formatRate(999.7e9, "FLOP")), QString("1.00 TFLOP/s"));
        QCOMPARE(q(formatFrequency(1.05e9)), QString("1.05 GHz"));
        QCOMPARE(q(formatFrequency(700e6)), QString("700 MHz"));
        QCOMPARE(q(formatFrequency(999.96e6)), QString("1.00 GHz"));
        QCOMPARE(q(formatSeconds(0.9996)), QString("1.00 s"));
        QCOMPARE(q(formatSeconds(0.09996)), QString("100 ms"));
    }

    // Issue 27, item 5: a value below what the smallest prefix shows is not "0.00 ps".
    void belowTheSmallestPrefixIsNearlyZero() {
        QCOMPARE(q(formatSeconds(2e-12)), QString("2.00 ps"));
        QCOMPARE(q(formatSeconds(3e-14)), QString("0.03 ps"));
        QCOMPARE(q(formatSeconds(1e-16)), QString("≈ 0 s"));
        QCOMPARE(q(formatSeconds(-3e-17)), QString("≈ 0 s"));
        QCOMPARE(q(formatBytes(0.001)), QString("≈ 0 B"));
        QCOMPARE(q(formatSeconds(0)), QString("0 s"));
    }

    void significantDigitsWithoutExponent() {
        QCOMPARE(tandem::core::formatSignificant(0.0117), std::string("0.0117"));
        QCOMPARE(tandem::core::formatSignificant(23.84), std::string("23.8"));
        QCOMPARE(tandem::core::formatSignificant(224.6), std::string("225"));
        QCOMPARE(tandem::core::formatSignificant(123456), std::string("123456"));
        QCOMPARE(tandem::core::formatSignificant(0.09996),
                 std::string("0.100"));  // the carry keeps 3 digits
        QCOMPARE(tandem::core::formatSignificant(9.996), std::string("10.0"));
        QCOMPARE(tandem::core::formatSignificant(-0.5), std::string("-0.500"));
        QCOMPARE(tandem::core::formatSignificant(0), std::string("0"));
        QCOMPARE(tandem::core::formatSignificant(std::nan("")), std::string("n/a"));
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "test_units.moc"
