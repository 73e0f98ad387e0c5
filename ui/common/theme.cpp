#include "ui/common/theme.h"

#include <QApplication>
#include <QHash>
#include <QPalette>
#include <QStyleFactory>
#include "ui/plot/qcp.h"

namespace hitcounter::ui {

Theme lightTheme() {
    return Theme{false,
                 QColor("#ffffff"),
                 QColor("#202124"),
                 QColor("#e3e5e8"),
                 QColor("#1a73e8"),
                 QColor("#e8710a"),
                 QColor("#d93025"),
                 QColor("#bdc1c6")};
}

Theme darkTheme() {
    return Theme{true,
                 QColor("#1e1f22"),
                 QColor("#e8eaed"),
                 QColor("#34363b"),
                 QColor("#5aa1ff"),
                 QColor("#ffb45a"),
                 QColor("#ff6b6b"),
                 QColor("#5f6368")};
}

Theme themeNamed(const QString& name) {
    return name == QLatin1String("dark") ? darkTheme() : lightTheme();
}

namespace {

// Fusion outlines radio and check indicators with a darker shade of the window colour, which
// vanishes on a dark window: they get a ring that stands out and an accent fill. Both themes
// use this one sheet, so that widgets keep their sizes when the theme changes (a style sheet
// in one theme only changed their metrics, and the whole layout moved).
QString indicatorStyle(const Theme& theme) {
    const QString ring = theme.dark ? QStringLiteral("#9aa0a6") : neutralColor().name();
    return QStringLiteral(
               "QRadioButton::indicator, QCheckBox::indicator { width: 12px; height: 12px;"
               " border: 1px solid %1; background: %2; }"
               "QRadioButton::indicator { border-radius: 7px; }"
               "QCheckBox::indicator { border-radius: 2px; }"
               "QRadioButton::indicator:checked { background: qradialgradient(cx: 0.5, cy: 0.5,"
               " radius: 0.5, fx: 0.5, fy: 0.5, stop: 0 %3, stop: 0.55 %3, stop: 0.65 %2); }"
               "QCheckBox::indicator:checked { background: %3; border-color: %3; }"
               "QRadioButton::indicator:disabled, QCheckBox::indicator:disabled {"
               " border-color: #5f6368; }")
        .arg(ring, theme.window.name(), theme.accent.name());
}

}  // namespace

void applyTheme(QApplication& app, const Theme& theme) {
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette p;
    if (theme.dark) {
        const QColor base("#2b2d31");
        p.setColor(QPalette::Window, base);
        p.setColor(QPalette::WindowText, theme.text);
        p.setColor(QPalette::Base, theme.window);
        p.setColor(QPalette::AlternateBase, base);
        p.setColor(QPalette::ToolTipBase, base);
        p.setColor(QPalette::ToolTipText, theme.text);
        p.setColor(QPalette::Text, theme.text);
        p.setColor(QPalette::Button, base);
        p.setColor(QPalette::ButtonText, theme.text);
        p.setColor(QPalette::Highlight, theme.accent);
        p.setColor(QPalette::HighlightedText, Qt::black);
        p.setColor(QPalette::PlaceholderText, QColor("#9aa0a6"));
        // Fusion draws the frames of radio buttons, check boxes and group boxes with these:
        // left at the light palette's values they vanish on the dark window.
        p.setColor(QPalette::Light, QColor("#5f6368"));
        p.setColor(QPalette::Midlight, QColor("#45484d"));
        p.setColor(QPalette::Mid, neutralColor());
        p.setColor(QPalette::Dark, QColor("#9aa0a6"));
        p.setColor(QPalette::Shadow, QColor("#0b0c0d"));
        p.setColor(QPalette::BrightText, Qt::white);
        p.setColor(QPalette::Link, theme.accent);
        p.setColor(QPalette::LinkVisited, theme.accent.lighter(120));
        p.setColor(QPalette::Disabled, QPalette::Text, neutralColor());
        p.setColor(QPalette::Disabled, QPalette::ButtonText, neutralColor());
        p.setColor(QPalette::Disabled, QPalette::WindowText, neutralColor());
    } else {
        p = app.style()->standardPalette();
        p.setColor(QPalette::Highlight, theme.accent);
    }
    app.setPalette(p);
    app.setStyleSheet(indicatorStyle(theme));
}

QString boxColors(BoxTone tone, bool dark) {
    switch (tone) {
        case BoxTone::Good:
            return dark ? QStringLiteral(
                              "background: #16351f; color: #a8dab5; border: 1px solid "
                              "#2d6a3e;")
                        : QStringLiteral(
                              "background: #e6f4ea; color: #137333; border: 1px solid "
                              "#81c995;");
        case BoxTone::Notice:
            return dark ? QStringLiteral(
                              "background: #3d2e00; color: #fde293; border: 1px solid "
                              "#8a6d00;")
                        : QStringLiteral(
                              "background: #fef7e0; color: #8a5a00; border: 1px solid "
                              "#f9ab00;");
        case BoxTone::Error:
            return dark ? QStringLiteral(
                              "background: #3c1a18; color: #f6aea9; border: 1px solid "
                              "#a50e0e;")
                        : QStringLiteral(
                              "background: #fce8e6; color: #a50e0e; border: 1px solid %1;")
                              .arg(alarmColor().name());
    }
    return {};
}

QString noticeStyleSheet(bool dark) {
    return QStringLiteral("QLabel { %1 padding: 5px; border-radius: 3px; }")
        .arg(boxColors(BoxTone::Notice, dark));
}

void stylePlot(QCustomPlot& plot, const Theme& theme) {
    plot.setBackground(theme.window);
    const QList<QCPAxisRect*> rects = plot.axisRects();
    for (QCPAxisRect* rect : rects) {
        rect->setBackground(theme.window);
        const QList<QCPAxis*> axes = rect->axes();
        for (QCPAxis* axis : axes) {
            if (axis->basePen().style() != Qt::NoPen) {
                axis->setBasePen(QPen(theme.text, 1));
            }
            axis->setTickPen(QPen(theme.text, 1));
            axis->setSubTickPen(QPen(theme.text, 1));
            axis->setTickLabelColor(theme.text);
            axis->setLabelColor(theme.text);
            axis->grid()->setPen(QPen(theme.grid, 1, Qt::SolidLine));
            axis->grid()->setZeroLinePen(Qt::NoPen);
        }
    }
    const QList<QCPLayoutElement*> elements = plot.plotLayout()->elements(true);
    for (QCPLayoutElement* element : elements) {
        if (auto* title = qobject_cast<QCPTextElement*>(element)) {
            title->setTextColor(theme.text);
        }
    }
    if (plot.legend != nullptr) {
        plot.legend->setBrush(QBrush(theme.window));
        plot.legend->setBorderPen(QPen(theme.grid));
        plot.legend->setTextColor(theme.text);
    }
}

QColor neutralColor() {
    return QColor(0x80, 0x86, 0x8b);
}

QColor alarmColor() {
    return QColor(0xd9, 0x30, 0x25);
}

QColor policyColor(const QString& policy) {
    static const QHash<QString, QColor> colors{{QStringLiteral("ring"), QColor("#1a73e8")},
                                               {QStringLiteral("deque"), QColor("#12b5cb")},
                                               {QStringLiteral("sorted"), QColor("#7cb342")},
                                               {QStringLiteral("coarse"), QColor("#e8710a")},
                                               {QStringLiteral("estimate"), QColor("#d01884")},
                                               {QStringLiteral("naive"), QColor("#9334e6")},
                                               {QStringLiteral("scanring"), QColor("#8d6e63")}};
    return colors.value(policy, neutralColor());
}

}  // namespace hitcounter::ui
