#include "core/teach/lesson_file.h"

#include <sstream>

#include "core/teach/lessons.h"
#include "core/teach/timeline.h"

namespace hitcounter::teach {

namespace {

std::optional<std::uint64_t> number(std::string_view text) {
    if (text.empty() || text.size() > 18) {
        return std::nullopt;
    }
    std::uint64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        v = v * 10 + std::uint64_t(c - '0');
    }
    return v;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
        s.remove_suffix(1);
    }
    return s;
}

}  // namespace

std::string writeLessonFile(const LessonFile& file) {
    std::string out(kLessonFileMagic);
    out += '\n';
    if (!file.lesson.empty()) {
        out += "lesson " + file.lesson + "\n";
    }
    out += "window " + std::to_string(file.window.count()) + "\n";
    out += "step " + std::to_string(file.step) + "\n";
    for (const auto& [step, answer] : file.answers) {
        out += "answer " + std::to_string(step) + " " + std::to_string(answer) + "\n";
    }
    if (file.practiceSeed) {
        out += "practice " + std::to_string(*file.practiceSeed) + "\n";
    }
    if (file.variant) {
        out += "variant " + formatVariant(*file.variant) + "\n";
    }
    out += "operations:\n";
    out += file.operations;
    if (!file.operations.empty() && file.operations.back() != '\n') {
        out += '\n';
    }
    if (file.code) {
        out += std::string(kLessonFileCodeLine) + "\n" + *file.code;
        if (!file.code->empty() && file.code->back() != '\n') {
            out += '\n';
        }
    }
    return out;
}

std::variant<LessonFile, TextProblem> readLessonFile(std::string_view text) {
    LessonFile file;
    int line = 0;
    auto error = [&](std::string message) { return TextProblem{line, 1, std::move(message)}; };
    std::size_t pos = 0;
    bool seenWindow = false;
    bool seenOperations = false;
    while (pos < text.size() || line == 0) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        const std::string_view raw = text.substr(pos, end - pos);
        pos = end + 1;
        ++line;
        const std::string_view l = trim(raw);
        if (line == 1) {
            if (l != kLessonFileMagic) {
                return error("expected '" + std::string(kLessonFileMagic) +
                             "' (a hitcounter lesson file) on the first line");
            }
            continue;
        }
        if (l.empty() || l.front() == '#') {
            continue;
        }
        if (l == "operations:") {
            seenOperations = true;
            break;
        }
        const std::size_t space = l.find(' ');
        const std::string_view key = l.substr(0, space);
        const std::string_view value =
            space == std::string_view::npos ? std::string_view() : trim(l.substr(space + 1));
        if (key == "lesson") {
            file.lesson = std::string(value);
            bool known = false;
            for (const auto& lesson : lessons()) {
                known = known || lesson.id == file.lesson;
            }
            if (!known) {
                return error("unknown lesson '" + file.lesson + "'");
            }
        } else if (key == "window") {
            const auto w = number(value);
            if (!w || std::int64_t(*w) < kMinTeachWindow.count() ||
                std::int64_t(*w) > kMaxTeachWindow.count()) {
                return error("expected 'window W' with W from 5 to 300, got '" +
                             std::string(value) + "'");
            }
            file.window = std::chrono::seconds{std::int64_t(*w)};
            seenWindow = true;
        } else if (key == "step") {
            const auto s = number(value);
            if (!s) {
                return error("expected 'step N', a whole number, got '" + std::string(value) + "'");
            }
            file.step = std::size_t(*s);
        } else if (key == "answer") {
            const std::size_t gap = value.find(' ');
            const auto s = number(value.substr(0, gap));
            const auto a =
                gap == std::string_view::npos ? std::nullopt : number(trim(value.substr(gap + 1)));
            if (!s || !a) {
                return error("expected 'answer STEP GUESS', two whole numbers, got '" +
                             std::string(value) + "'");
            }
            file.answers[std::size_t(*s)] = Count(*a);
        } else if (key == "practice") {
            const auto seed = number(value);
            if (!seed) {
                return error("expected 'practice SEED', a whole number, got '" +
                             std::string(value) + "'");
            }
            file.practiceSeed = *seed;
        } else if (key == "variant") {
            const auto parsed = parseVariant(value);
            if (const auto* problem = std::get_if<TextProblem>(&parsed)) {
                return error("expected 'variant compare=...,index=...,reset=...,store=...': " +
                             problem->message);
            }
            file.variant = std::get<RingVariant>(parsed);
        } else {
            return error("unknown setting '" + std::string(key) +
                         "'; expected lesson, window, step, answer, practice, variant or "
                         "operations:");
        }
    }
    if (!seenOperations) {
        return error("expected the line 'operations:' before the operations");
    }
    if (!seenWindow) {
        return TextProblem{1, 1, "the file has no 'window W' line"};
    }
    file.operations = std::string(text.substr(std::min(pos, text.size())));
    // The code section: everything after the first line that is exactly "code:" (no
    // operation reads so, so the operations cannot hold it).
    const std::string marker = "\n" + std::string(kLessonFileCodeLine) + "\n";
    const std::string withNewline = "\n" + file.operations;
    if (const std::size_t at = withNewline.find(marker); at != std::string::npos) {
        file.code = withNewline.substr(at + marker.size());
        file.operations = at == 0 ? std::string() : withNewline.substr(1, at);
    }
    const ParseResult parsed = parseOperations(file.operations);
    if (const auto* e = std::get_if<TextProblem>(&parsed)) {
        return TextProblem{e->line + line, e->column, e->message};
    }
    const auto count = std::get<std::vector<Operation>>(parsed).size();
    if (file.step > count) {
        return TextProblem{1, 1,
                           "step " + std::to_string(file.step) + " is past the last step (" +
                               std::to_string(count) + ")"};
    }
    return file;
}

}  // namespace hitcounter::teach
