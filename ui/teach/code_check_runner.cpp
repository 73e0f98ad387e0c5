#include "ui/teach/code_check_runner.h"

#include <QMetaObject>
#include <QPointer>

#include "core/teach/code_templates.h"

namespace hitcounter::ui {

CodeCheckRunner::CodeCheckRunner(QObject* parent) : QObject(parent) {}

CodeCheckRunner::~CodeCheckRunner() {
    cancel();
}

void CodeCheckRunner::cancel() {
    ++m_generation;  // whatever the running worker posts is dropped
    m_running = false;
    if (m_worker.joinable()) {
        m_worker.request_stop();
        m_worker.join();
    }
}

void CodeCheckRunner::start(teach::CounterLoader loader, std::string source,
                            teach::CheckOptions options) {
    cancel();
    m_running = true;
    const std::uint64_t generation = m_generation;
    QPointer<CodeCheckRunner> self(this);
    m_worker = std::jthread([self, generation, loader = std::move(loader),
                             source = std::move(source),
                             options = std::move(options)](std::stop_token stop) mutable {
        const auto began = std::chrono::steady_clock::now();
        auto result = std::make_shared<Result>();
        options.cancelled = [stop] { return stop.stop_requested(); };
        options.progress = [self, stop](std::size_t done, std::size_t total) {
            if (!stop.stop_requested()) {
                QMetaObject::invokeMethod(
                    self,
                    [self, done, total] {
                        if (self) {
                            Q_EMIT self->progressed(int(done), int(total));
                        }
                    },
                    Qt::QueuedConnection);
            }
        };
        teach::LoadedCounter loaded = loader(source);
        if (auto* error = std::get_if<TextProblem>(&loaded)) {
            result->error = *error;
        } else {
            auto& counter = *std::get<std::unique_ptr<teach::CounterUnderTest>>(loaded);
            result->report = teach::checkCounter(counter, options);
            teach::LoadedCounter ring = loader(std::string(teach::codeTemplate("ring")->source));
            if (auto* made = std::get_if<std::unique_ptr<teach::CounterUnderTest>>(&ring)) {
                result->ringGrowth =
                    teach::measureGrowth(**made, options.window, options.cancelled);
            }
        }
        result->took = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - began);
        if (!stop.stop_requested()) {
            QMetaObject::invokeMethod(
                self,
                [self, generation, result] {
                    if (self) {
                        self->deliver(generation, result);
                    }
                },
                Qt::QueuedConnection);
        }
    });
}

void CodeCheckRunner::deliver(std::uint64_t generation, std::shared_ptr<Result> result) {
    if (generation != m_generation) {
        return;  // a newer run (or a cancel) came after this one
    }
    m_running = false;
    m_result = std::move(*result);
    Q_EMIT finished();
}

}  // namespace hitcounter::ui
