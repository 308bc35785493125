#pragma once
// The RunControl of one long CLI command (search, place, schedule). While it lives:
// - Ctrl+C (SIGINT) or SIGTERM cancels the work: the algorithms poll the control and stop
//   within a second; the command keeps what it can (a search writes the points that finished)
//   and exits with 128 + the signal number (130 for Ctrl+C). A second signal ends the process
//   at once, as usual.
// - Progress goes to standard error once the work has taken a second: on a terminal a line
//   rewritten every 200 ms, otherwise a line every 5 s (logs stay short); none when quiet.
// The signal handler only stores the signal number; a watcher thread turns it into cancel().
// The previous handlers come back when the object is destroyed.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "core/common/run_control.h"

namespace tandem::cli {

class CliRunControl {
public:
    // `command` prefixes the progress lines ("search: …"). A terminal is detected only when
    // `err` is std::cerr and standard error is a TTY.
    CliRunControl(std::string command, std::ostream& err, bool quiet);
    ~CliRunControl();
    CliRunControl(const CliRunControl&) = delete;
    CliRunControl& operator=(const CliRunControl&) = delete;

    core::RunControl& control() { return control_; }

    // The signal that interrupted the run (SIGINT, SIGTERM), or 0.
    int interruptedBy() const;
    // 128 + the signal: the exit code of an interrupted command.
    int interruptedExitCode() const { return 128 + interruptedBy(); }
    // "interrupted (Ctrl+C)" or "interrupted (SIGTERM)", for the command's message.
    std::string interruptedText() const;

    // Ends a rewritten progress line on a terminal, before the command prints its results.
    void endProgress();
    // Prints `line` on standard error now, from any thread and even when quiet: what the user
    // must learn while the work goes on (a checkpoint that cannot be written). A rewritten
    // progress line is ended first; the next progress report starts a new one.
    void warn(const std::string& line);

private:
    void showProgress(const core::Progress& progress);
    void print(const std::string& line);  // with printMutex_ held
    void watch();

    std::string command_;
    std::ostream& err_;
    bool quiet_ = false;
    bool tty_ = false;
    bool lineOpen_ = false;
    bool ended_ = false;   // endProgress() was called: print nothing more
    std::string pending_;  // a report from the quiet first second, printed when it ends
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    core::RunControl control_;

    std::mutex printMutex_;  // final reports may come from two worker threads at once
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread watcher_;
};

}  // namespace tandem::cli
