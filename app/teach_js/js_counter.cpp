#include "app/teach_js/js_counter.h"

#include <QJSEngine>
#include <cmath>
#include <limits>
#include <memory>

#include "app/teach_js/js_prelude.h"
#include "app/teach_js/js_watchdog.h"

namespace hitcounter::teachjs {

namespace {

using teach::CallResult;

constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

QString fromStd(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// "TypeError: this.q is undefined (line 7)", from a thrown value.
std::string errorText(const QJSValue& error) {
    QString text = error.toString();
    if (error.isError()) {
        const int line = error.property(QStringLiteral("lineNumber")).toInt();
        if (line > 0) {
            text += QStringLiteral(" (line %1)").arg(line);
        }
    }
    return text.toStdString();
}

std::vector<teach::Variable> variablesFrom(const QJSValue& list) {
    std::vector<teach::Variable> out;
    const int n = list.property(QStringLiteral("length")).toInt();
    for (int i = 0; i < n; ++i) {
        const QJSValue field = list.property(quint32(i));
        teach::Variable v;
        v.name = field.property(QStringLiteral("name")).toString().toStdString();
        v.isList = field.property(QStringLiteral("list")).toBool();
        v.text = field.property(QStringLiteral("text")).toString().toStdString();
        v.length = std::size_t(field.property(QStringLiteral("length")).toNumber());
        const QJSValue items = field.property(QStringLiteral("items"));
        const int count = items.property(QStringLiteral("length")).toInt();
        for (int k = 0; k < count; ++k) {
            v.items.push_back(items.property(quint32(k)).toString().toStdString());
        }
        out.push_back(std::move(v));
    }
    return out;
}

class JsCounter final : public teach::CounterUnderTest {
public:
    JsCounter(std::unique_ptr<QJSEngine> engine, QJSValue tools, QJSValue counterClass,
              JsLimits limits)
        : m_engine(std::move(engine)),
          m_watchdog(*m_engine),
          m_tools(std::move(tools)),
          m_class(std::move(counterClass)),
          m_limits(limits) {}

    void setDetail(Detail detail) override { m_detail = detail; }

    CallResult start(std::chrono::seconds window) override {
        m_instance = QJSValue();
        m_engine->collectGarbage();
        m_engine->globalObject().setProperty(QStringLiteral("W"), double(window.count()));
        const QString what = QStringLiteral("new HitCounter(%1)").arg(window.count());
        QJSValue made;
        CallResult r = guarded(what, [&] {
            made = m_tools.property(QStringLiteral("construct"))
                       .call({m_class, QJSValue(double(window.count()))});
            return made;
        });
        if (r.ok() && !made.isObject()) {
            r.status = CallResult::Status::Error;
            r.message = what.toStdString() + " did not make an object";
        }
        if (!r.ok()) {
            return r;
        }
        m_instance = made;
        describe(r);
        return r;
    }

    CallResult hit(Timestamp t) override { return method("hit", t); }

    std::size_t memoryBytes() override {
        return m_instance.isUndefined()
                   ? 0
                   : std::size_t(
                         m_tools.property(QStringLiteral("size")).call({m_instance}).toNumber());
    }

    CallResult getHits(Timestamp t) override {
        CallResult r = method("getHits", t);
        if (r.ok()) {
            // An answer is a whole number; anything else is shown as it came back.
            const double d = m_returned.toNumber();
            if (m_returned.isNumber() && d >= 0 && d <= kMaxExactInteger && std::floor(d) == d) {
                r.answer = Count(d);
            }
            r.returned = m_returned.toString().toStdString();
        }
        return r;
    }

private:
    CallResult method(const char* name, Timestamp t) {
        const QString what = QStringLiteral("%1(%2)").arg(QLatin1String(name)).arg(t);
        if (m_instance.isUndefined()) {
            CallResult r;
            r.status = CallResult::Status::Error;
            r.message = what.toStdString() + ": the counter was stopped; start it again";
            return r;
        }
        // Counting goes through proxies; an answer alone runs much faster without them.
        const bool counting = m_detail != Detail::Answers;
        CallResult r = guarded(what, [&] {
            m_returned = m_tools.property(QStringLiteral("call"))
                             .call({m_instance, QString::fromLatin1(name), double(t), counting});
            return m_returned;
        });
        if (r.ok()) {
            describe(r);
        }
        return r;
    }

    // The prelude's count as a whole number: 0 when it is not one, saturating at the top.
    static std::uint64_t operationCount(const QJSValue& count) {
        const double d = count.toNumber();
        if (!count.isNumber() || !(d >= 0)) {
            return 0;
        }
        return d >= 18446744073709551615.0 ? std::numeric_limits<std::uint64_t>::max()
                                           : std::uint64_t(d);
    }

    // Runs `call` under the watchdog; a thrown value, a runaway or a memory blow-up ends the
    // call with a message that names it.
    template <typename Call>
    CallResult guarded(const QString& what, Call call) {
        CallResult r;
        m_watchdog.arm(m_limits.perCall, m_limits.memoryBytes);
        const QJSValue value = call();
        const JsWatchdog::Reason stopped = m_watchdog.disarm();
        if (stopped != JsWatchdog::Reason::None) {
            // Clear the interrupt first: an interrupted engine runs nothing, the count too.
            m_engine->setInterrupted(false);
        }
        if (m_detail != Detail::Answers) {
            r.operations = operationCount(m_tools.property(QStringLiteral("operations")).call());
        }
        if (stopped != JsWatchdog::Reason::None) {
            m_instance = QJSValue();  // a half-run call leaves nothing to trust
            m_engine->collectGarbage();
            r.status = stopped == JsWatchdog::Reason::Time ? CallResult::Status::Interrupted
                                                           : CallResult::Status::OutOfMemory;
            r.message = stopped == JsWatchdog::Reason::Time
                            ? QStringLiteral(
                                  "%1 ran longer than %2 ms and was stopped (a loop that "
                                  "never ends?)")
                                  .arg(what)
                                  .arg(m_limits.perCall.count())
                                  .toStdString()
                            : QStringLiteral("%1 took more than %2 MiB of memory and was stopped")
                                  .arg(what)
                                  .arg(m_limits.memoryBytes >> 20)
                                  .toStdString();
            return r;
        }
        if (value.isError() || m_engine->hasError()) {
            const QJSValue thrown = m_engine->hasError() ? m_engine->catchError() : value;
            r.status = CallResult::Status::Error;
            r.message = what.toStdString() + " threw " + errorText(thrown);
        }
        if (m_detail == Detail::Everything) {
            r.output = m_tools.property(QStringLiteral("output")).call().toString().toStdString();
        }
        return r;
    }

    // The fields after a call, when the detail asks for them.
    void describe(CallResult& r) {
        if (m_detail == Detail::Everything) {
            r.variables =
                variablesFrom(m_tools.property(QStringLiteral("describe")).call({m_instance}));
        }
    }

    std::unique_ptr<QJSEngine> m_engine;
    JsWatchdog m_watchdog;
    QJSValue m_tools;
    QJSValue m_class;
    JsLimits m_limits;
    Detail m_detail = Detail::Everything;
    QJSValue m_instance;
    QJSValue m_returned;
};

}  // namespace

teach::LoadedCounter loadJsCounter(const std::string& source, JsLimits limits) {
    auto engine = std::make_unique<QJSEngine>();
    const QJSValue tools = engine->evaluate(fromStd(kPrelude), QStringLiteral("prelude.js"));
    if (tools.isError()) {
        return TextProblem{0, 0, "the checker's own script failed: " + errorText(tools)};
    }
    // The class is looked up in the same script: a class declaration is no global property
    // and does not outlive its script. Appended after a newline, so the lines keep their
    // numbers.
    const QString script = QString::fromStdString(source) +
                           QStringLiteral(
                               "\n;this.__hitcounterClass = typeof HitCounter === \"undefined\" ? "
                               "undefined : HitCounter;");
    const QJSValue ran = [&] {
        JsWatchdog watchdog(*engine);
        watchdog.arm(limits.perCall, limits.memoryBytes);
        QJSValue value = engine->evaluate(script, QStringLiteral("HitCounter.js"));
        if (watchdog.disarm() != JsWatchdog::Reason::None) {
            engine->setInterrupted(false);
            return QJSValue(QStringLiteral("interrupted"));
        }
        return value;
    }();
    if (ran.isString() && ran.toString() == QLatin1String("interrupted")) {
        return TextProblem{0, 0,
                           "your script ran longer than " + std::to_string(limits.perCall.count()) +
                               " ms before HitCounter was defined, and was stopped"};
    }
    if (ran.isError()) {
        return TextProblem{ran.property(QStringLiteral("lineNumber")).toInt(), 0,
                           ran.toString().toStdString()};
    }
    QJSValue counterClass = engine->globalObject().property(QStringLiteral("__hitcounterClass"));
    engine->globalObject().deleteProperty(QStringLiteral("__hitcounterClass"));
    if (!counterClass.isCallable()) {
        return TextProblem{0, 0,
                           "no HitCounter found: write `class HitCounter { constructor() {...} "
                           "hit(timestamp) {...} getHits(timestamp) {...} }`"};
    }
    return std::make_unique<JsCounter>(std::move(engine), tools, std::move(counterClass), limits);
}

teach::CounterLoader jsCounterLoader(JsLimits limits) {
    return [limits](const std::string& source) { return loadJsCounter(source, limits); };
}

}  // namespace hitcounter::teachjs
