// The source kinds as modules (ui/sources/kinds/, the kind list in source_spec.h): every kind
// round-trips through the stored settings; a settings file written before the kinds were
// modules (one group "source" holding every key) loads the same; every kind's last spec is kept
// and the current kind's wins the keys kinds share; the sources dock hosts one group per kind.
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "tests/test_main.h"
#include "ui/common/settings_reader.h"
#include "ui/sources/kind_controls.h"
#include "ui/sources/source_specs.h"
#include "ui/sources/sources_panel.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

// A spec of the kind stored as `name`, with no setting left at its default.
SourceSpec example(const QString& name) {
    if (name == QLatin1String("simulator")) {
        return SimulatorSpec{
            .pattern = TrafficPattern::Burst, .rate = 5000, .keys = 42, .speed = 10};
    }
    if (name == QLatin1String("replay")) {
        ReplaySpec replay;
        replay.file = QStringLiteral("/traces/t.csv.gz");
        replay.key = QStringLiteral("status");
        replay.logFormat = QStringLiteral("$remote_addr [$time_local] \"$request\" $status");
        replay.filter = QStringLiteral("status=5xx and path~'^/api/'");
        replay.speed = 2;
        replay.loop = true;
        return replay;
    }
    if (name == QLatin1String("follow")) {
        FollowSpec follow;
        follow.file = QStringLiteral("/var/log/nginx/access.log");
        follow.key = QStringLiteral("method");
        follow.filter = QStringLiteral("not method=GET");
        follow.fromStart = true;
        return follow;
    }
    if (name == QLatin1String("redis")) {
        return FleetSpec{.redisUrl = QStringLiteral("redis://cache:7001/2")};
    }
    ListenerSpec listener;
    listener.protocol = ListenerSpec::Protocol(ListenerSpec::kindNames().indexOf(name));
    listener.address = QStringLiteral("[::1]:9125");
    return listener;
}

QString stored(const QString& ini, const QString& key) {
    QSettings settings(ini, QSettings::IniFormat);
    return settings.value(key).toString();
}

}  // namespace

class TestSourceKinds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyKindRoundTripsThroughTheSettings_data() {
        QTest::addColumn<QString>("name");
        for (const QString& name : kindNames()) {
            QTest::newRow(qPrintable(name)) << name;
        }
    }
    void everyKindRoundTripsThroughTheSettings() {
        QFETCH(QString, name);
        const SourceSpec spec = example(name);
        QCOMPARE(kindName(spec), name);
        QVERIFY(spec != SourceSpecs().all()[spec.index()]);  // not its kind's defaults
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        {
            QSettings settings(ini, QSettings::IniFormat);
            saveSpec(spec, settings);
        }
        QCOMPARE(stored(ini, QStringLiteral("source/kind")), name);
        QSettings settings(ini, QSettings::IniFormat);
        SettingsReader reader(settings);
        QCOMPARE(loadSpec(reader), spec);
        QVERIFY2(reader.problems().isEmpty(), qPrintable(reader.problems().join('\n')));
    }

    // The group "source" as the version with one union of every kind's fields wrote it: each
    // key read back by the kinds that have it, the stored kind the current one.
    void aSettingsFileOfTheUnionSpecLoadsTheSame() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        {
            QFile file(ini);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(
                "[source]\nkind=statsd-tcp\npattern=burst\nrate=500\nkeys=7\nspeed=10\n"
                "file=/logs/a.log\nloop=true\naddress=0.0.0.0:9125\nkey=status\nfromStart=true\n"
                "logFormat=\nredisUrl=redis://h:7000/2\n");
        }
        QSettings settings(ini, QSettings::IniFormat);
        SettingsReader reader(settings);
        const SourceSpecs specs = SourceSpecs::load(reader);
        QVERIFY2(reader.problems().isEmpty(), qPrintable(reader.problems().join('\n')));
        QCOMPARE(specs.current(),
                 SourceSpec(ListenerSpec{.protocol = ListenerSpec::Protocol::StatsdTcp,
                                         .address = QStringLiteral("0.0.0.0:9125")}));
        QCOMPARE(
            specs.last<SimulatorSpec>(),
            (SimulatorSpec{.pattern = TrafficPattern::Burst, .rate = 500, .keys = 7, .speed = 10}));
        const ReplaySpec& replay = specs.last<ReplaySpec>();
        QCOMPARE(replay.file, QStringLiteral("/logs/a.log"));
        QCOMPARE(replay.key, QStringLiteral("status"));
        QCOMPARE(replay.speed, 10.0);
        QVERIFY(replay.loop);
        const FollowSpec& follow = specs.last<FollowSpec>();
        QCOMPARE(follow.file, QStringLiteral("/logs/a.log"));
        QCOMPARE(follow.key, QStringLiteral("status"));
        QVERIFY(follow.fromStart);
        QCOMPARE(specs.last<FleetSpec>().redisUrl, QStringLiteral("redis://h:7000/2"));
    }

    // Every kind's last spec is saved; where kinds share a key, the current kind's value is
    // the one stored.
    void everyKindsLastSpecIsKeptAndTheCurrentOneWinsSharedKeys() {
        SourceSpecs specs;
        specs.remember(example(QStringLiteral("simulator")));  // speed 10
        specs.remember(example(QStringLiteral("follow")));     // key method
        specs.setCurrent(example(QStringLiteral("replay")));   // speed 2, key status
        specs.remember(example(QStringLiteral("redis")));
        QCOMPARE(specs.current(), example(QStringLiteral("replay")));
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        {
            QSettings settings(ini, QSettings::IniFormat);
            specs.save(settings);
        }
        QCOMPARE(stored(ini, QStringLiteral("source/kind")), QStringLiteral("replay"));
        QCOMPARE(stored(ini, QStringLiteral("source/speed")), QStringLiteral("2"));
        QCOMPARE(stored(ini, QStringLiteral("source/key")), QStringLiteral("status"));
        QCOMPARE(stored(ini, QStringLiteral("source/rate")), QStringLiteral("5000"));
        QCOMPARE(stored(ini, QStringLiteral("source/redisUrl")),
                 QStringLiteral("redis://cache:7001/2"));
        QSettings settings(ini, QSettings::IniFormat);
        SettingsReader reader(settings);
        const SourceSpecs loaded = SourceSpecs::load(reader);
        QCOMPARE(loaded.current(), example(QStringLiteral("replay")));
        QCOMPARE(loaded.last<SimulatorSpec>().rate, 5000.0);
        QCOMPARE(loaded.last<SimulatorSpec>().speed, 2.0);  // the replay's
        QCOMPARE(loaded.last<FollowSpec>().key, QStringLiteral("status"));
        QVERIFY(loaded.last<FollowSpec>().fromStart);
        QCOMPARE(loaded.last<FleetSpec>(), std::get<FleetSpec>(example(QStringLiteral("redis"))));
    }

    // One group per kind, in the kind list's order, each told when its kind runs.
    void theDockHostsEveryKindsControls() {
        SourcesPanel panel;
        const QList<KindControls*> groups = panel.findChildren<KindControls*>();
        QCOMPARE(groups.size(), qsizetype(std::variant_size_v<SourceKinds>));
        QCOMPARE(groups.front()->title(), QStringLiteral("Simulator"));
        auto* running = panel.findChild<QLabel*>(QStringLiteral("runningLabel"));
        QVERIFY(running);
        for (const QString& name : kindNames()) {
            panel.showSpec(example(name), true);
            QVERIFY2(running->text().contains(name), qPrintable(running->text()));
        }
        panel.showSpec(SourceSpec{}, false);
        QVERIFY(running->text().contains(QStringLiteral("No source running")));
    }
};

HITCOUNTER_TEST_MAIN(TestSourceKinds)
#include "tst_source_kinds.moc"
