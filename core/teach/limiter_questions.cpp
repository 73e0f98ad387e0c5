#include "core/teach/limiter_questions.h"

#include "core/teach/number_text.h"

namespace hitcounter::teach {

std::string limiterTitle(const std::string& name) {
    if (name == "fixed") {
        return "fixed window";
    }
    if (name == "log") {
        return "sliding log";
    }
    if (name == "counter") {
        return "sliding window counter";
    }
    return "token bucket";
}

std::vector<LimiterQuestion> limiterQuestions(const LimiterTimeline& timeline) {
    std::vector<LimiterQuestion> out;
    const auto& frames = timeline.frames();
    for (std::size_t k = 1; k < frames.size(); ++k) {
        const LimiterFrame& f = frames[k];
        if (f.op->kind != Operation::Kind::Hit || f.op->repeat != 1) {
            continue;
        }
        LimiterQuestion q;
        q.step = k;
        q.second = f.op->second;
        for (const LimiterLane& lane : f.lanes) {
            q.accepted.push_back(lane.decision && lane.decision->accepted > 0);
        }
        q.prompt = "The request at " + num(f.op->second) + ": which limiters accept it?";
        out.push_back(std::move(q));
    }
    return out;
}

namespace {

std::string mistakeOf(const std::string& name, bool saidAccepted) {
    if (name == "fixed") {
        return saidAccepted ? "a fixed window already full"
                            : "forgetting that a fixed window starts empty";
    }
    if (name == "log") {
        return saidAccepted ? "forgetting the requests of the last W seconds"
                            : "keeping requests W or more seconds old";
    }
    if (name == "counter") {
        return "the weighted previous window";
    }
    return saidAccepted ? "less than one token left" : "forgetting the refill";
}

}  // namespace

LimiterVerdict diagnoseLimiters(const LimiterTimeline& timeline, const LimiterQuestion& question,
                                const std::vector<bool>& guess) {
    const LimiterFrame& f = timeline.frames().at(question.step);
    LimiterVerdict v;
    v.right = guess == question.accepted;
    std::string answer;
    for (std::size_t i = 0; i < question.accepted.size(); ++i) {
        answer += (i == 0 ? "" : ", ") + limiterTitle(f.lanes[i].name) +
                  (question.accepted[i] ? " accepts" : " rejects");
    }
    if (v.right) {
        v.text = "Right: " + answer + ".";
        return v;
    }
    v.text = "Not quite: " + answer + ".";
    for (std::size_t i = 0; i < question.accepted.size() && i < guess.size(); ++i) {
        if (guess[i] == question.accepted[i]) {
            continue;
        }
        v.mistakes.push_back(mistakeOf(f.lanes[i].name, guess[i]));
        v.text += " " + limiterTitle(f.lanes[i].name) + ": " + v.mistakes.back() + ". " +
                  f.lanes[i].reason;
    }
    return v;
}

}  // namespace hitcounter::teach
