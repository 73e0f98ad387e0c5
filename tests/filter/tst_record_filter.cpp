// RecordFilter: the grammar (precedence, quoting, every operator on every kind of field), the
// column and the words of every error, the fields a source lacks, and RE2's linear time on a
// regular expression that a backtracking engine takes exponential time over.
#include <QTest>

#include <string>

#include "core/filter/record_filter.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

// A 404 for /api/users/42 by GET from 10.0.0.1 on example.org; statsd fields empty.
FilterRecord apiNotFound() {
    FilterRecord r;
    r.status = "404";
    r.method = "GET";
    r.path = "/api/users/42";
    r.vhost = "example.org";
    r.client = "10.0.0.1";
    return r;
}

FilterRecord metric(std::string_view name, std::string_view tags) {
    FilterRecord r;
    r.name = name;
    r.tags = tags;
    return r;
}

RecordFilter parsed(const QString& text) {
    auto result = RecordFilter::parse(text.toStdString());
    if (const auto* problem = std::get_if<TextProblem>(&result))
        qFatal("'%s' did not parse: %s", qPrintable(text), describeFilterProblem(*problem).c_str());
    return std::move(std::get<RecordFilter>(result));
}

TextProblem problemOf(const QString& text) {
    const auto result = RecordFilter::parse(text.toStdString());
    if (!std::holds_alternative<TextProblem>(result))
        qFatal("'%s' parsed; a problem was expected", qPrintable(text));
    return std::get<TextProblem>(result);
}

}  // namespace

class TestRecordFilter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void accessLogFieldsMatch_data() {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<bool>("matches");
        QTest::newRow("exact status") << "status=404" << true;
        QTest::newRow("other status") << "status=200" << false;
        QTest::newRow("status class") << "status=4xx" << true;
        QTest::newRow("status class upper X") << "status=4XX" << true;
        QTest::newRow("other class") << "status=5xx" << false;
        QTest::newRow("status not equal") << "status!=404" << false;
        QTest::newRow("status regex") << "status~'^40'" << true;
        QTest::newRow("method") << "method=GET" << true;
        QTest::newRow("method is case-sensitive") << "method=get" << false;
        QTest::newRow("path exact") << "path=/api/users/42" << true;
        QTest::newRow("path regex, unanchored") << "path~users" << true;
        QTest::newRow("path regex anchored") << "path~'^/api/'" << true;
        QTest::newRow("path regex anchored, no") << "path~'^/users'" << false;
        QTest::newRow("path regex escapes kept") << R"(path~'/\d+$')" << true;
        QTest::newRow("path not regex") << "path!~'^/api/'" << false;
        QTest::newRow("vhost") << "vhost=example.org" << true;
        QTest::newRow("client") << "client=10.0.0.1" << true;
        QTest::newRow("absent field is empty") << "name=''" << true;
        QTest::newRow("absent field matches nothing but ^$") << "name~'.'" << false;
        QTest::newRow("and") << "status=4xx and method=GET" << true;
        QTest::newRow("and, one false") << "status=4xx and method=POST" << false;
        QTest::newRow("or") << "method=POST or path~api" << true;
        QTest::newRow("or, both false") << "method=POST or status=5xx" << false;
        QTest::newRow("not") << "not method=POST" << true;
        QTest::newRow("not not") << "not not method=POST" << false;
        QTest::newRow("blanks around operators") << "  status =  404 " << true;
        QTest::newRow("no blanks") << "(status=404)and(method=GET)" << true;
    }
    void accessLogFieldsMatch() {
        QFETCH(QString, filter);
        QFETCH(bool, matches);
        QCOMPARE(parsed(filter).matches(apiNotFound()), matches);
    }

    // not > and > or: each row is true under the stated grouping and false under the other.
    void precedence_data() {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<bool>("matches");
        // true or (false and false) = true; (true or false) and false = false
        QTest::newRow("and before or") << "method=GET or status=5xx and client=x" << true;
        QTest::newRow("parentheses override") << "(method=GET or status=5xx) and client=x" << false;
        // (not false) and true = true; not (false and true) = true too, so test with or:
        // (not true) or true = true; not (true or true) = false
        QTest::newRow("not before or") << "not method=GET or status=404" << true;
        QTest::newRow("not of a group") << "not (method=GET or status=404)" << false;
        // (not true) and true = false; not (true and false) = true
        QTest::newRow("not before and") << "not method=GET and status=404" << false;
        QTest::newRow("long or chain") << "status=1 or status=2 or status=3 or method=GET" << true;
    }
    void precedence() {
        QFETCH(QString, filter);
        QFETCH(bool, matches);
        // "status=1" is not a status: only the chain row uses it, so give it a valid status.
        filter.replace(QStringLiteral("status=1 "), QStringLiteral("status=101 "))
            .replace(QStringLiteral("status=2 "), QStringLiteral("status=202 "))
            .replace(QStringLiteral("status=3 "), QStringLiteral("status=303 "));
        QCOMPARE(parsed(filter).matches(apiNotFound()), matches);
    }

    void quoting_data() {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("path");
        QTest::newRow("single quotes keep blanks") << "path='/a b'"
                                                   << "/a b";
        // Plain literals: moc misreads raw strings holding \" (tests/CMakeLists.txt runs moc).
        QTest::newRow("double quotes") << "path=\"/a'b\""
                                       << "/a'b";
        QTest::newRow("escaped single quote") << "path='/a\\'b'"
                                              << "/a'b";
        QTest::newRow("escaped double quote") << "path=\"/a\\\"b\""
                                              << "/a\"b";
        QTest::newRow("escaped backslash") << "path='/a\\\\b'"
                                           << "/a\\b";
        QTest::newRow("other backslash kept") << "path='/a\\db'"
                                              << "/a\\db";
        QTest::newRow("keyword as a quoted value") << "path='and'"
                                                   << "and";
        QTest::newRow("keyword as a bare value") << "path=or"
                                                 << "or";
        QTest::newRow("operators inside quotes") << "path='a=b!~c'"
                                                 << "a=b!~c";
        QTest::newRow("parentheses inside quotes") << "path='(x)'"
                                                   << "(x)";
    }
    void quoting() {
        QFETCH(QString, filter);
        QFETCH(QString, path);
        const std::string value = path.toStdString();
        FilterRecord r;
        r.path = value;
        QVERIFY(parsed(filter).matches(r));
        r.path = "/other";
        QVERIFY(!parsed(filter).matches(r));
    }

    void tags_data() {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("tags");
        QTest::addColumn<bool>("matches");
        QTest::newRow("one of several") << "tag=env:prod"
                                        << "region:eu,env:prod" << true;
        QTest::newRow("whole tags only") << "tag=env"
                                         << "env:prod" << false;
        QTest::newRow("regex on each tag") << "tag~'^env:'"
                                           << "a,env:dev" << true;
        QTest::newRow("regex anchored per tag") << "tag~'^region'"
                                                << "env:prod,xregion" << false;
        QTest::newRow("no tags: none equal") << "tag=env:prod"
                                             << "" << false;
        QTest::newRow("no tags: none match") << "tag~''"
                                             << "" << false;
        QTest::newRow("no tags: not equal") << "tag!=env:prod"
                                            << "" << true;
        QTest::newRow("not equal with the tag") << "tag!=env:prod"
                                                << "env:prod" << false;
        QTest::newRow("name and tag") << "name~'^pages\\.' and tag=env:prod"
                                      << "env:prod" << true;
    }
    void tags() {
        QFETCH(QString, filter);
        QFETCH(QString, tags);
        QFETCH(bool, matches);
        const std::string text = tags.toStdString();
        QCOMPARE(parsed(filter).matches(metric("pages.home", text)), matches);
    }

    // Every error names its column (1-based) and says what was expected and what was found.
    void errorsNameTheColumn_data() {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "" << 1
                               << "expected a field name (status, method, path, vhost, client, "
                                  "name or tag), found the end";
        QTest::newRow("ends after and") << "status=5xx and" << 15
                                        << "expected a field name (status, method, path, vhost, "
                                           "client, name or tag), found the end";
        QTest::newRow("keyword for a field") << "and status=5xx" << 1
                                             << "expected a field name (status, method, path, "
                                                "vhost, client, name or tag), found 'and'";
        QTest::newRow("unknown field") << "method=GET or stauts=500" << 15
                                       << "unknown field 'stauts'; expected status, method, "
                                          "path, vhost, client, name or tag";
        QTest::newRow("no operator")
            << "status 500" << 8 << "expected =, !=, ~ or !~ after 'status', found '500'";
        QTest::newRow("lone bang") << "status!500" << 7 << "expected != or !~, found '!5'";
        QTest::newRow("no value") << "path=" << 6
                                  << "expected a value after 'path=', found the end";
        QTest::newRow("parenthesis for a value")
            << "path=(x)" << 6 << "expected a value after 'path=', found '('";
        QTest::newRow("bad status") << "status=5x" << 8
                                    << "expected a status from 100 to 599 such as 404, or a "
                                       "class such as 5xx, found '5x'";
        QTest::newRow("status out of range") << "status=600" << 8
                                             << "expected a status from 100 to 599 such as 404, "
                                                "or a class such as 5xx, found '600'";
        QTest::newRow("unterminated quote") << "path='/a" << 6
                                            << "expected a closing ' for the quote opened here, "
                                               "found the end";
        QTest::newRow("unclosed parenthesis")
            << "(status=404 or method=GET" << 26
            << "expected 'and', 'or' or ')' to close the '(' at column 1, found the end";
        QTest::newRow("stray close")
            << "status=404)" << 11 << "expected 'and', 'or' or the end, found ')'";
        QTest::newRow("two comparisons without and")
            << "status=404 method=GET" << 12 << "expected 'and', 'or' or the end, found 'method'";
        QTest::newRow("bad regular expression")
            << "path~'(a'" << 6
            << "expected a regular expression (RE2 syntax), found '(a': missing ): (a";
        QTest::newRow("backreference RE2 refuses")
            << R"(path~'(a)\1')" << 6
            << R"(expected a regular expression (RE2 syntax), found '(a)\1': invalid escape )"
               R"(sequence: \1)";
    }
    void errorsNameTheColumn() {
        QFETCH(QString, filter);
        QFETCH(int, column);
        QFETCH(QString, message);
        const TextProblem problem = problemOf(filter);
        QCOMPARE(QString::fromStdString(problem.message), message);
        QCOMPARE(problem.column, column);
        QCOMPARE(QString::fromStdString(describeFilterProblem(problem)),
                 QStringLiteral("column %1: %2").arg(column).arg(message));
    }

    void nestingIsBounded() {
        const QString deep = QString(64, QLatin1Char('(')) + QStringLiteral("method=GET") +
                             QString(64, QLatin1Char(')'));
        QVERIFY(parsed(deep).matches(apiNotFound()));
        const TextProblem problem = problemOf(QLatin1Char('(') + deep + QLatin1Char(')'));
        QCOMPARE(problem.column, 65);
        QCOMPARE(QString::fromStdString(problem.message),
                 QStringLiteral("expected at most 64 parentheses and nots inside each other, "
                                "found more"));
    }

    void fieldsAndTheFirstMissingOne() {
        const RecordFilter filter = parsed("name=a or (status=5xx and tag=x)");
        QVERIFY(filter.fields().has(FilterField::Name));
        QVERIFY(filter.fields().has(FilterField::Status));
        QVERIFY(filter.fields().has(FilterField::Tag));
        QVERIFY(!filter.fields().has(FilterField::Path));
        QCOMPARE(filter.text(), std::string("name=a or (status=5xx and tag=x)"));
        QVERIFY(!filter.missingField({FilterField::Name, FilterField::Status, FilterField::Tag},
                                     "x lines"));
        const auto statsd = filter.missingField(kStatsdFilterFields, "statsd lines");
        QVERIFY(statsd);
        QCOMPARE(statsd->column, 12);
        QCOMPARE(statsd->message,
                 std::string("field 'status' is not in statsd lines (they have name and tag)"));
        const auto log = filter.missingField(kAccessLogFilterFields, "this log's lines");
        QVERIFY(log);
        QCOMPARE(log->column, 1);
        QCOMPARE(log->message, std::string("field 'name' is not in this log's lines (they have "
                                           "status, method, path and client)"));
        const auto none = filter.missingField({}, "trace CSV rows");
        QCOMPARE(none->message,
                 std::string("field 'name' is not in trace CSV rows (they have no fields to "
                             "filter on)"));
    }

    // (a+)+$ against "aaa...ab": a backtracking engine tries 2^n ways; RE2 answers in one
    // linear pass. Asserted on the answer: the test would not finish otherwise.
    void regularExpressionsNeverBacktrack() {
        const std::string line = std::string(100000, 'a') + "b";
        FilterRecord r;
        r.path = line;
        QVERIFY(!parsed("path~'^(a+)+$'").matches(r));
        QVERIFY(!parsed("path~'(a|aa)*c'").matches(r));
        QVERIFY(parsed("path~'(a+)+b$'").matches(r));
    }

    void aMovedFilterStillMatches() {
        RecordFilter filter = parsed("path~'^/api/'");
        RecordFilter moved = std::move(filter);
        QVERIFY(moved.matches(apiNotFound()));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestRecordFilter)
#include "tst_record_filter.moc"
