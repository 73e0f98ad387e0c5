// FollowSet: several live access logs followed as one source (several servers' logs, or the
// access and the error-page log of one): one FollowSource per file, each on its own worker
// thread, all into the same queue, their figures summed. One file is a set of one.
//
// Threading: as FollowSource: start() and stop() from the owner thread; stats(),
// followStats(), newestTime(), recentBadLines() and describe() from any thread.
//
// Semantics: start() starts every follower or none: if one cannot start (SourceError naming
// its file), those already started are stopped and the error is thrown. stats() and
// followStats() are the followers' sums (saturating); newestTime() the newest of theirs;
// recentBadLines() theirs merged by when they were met, the newest BadLineLog::kMaxLines;
// describe() "follow a.log, b.log" once started. Each follower keeps its own lines' order; hits
// from different files interleave as they are read (a line a server wrote before another server's
// newer line may be a late hit, counted as every late hit is).
//
// Example: FollowSet logs({"web1/access.log", "web2/access.log"}, {.fromStart = false});
//          logs.start(queue);  // lines appended to either arrive as hits
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/sources/follow_source.h"

namespace hitcounter {

class FollowSet final : public Source {
public:
    // One follower per file (at least one), each with `options` and its own file.
    FollowSet(const std::vector<std::filesystem::path>& files, const FollowOptions& options);
    ~FollowSet() override;

    void start(BatchQueue& out) override;
    void check() const override;
    void stop() override;
    bool running() const override;
    SourceStats stats() const override;
    std::string describe() const override;
    std::vector<BadLine> recentBadLines() const override;
    FollowStats followStats() const;
    std::optional<Timestamp> newestTime() const;

private:
    std::vector<std::unique_ptr<FollowSource>> m_followers;
    std::string m_paths;        // the files, joined by ", "
    std::string m_description;  // "follow " and the paths, set by start()
};

}  // namespace hitcounter
