// CounterUnderTest: a hit counter the learner wrote, driven one call at a time (issue 24, the
// Code tab and `hitcounter-cli teach --code`). The lockstep check (student_check.h) runs it
// beside RingCounter through this interface; no engine is named here: app/teach_js implements
// it with Qt's QJSEngine for the learner's JavaScript.
//
// Not thread-safe: an implementation belongs to the thread that made it (a JavaScript engine
// lives on one thread).
//
// Every call returns a CallResult: how it ended (a value, an exception, a runaway stopped by the
// time bound or the memory bound), what getHits returned, the work it did in operations (reads
// and writes of the counter's own state) and its fields afterwards, for the view to draw;
// memoryBytes() tells the state's size.
//
// Example: start(10s) constructs `new HitCounter(10)`; hit(5) returns status Ok; getHits(5)
// returns answer 1, returned "1".
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/base/text_problem.h"
#include "core/base/types.h"

namespace hitcounter::teach {

// One field of the learner's counter after a call: a value ("head": "12") or a list of values
// (an array, a Map, a Set: one item each; long lists keep their first items, with `length`
// the whole length).
struct Variable {
    std::string name;
    bool isList = false;
    std::string text;                // a value's text, or the list in one line ("[0, 1, 2]")
    std::vector<std::string> items;  // a list's items, each as text
    std::size_t length = 0;          // a list's length (items may hold fewer)
    friend bool operator==(const Variable&, const Variable&) = default;
};

struct CallResult {
    enum class Status {
        Ok,           // returned
        Error,        // threw: `message` names the error and the line
        Interrupted,  // ran longer than the time bound per call, and was stopped
        OutOfMemory,  // grew beyond the memory bound, and was stopped
    };
    Status status = Status::Ok;
    std::optional<Count> answer;      // getHits returned a whole number from 0 to 2^53
    std::string returned;             // what getHits returned, as text ("3", "undefined", "1.5")
    std::string message;              // for a status other than Ok, one sentence naming the call
    std::uint64_t operations = 0;     // Costs: the state's reads and writes during the call
    std::size_t memoryBytes = 0;      // the state's size after the call, when the caller asked
                                      // memoryBytes() (runTrace does, after each operation)
    std::vector<Variable> variables;  // Everything: the counter's fields after the call
    std::string output;               // Everything: what the call printed (console.log)

    bool ok() const { return status == Status::Ok; }
};

class CounterUnderTest {
public:
    // How much a call reports besides its status and answer: measuring the work and the state
    // costs time (the JavaScript counter runs some 60 times slower while its operations are
    // counted), so the check asks for it only where it shows it.
    enum class Detail {
        Answers,     // status, answer, returned, message
        Costs,       // + operations
        Everything,  // + variables and output
    };

    virtual ~CounterUnderTest() = default;
    // For the calls from now on (Everything until set).
    virtual void setDetail(Detail detail) = 0;
    // Makes a fresh counter for a window of `window` seconds, dropping the previous one.
    virtual CallResult start(std::chrono::seconds window) = 0;
    virtual CallResult hit(Timestamp t) = 0;
    virtual CallResult getHits(Timestamp t) = 0;
    // The state's size now, in bytes (the implementation's documented estimate); 0 when the
    // counter was stopped.
    virtual std::size_t memoryBytes() = 0;
};

// The counter, or why a learner's source cannot run: a TextProblem at its line (0 when it has
// none; no column), describe() "line 3: SyntaxError: Expected token `;'".
using LoadedCounter = std::variant<std::unique_ptr<CounterUnderTest>, TextProblem>;
// Turns a learner's source into a counter (called on the thread that will use it).
using CounterLoader = std::function<LoadedCounter(const std::string& source)>;

}  // namespace hitcounter::teach
