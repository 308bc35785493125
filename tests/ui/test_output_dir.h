#pragma once
// Where the UI tests write: one fresh QTemporaryDir per test process, removed when the process
// ends, so a test run leaves nothing behind and runs in parallel never write over each other's
// files. outputPath() names files in it for screenshots and exports (worth a look after a
// change: with TANDEM_TEST_KEEP_PNG set, the folder is kept and its path printed once).
// isolateUserFolders() moves the per-user folders that QSettings and QStandardPaths write to
// (recent projects, user presets) into it as well, so tests never touch the home folder.
#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>
#include <memory>

namespace tandem::test {

// This process's folder (created on first use); an empty path, so every write fails, if it
// cannot be created.
inline QString outputDir() {
    static const std::unique_ptr<QTemporaryDir> dir = [] {
        auto d = std::make_unique<QTemporaryDir>(QDir::tempPath() + "/tandem-" +
                                                 QCoreApplication::applicationName() + "-XXXXXX");
        const bool keep = qEnvironmentVariableIsSet("TANDEM_TEST_KEEP_PNG");
        d->setAutoRemove(!keep);
        if (!d->isValid())
            qWarning("cannot create a folder for test output: %s", qPrintable(d->errorString()));
        else if (keep)
            qInfo("TANDEM_TEST_KEEP_PNG: images of this run are kept in %s", qPrintable(d->path()));
        return d;
    }();
    return dir->isValid() ? dir->path() : QString();
}

// The path of `fileName` in this process's folder.
inline QString outputPath(const QString& fileName) {
    const QString dir = outputDir();
    return dir.isEmpty() ? QString() : dir + "/" + fileName;
}

// Call before the first QSettings or QStandardPaths use (initTestCase): user settings, data and
// cache then live under outputDir()/home, not in the home folder.
inline void isolateUserFolders() {
    const QString home = outputDir() + "/home";
    for (const char* sub : {"config", "data", "cache"}) QDir().mkpath(home + "/" + sub);
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home + "/config"));
    qputenv("XDG_DATA_HOME", QFile::encodeName(home + "/data"));
    qputenv("XDG_CACHE_HOME", QFile::encodeName(home + "/cache"));
    QStandardPaths::setTestModeEnabled(false);  // test mode would write to ~/.qttest
    for (auto format : {QSettings::NativeFormat, QSettings::IniFormat})
        QSettings::setPath(format, QSettings::UserScope, home + "/config");
}

}  // namespace tandem::test
