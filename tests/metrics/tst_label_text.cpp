// Keys as label values (core/metrics/label_text.h): valid UTF-8 as is, bad bytes as \xHH text,
// long keys cut at a character boundary with a hash that keeps them apart.
#include <QTest>

#include <set>

#include "core/metrics/label_text.h"
#include "core/net/text_escape.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::metrics;

class LabelTextTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void validUtf8KeysAreTheirOwnLabel() {
        QCOMPARE(keyLabel("home"), std::string("home"));
        QCOMPARE(keyLabel("caf\xc3\xa9 \"q\" \\ \n"), std::string("caf\xc3\xa9 \"q\" \\ \n"));
        QCOMPARE(keyLabel(""), std::string());
    }

    void invalidUtf8IsWrittenAsHexTextWithBackslashesDoubled() {
        QCOMPARE(keyLabel("a\xffz"), std::string("a\\xffz"));
        QCOMPARE(keyLabel("\\\xc3"), std::string("\\\\\\xc3"));
        QVERIFY(isValidUtf8(keyLabel("\xed\xa0\x80 surrogate")));
    }

    void longKeysAreBoundedAndKeptApart() {
        const std::string a(10000, 'x');
        const std::string b = a + "y";
        const std::string la = keyLabel(a, 64);
        const std::string lb = keyLabel(b, 64);
        QCOMPARE(la.size(), std::size_t{64});
        QCOMPARE(lb.size(), std::size_t{64});
        QVERIFY(la != lb);
        QCOMPARE(la.substr(0, 47), std::string(47, 'x'));
        QCOMPARE(la[47], '~');
        QCOMPARE(keyLabel(a).size(), kDefaultLabelBytes);
        // Exactly at the bound: unchanged.
        QCOMPARE(keyLabel(std::string(64, 'x'), 64), std::string(64, 'x'));
    }

    void theCutNeverSplitsACharacter() {
        // 3-byte characters: a cut at any length must leave valid UTF-8.
        std::string key;
        for (int i = 0; i < 100; ++i)
            key += "\xe2\x82\xac";  // U+20AC
        for (std::size_t bound = 32; bound < 80; ++bound) {
            const std::string label = keyLabel(key, bound);
            QVERIFY(label.size() <= bound);
            QVERIFY2(isValidUtf8(label), qPrintable(QString::number(bound)));
        }
    }

    void manyDistinctLongKeysGetDistinctLabels() {
        std::set<std::string> labels;
        for (int i = 0; i < 20000; ++i)
            labels.insert(keyLabel(std::string(200, 'p') + std::to_string(i), 64));
        QCOMPARE(labels.size(), std::size_t{20000});
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(LabelTextTest)
#include "tst_label_text.moc"
