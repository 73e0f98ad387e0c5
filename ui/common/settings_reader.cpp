#include "ui/common/settings_reader.h"

#include <QFile>
#include <QSettings>
#include <cmath>

namespace hitcounter::ui {

namespace {

constexpr qsizetype kShownChars = 40;

// The stored value as a person reads it: a list joined, control characters escaped, cut.
QString shown(const QVariant& value) {
    const QString raw = value.typeId() == QMetaType::QStringList
                            ? value.toStringList().join(QLatin1Char(','))
                            : value.toString();
    QString out;
    for (const QChar c : raw) {
        if (out.size() >= kShownChars) {
            return out + QStringLiteral("…");
        }
        out += c.isPrint() ? QString(c)
                           : QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
    }
    return out;
}

QString fullKey(const QSettings& settings, const QString& key) {
    return settings.group().isEmpty() ? key : settings.group() + QLatin1Char('/') + key;
}

QString statusProblem(QSettings& settings) {
    settings.sync();  // QSettings reads lazily: the status is known after a sync
    const QString file = settings.fileName();
    switch (settings.status()) {
        case QSettings::NoError:
            return {};
        case QSettings::AccessError:
            return QStringLiteral(
                       "settings file %1 could not be read or written: the defaults "
                       "are used and nothing will be saved")
                .arg(file);
        case QSettings::FormatError: {
            const QString copy = file + QStringLiteral(".bad");
            QFile::remove(copy);
            const bool kept = QFile::copy(file, copy);
            return QStringLiteral(
                       "settings file %1 is corrupt (a line it cannot parse): the "
                       "values it could read are used, the others are defaults%2")
                .arg(file, kept ? QStringLiteral(" (a copy is kept in %1)").arg(copy) : QString());
        }
    }
    return {};
}

}  // namespace

SettingsReader::SettingsReader(QSettings& settings) : m_settings(settings) {
    if (const QString problem = statusProblem(settings); !problem.isEmpty()) {
        m_problems << problem;
    }
}

void SettingsReader::reject(const QString& key, const QString& why, const QVariant& fallback) {
    const QVariant stored = m_settings.value(key);
    m_problems << QStringLiteral("%1 = %2 is %3: reset to %4")
                      .arg(fullKey(m_settings, key), shown(stored), why, shown(fallback));
    if (fallback.isNull()) {
        m_settings.remove(key);
    } else {
        m_settings.setValue(key, fallback);
    }
}

QVariant SettingsReader::checked(const QString& key, const QVariant& fallback, const QString& why,
                                 const std::function<bool(const QVariant&)>& valid) {
    if (!m_settings.contains(key)) {
        return fallback;
    }
    const QVariant stored = m_settings.value(key);
    if (valid(stored)) {
        return stored;
    }
    reject(key, why, fallback);
    return fallback;
}

long long SettingsReader::wholeNumber(const QString& key, long long fallback, long long min,
                                      long long max) {
    const QString why = QStringLiteral("not a whole number from %1 to %2").arg(min).arg(max);
    return checked(key, fallback, why,
                   [&](const QVariant& v) {
                       bool ok = false;
                       const long long n = v.toString().trimmed().toLongLong(&ok);
                       return ok && n >= min && n <= max;
                   })
        .toString()
        .toLongLong();
}

double SettingsReader::number(const QString& key, double fallback, double min, double max,
                              bool minExcluded) {
    const QString why = QStringLiteral("not a number %1 %2 to %3")
                            .arg(minExcluded ? QStringLiteral("above") : QStringLiteral("from"))
                            .arg(min)
                            .arg(max);
    return checked(key, fallback, why,
                   [&](const QVariant& v) {
                       bool ok = false;
                       const double x = v.toString().trimmed().toDouble(&ok);
                       return ok && std::isfinite(x) && (minExcluded ? x > min : x >= min) &&
                              x <= max;
                   })
        .toString()
        .toDouble();
}

bool SettingsReader::flag(const QString& key, bool fallback) {
    static const QStringList kNames{QStringLiteral("true"), QStringLiteral("false"),
                                    QStringLiteral("1"), QStringLiteral("0")};
    const QString value =
        oneOf(key, fallback ? QStringLiteral("true") : QStringLiteral("false"), kNames);
    return value == QLatin1String("true") || value == QLatin1String("1");
}

QString SettingsReader::oneOf(const QString& key, const QString& fallback,
                              const QStringList& names) {
    const QString why = QStringLiteral("not one of %1").arg(names.join(QStringLiteral(", ")));
    return checked(key, fallback, why,
                   [&](const QVariant& v) {
                       return v.typeId() != QMetaType::QStringList &&
                              names.contains(v.toString().trimmed());
                   })
        .toString()
        .trimmed();
}

QString SettingsReader::text(const QString& key, const QString& fallback) {
    return checked(key, fallback, QStringLiteral("not a text"),
                   [](const QVariant& v) { return v.canConvert<QString>(); })
        .toString();
}

QStringList SettingsReader::texts(const QString& key) {
    return checked(key, QStringList(), QStringLiteral("not a list of texts"),
                   [](const QVariant& v) { return v.canConvert<QStringList>(); })
        .toStringList();
}

QByteArray SettingsReader::bytes(const QString& key) {
    return m_settings.value(key).toByteArray();
}

void SettingsReader::layout(const QString& key,
                            const std::function<bool(const QByteArray&)>& restore) {
    const QByteArray saved = bytes(key);
    if (!saved.isEmpty() && !restore(saved)) {
        reject(key, QStringLiteral("not a saved layout Qt can read"), QVariant());
    }
}

}  // namespace hitcounter::ui
