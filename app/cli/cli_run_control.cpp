#include "app/cli/cli_run_control.h"

#include <unistd.h>
#include <csignal>
#include <iostream>

namespace tandem::cli {

namespace {

// Written by the handler, read by the watcher; a lock-free atomic is async-signal-safe.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

struct sigaction g_previousInt {};
struct sigaction g_previousTerm {};

extern "C" void onSignal(int signal) {
    int expected = 0;
    if (!g_signal.compare_exchange_strong(expected, signal)) {
        // A second signal: the default action (end the process) without further ado.
        std::signal(signal, SIG_DFL);
        std::raise(signal);
    }
}

// Nothing is shown before the work has run this long, so that quick runs print no progress.
constexpr auto kQuietStart = std::chrono::seconds(1);

}  // namespace

CliRunControl::CliRunControl(std::string command, std::ostream& err, bool quiet)
    : command_(std::move(command)),
      err_(err),
      quiet_(quiet),
      tty_(&err == &std::cerr && ::isatty(STDERR_FILENO) == 1),
      control_([this](const core::Progress& p) { showProgress(p); },
               std::chrono::milliseconds(tty_ ? 200 : 5000)) {
    g_signal.store(0);
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &g_previousInt);
    sigaction(SIGTERM, &action, &g_previousTerm);
    watcher_ = std::thread([this] { watch(); });
}

CliRunControl::~CliRunControl() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    watcher_.join();
    sigaction(SIGINT, &g_previousInt, nullptr);
    sigaction(SIGTERM, &g_previousTerm, nullptr);
    endProgress();
}

void CliRunControl::watch() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (g_signal.load() != 0) control_.cancel();
        if (std::chrono::steady_clock::now() - start_ >= kQuietStart) {
            std::lock_guard printLock(printMutex_);
            if (!pending_.empty() && !ended_ && !control_.cancelled()) print(pending_);
            pending_.clear();
        }
        wake_.wait_for(lock, std::chrono::milliseconds(20));
    }
}

int CliRunControl::interruptedBy() const {
    return control_.cancelled() ? g_signal.load() : 0;
}

std::string CliRunControl::interruptedText() const {
    return interruptedBy() == SIGINT ? "interrupted (Ctrl+C)" : "interrupted (SIGTERM)";
}

void CliRunControl::showProgress(const core::Progress& p) {
    if (quiet_ || control_.cancelled()) return;
    std::string line = command_ + ": " + p.message;
    if (p.total > 0 && p.message.find('%') == std::string::npos)
        line += " (" + std::to_string(int(100 * p.done / p.total)) + " %)";
    std::lock_guard lock(printMutex_);
    if (ended_) return;
    if (std::chrono::steady_clock::now() - start_ < kQuietStart) {
        pending_ = std::move(line);  // the watcher shows it if the work is still running then
        return;
    }
    pending_.clear();
    print(line);
}

void CliRunControl::print(const std::string& line) {
    if (tty_) {
        err_ << "\r\033[K" << line << std::flush;
        lineOpen_ = true;
    } else {
        err_ << line << "\n" << std::flush;
    }
}

void CliRunControl::endProgress() {
    std::lock_guard lock(printMutex_);
    ended_ = true;
    pending_.clear();
    if (!lineOpen_) return;
    err_ << "\n" << std::flush;
    lineOpen_ = false;
}

void CliRunControl::warn(const std::string& line) {
    std::lock_guard lock(printMutex_);
    if (lineOpen_) {
        err_ << "\n";
        lineOpen_ = false;
    }
    err_ << line << "\n" << std::flush;
}

}  // namespace tandem::cli
