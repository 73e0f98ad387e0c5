#include "core/judge/leetcode_judge.h"

#include <utility>

namespace hitcounter {

std::variant<std::string, TextProblem> answerLeetCode(std::istream& in, WindowCounter& counter) {
    class Judge : public LeetCodeHandler {
    public:
        explicit Judge(WindowCounter& counter) : m_counter(counter) {}
        std::string call(std::size_t index, LeetCodeCall call, Timestamp time,
                         LeetCodePosition) override {
            if (index > 0)
                m_answers += ',';
            if (call == LeetCodeCall::GetHits) {
                m_answers += std::to_string(m_counter.count(time));
                return {};
            }
            if (call == LeetCodeCall::Hit)
                m_counter.hit(time);
            m_answers += "null";
            return {};
        }
        std::string m_answers = "[";

    private:
        WindowCounter& m_counter;
    };
    Judge judge(counter);
    if (auto error = readLeetCode(in, judge))
        return *std::move(error);
    return judge.m_answers + ']';
}

}  // namespace hitcounter
