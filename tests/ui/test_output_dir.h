#pragma once
// Where the UI tests save what they draw (screenshots, exports): one fresh QTemporaryDir per
// test process, removed when the process ends, so a test run leaves nothing behind and runs in
// parallel never write over each other's files. The images are worth a look after a change:
// with TANDEM_TEST_KEEP_PNG set, the folder is kept and its path printed once.
#include <QCoreApplication>
#include <QDir>
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>
#include <memory>

namespace tandem::test {

// The path of `fileName` in this process's output folder (created on first use; an empty
// folder path, so every save fails, if it cannot be created).
inline QString outputPath(const QString& fileName) {
    static const std::unique_ptr<QTemporaryDir> dir = [] {
        auto d = std::make_unique<QTemporaryDir>(
            QDir::tempPath() + "/tandem-" + QCoreApplication::applicationName() + "-XXXXXX");
        const bool keep = qEnvironmentVariableIsSet("TANDEM_TEST_KEEP_PNG");
        d->setAutoRemove(!keep);
        if (!d->isValid())
            qWarning("cannot create a folder for test images: %s", qPrintable(d->errorString()));
        else if (keep)
            qInfo("TANDEM_TEST_KEEP_PNG: images of this run are kept in %s", qPrintable(d->path()));
        return d;
    }();
    return dir->isValid() ? dir->filePath(fileName) : QString();
}

}  // namespace tandem::test
