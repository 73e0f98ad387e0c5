#include "ui/teach/transport_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace {

QToolButton* makeButton(QWidget* parent, const QString& tip) {
    auto* button = new QToolButton(parent);
    button->setIconSize(QSize(22, 22));
    button->setAutoRaise(true);
    button->setToolTip(tip);
    return button;
}

// A triangle pointing right (or left) in `box`.
QPolygonF triangle(const QRectF& box, bool right) {
    return right
               ? QPolygonF{box.topLeft(), QPointF(box.right(), box.center().y()), box.bottomLeft()}
               : QPolygonF{box.topRight(), QPointF(box.left(), box.center().y()),
                           box.bottomRight()};
}

}  // namespace

// The transport's glyphs drawn in the teaching palette's ink (issue 24: the style's own icons
// are dark grey, about 1.2:1 on the dark theme), and a faint one for a disabled button.
QIcon TransportBar::glyph(Glyph g) {
    QIcon icon;
    for (const bool enabled : {true, false}) {
        for (const int scale : {1, 2}) {  // crisp on a plain screen and on a HiDPI one
            QPixmap pixmap(QSize(22, 22) * scale);
            pixmap.setDevicePixelRatio(scale);
            pixmap.fill(Qt::transparent);
            QPainter p(&pixmap);
            p.setRenderHint(QPainter::Antialiasing);
            QColor ink = teachstyle::colors().ink;
            if (!enabled) {
                ink = teachstyle::colors().softInk;
                ink.setAlpha(110);
            }
            p.setPen(Qt::NoPen);
            p.setBrush(ink);
            const QRectF all(3, 4, 16, 14);
            switch (g) {
                case Glyph::First:
                    p.drawRect(QRectF(3, 4, 3, 14));
                    p.drawPolygon(triangle(QRectF(6, 4, 7, 14), false));
                    p.drawPolygon(triangle(QRectF(12, 4, 7, 14), false));
                    break;
                case Glyph::Back:
                    p.drawPolygon(triangle(QRectF(3, 4, 8, 14), false));
                    p.drawPolygon(triangle(QRectF(11, 4, 8, 14), false));
                    break;
                case Glyph::Play:
                    p.drawPolygon(triangle(all.adjusted(2, 0, -1, 0), true));
                    break;
                case Glyph::Pause:
                    p.drawRect(QRectF(5, 4, 4, 14));
                    p.drawRect(QRectF(13, 4, 4, 14));
                    break;
                case Glyph::Forward:
                    p.drawPolygon(triangle(QRectF(3, 4, 8, 14), true));
                    p.drawPolygon(triangle(QRectF(11, 4, 8, 14), true));
                    break;
                case Glyph::Last:
                    p.drawPolygon(triangle(QRectF(3, 4, 7, 14), true));
                    p.drawPolygon(triangle(QRectF(9, 4, 7, 14), true));
                    p.drawRect(QRectF(16, 4, 3, 14));
                    break;
            }
            p.end();
            icon.addPixmap(pixmap, enabled ? QIcon::Normal : QIcon::Disabled);
        }
    }
    return icon;
}

void TransportBar::restyle() {
    m_first->setIcon(glyph(Glyph::First));
    m_back->setIcon(glyph(Glyph::Back));
    m_play->setIcon(glyph(m_playing ? Glyph::Pause : Glyph::Play));
    m_forward->setIcon(glyph(Glyph::Forward));
    m_last->setIcon(glyph(Glyph::Last));
}

TransportBar::TransportBar(QWidget* parent)
    : QWidget(parent),
      m_first(makeButton(this, tr("Jump to the start (Home)"))),
      m_back(makeButton(this, tr("Step back (Left)"))),
      m_play(makeButton(this, tr("Play / pause (Space)"))),
      m_forward(makeButton(this, tr("Step forward (Right)"))),
      m_last(makeButton(this, tr("Jump to the end (End)"))),
      m_speed(new QComboBox(this)),
      m_scrubber(new QSlider(Qt::Horizontal, this)),
      m_position(new QLabel(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    for (QToolButton* b : {m_first, m_back, m_play, m_forward, m_last}) {
        layout->addWidget(b);
    }
    m_speed->addItem(tr("0.5× speed"), 2.4);
    m_speed->addItem(tr("1× speed"), 1.2);
    m_speed->addItem(tr("2× speed"), 0.6);
    m_speed->addItem(tr("4× speed"), 0.3);
    m_speed->setCurrentIndex(1);
    layout->addWidget(m_speed);
    m_scrubber->setMinimum(0);
    m_scrubber->setPageStep(1);
    m_scrubber->setTickPosition(QSlider::TicksBelow);
    m_scrubber->setToolTip(tr("Every step of the lesson: drag to any of them"));
    layout->addWidget(m_scrubber, 1);
    m_position->setFont(teachstyle::font(10, true));
    m_position->setMinimumWidth(
        QFontMetrics(m_position->font()).horizontalAdvance(tr("step %1 of %2").arg(888).arg(888)) +
        8);
    layout->addWidget(m_position);
    auto* saveFrame = new QPushButton(tr("Save frame…"), this);
    saveFrame->setToolTip(tr("Save what you see as a PNG"));
    auto* saveAll = new QPushButton(tr("Save all steps…"), this);
    saveAll->setToolTip(tr("Save every step of the lesson as numbered PNGs, for slides"));
    layout->addWidget(saveFrame);
    layout->addWidget(saveAll);
    auto* savePdf = new QPushButton(tr("Handout PDF…"), this);
    savePdf->setToolTip(
        tr("Save the lesson as a PDF handout: the goal, the ring, the steps, questions and "
           "the answers on a page of their own"));
    layout->addWidget(savePdf);
    connect(savePdf, &QPushButton::clicked, this, &TransportBar::exportPdfRequested);

    connect(m_first, &QToolButton::clicked, this, &TransportBar::firstRequested);
    connect(m_back, &QToolButton::clicked, this, &TransportBar::backRequested);
    connect(m_play, &QToolButton::clicked, this, &TransportBar::playToggled);
    connect(m_forward, &QToolButton::clicked, this, &TransportBar::forwardRequested);
    connect(m_last, &QToolButton::clicked, this, &TransportBar::lastRequested);
    connect(m_scrubber, &QSlider::valueChanged, this, &TransportBar::stepRequested);
    connect(m_speed, &QComboBox::currentIndexChanged, this, &TransportBar::speedChanged);
    connect(saveFrame, &QPushButton::clicked, this, &TransportBar::exportFrameRequested);
    connect(saveAll, &QPushButton::clicked, this, &TransportBar::exportAllRequested);
    restyle();
}

void TransportBar::setState(int step, int lastStep, bool playing) {
    {
        const QSignalBlocker blocker(m_scrubber);
        m_scrubber->setMaximum(lastStep);
        m_scrubber->setTickInterval(std::max(1, lastStep / 40));
        m_scrubber->setValue(step);
    }
    m_position->setText(tr("step %1 of %2").arg(step).arg(lastStep));
    if (playing != m_playing) {
        m_playing = playing;
        m_play->setIcon(glyph(playing ? Glyph::Pause : Glyph::Play));
    }
    m_first->setEnabled(step > 0);
    m_back->setEnabled(step > 0);
    m_forward->setEnabled(step < lastStep);
    m_last->setEnabled(step < lastStep);
    m_play->setEnabled(lastStep > 0);
}

double TransportBar::secondsPerStep() const {
    return m_speed->currentData().toDouble();
}

}  // namespace hitcounter::ui
