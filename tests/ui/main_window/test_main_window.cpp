// The main window under the offscreen platform: it opens on GPT-3 175B × TPUv4-like already
// evaluated, switching model and hardware re-evaluates, bad input is refused with a visible
// reason (nothing crashes), and the operator table is a well-behaved item model.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QTimer>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/main_window.h"

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void opensEvaluatedDefault() {
        tandem::ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
        QVERIFY(window.graph());
        QCOMPARE(QString::fromStdString(window.graph()->name()), QString("gpt3-175b"));
        QCOMPARE(window.graph()->layers().size(), std::size_t(98));
        QVERIFY(window.estimate()->totals.gemmForwardFlops > 0);
    }

    void operatorTableIsAValidModel() {
        tandem::ui::MainWindow window;
        auto* view = window.findChild<QTableView*>();
        QVERIFY(view);
        QAbstractItemModelTester tester(view->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        // One row per forward operator of the shown layer (layer.0 of GPT-3 at t = 8).
        QCOMPARE(std::size_t(view->model()->rowCount()),
                 window.graph()->layers()[1].graph->forward().size());
        QVERIFY(window.setModel("llama2-7b"));
        QVERIFY(window.setHardware("a100-like"));
        QCOMPARE(std::size_t(view->model()->rowCount()),
                 window.graph()->layers()[1].graph->forward().size());
        view->sortByColumn(2, Qt::DescendingOrder);  // the tester checks the proxy stays sane
    }

    void badInputShowsReason() {
        tandem::ui::MainWindow window;
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{ not json");
        file.close();
        QVERIFY(!window.setModel(path));
        QVERIFY(!window.lastError().isEmpty());
        QVERIFY(!window.graph());
        bool shown = false;
        for (auto* label : window.findChildren<QLabel*>())
            shown |= label->isVisibleTo(&window) && label->text() == window.lastError();
        QVERIFY2(shown, "the error is not shown in the window");
        // 25 heads of GPT-2 XL cannot be split 8 ways: refused with the reason.
        QVERIFY(!window.setModel("gpt2-xl"));
        QVERIFY2(window.lastError().contains("25"), qPrintable(window.lastError()));
        // Back to a valid combination: the window recovers.
        for (auto* box : window.findChildren<QSpinBox*>())
            if (box->value() == 8) box->setValue(1);
        QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
    }

    void malformedModelFilesOpenAnErrorDialog_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("fileName");
        QTest::newRow("0-byte json") << QByteArray() << "empty.json";
        QTest::newRow("truncated onnx") << QByteArray::fromHex("080712046f6e6e783affff")
                                        << "broken.onnx";
        QTest::newRow("unknown model_type") << QByteArray(R"({"model_type": "mamba"})")
                                            << "config.json";
        QTest::newRow("wrong field type")
            << QByteArray(R"({"model_type": "gpt2", "n_layer": "many", "n_embd": 64,
                             "n_head": 4, "n_positions": 32, "vocab_size": 100})")
            << "config.json";
    }

    void malformedModelFilesOpenAnErrorDialog() {
        QFETCH(QByteArray, content);
        QFETCH(QString, fileName);
        tandem::ui::MainWindow window;
        window.show();
        QTemporaryDir dir;
        const QString path = dir.filePath(fileName);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        QString dialogText;
        QTimer::singleShot(0, [&dialogText] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                dialogText = box->text();
                box->accept();
            }
        });
        QVERIFY(!window.openModelPath(path));
        QVERIFY2(!dialogText.isEmpty(), "no error dialog was shown");
        QCOMPARE(dialogText, window.lastError());
        QVERIFY(dialogText.contains(fileName));
        // A directory is refused the same way.
        QTimer::singleShot(0, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->accept();
        });
        QVERIFY(!window.openModelPath(dir.path()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
