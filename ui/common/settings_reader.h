// SettingsReader: reads the GUI's stored settings (QSettings) with every value checked, so that
// no stored value can stop the app from starting.
//
// GUI thread (it holds a QSettings&, which is not shared across threads).
//
// A key that is absent gives the caller's default in silence. A key whose value is not what the
// reader expects (not a number, out of range, an unknown name) gives the default too, is reset
// to it in the settings, and is named in problems(), e.g.
//     "view/windowSeconds = 5000 is not a whole number from 1 to 3600: reset to 300".
// A settings file QSettings cannot parse (status() FormatError) or read (AccessError) is named
// in problems() once; for a FormatError a copy of the file is kept beside it
// ("<file>.bad", replaced by the next bad file), since the next save rewrites the file without
// the lines it could not parse. The values it could read are still used.
//
// Example:
//     SettingsReader r(settings);
//     const int w = r.wholeNumber("view/windowSeconds", 300, 1, 3600);
//     for (const QString& p : r.problems()) std::fprintf(stderr, "%s\n", qPrintable(p));
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <functional>

class QSettings;

namespace hitcounter::ui {

class SettingsReader {
public:
    explicit SettingsReader(QSettings& settings);

    QSettings& settings() { return m_settings; }

    // The whole number at `key` in [min, max] (a number written with a fraction is bad).
    long long wholeNumber(const QString& key, long long fallback, long long min, long long max);
    // The number at `key` in [min, max], or in (min, max] with minExcluded.
    double number(const QString& key, double fallback, double min, double max,
                  bool minExcluded = false);
    // true/false (as QSettings writes a bool; 1/0 too).
    bool flag(const QString& key, bool fallback);
    // One of `names`.
    QString oneOf(const QString& key, const QString& fallback, const QStringList& names);
    // Any text, or a list of texts.
    QString text(const QString& key, const QString& fallback = {});
    QStringList texts(const QString& key);
    // Raw bytes (a saved geometry or state); the caller checks them and calls reject() when
    // Qt refuses them.
    QByteArray bytes(const QString& key);
    // Hands the saved Qt layout at `key` (a geometry, a window's or a splitter's state) to
    // `restore`, if there is one; one that `restore` refuses (false) is reset and named.
    void layout(const QString& key, const std::function<bool(const QByteArray&)>& restore);

    // Resets `key` (the current group's) to `fallback` and names it: "KEY = VALUE is WHY".
    void reject(const QString& key, const QString& why, const QVariant& fallback);

    const QStringList& problems() const { return m_problems; }

private:
    // The stored value when `key` is present and `valid` accepts it; else the fallback (a
    // present but invalid value is rejected with `why`).
    QVariant checked(const QString& key, const QVariant& fallback, const QString& why,
                     const std::function<bool(const QVariant&)>& valid);

    QSettings& m_settings;
    QStringList m_problems;
};

}  // namespace hitcounter::ui
