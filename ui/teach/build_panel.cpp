#include "ui/teach/build_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "core/teach/practice.h"
#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;
using teach::RingVariant;

namespace {

constexpr qreal kLabelWidth = 80;
constexpr qreal kResultWidth = 136;
constexpr qreal kCellWidth = 58;
constexpr qreal kMinCellWidth = 42;
constexpr qreal kCellGap = 4;

QString operationText(const teach::Operation& op) {
    if (op.kind == teach::Operation::Kind::GetHits) {
        return QStringLiteral("getHits(%1)").arg(op.second);
    }
    return op.repeat > 1 ? QStringLiteral("hit(%1) ×%2").arg(op.second).arg(op.repeat)
                         : QStringLiteral("hit(%1)").arg(op.second);
}

bool sameSlot(const teach::VariantSlot& a, const teach::VariantSlot& b) {
    // A count-only slot has no second to compare.
    return a.used == b.used &&
           (!a.used || (a.count == b.count && (!a.second || !b.second || a.second == b.second)));
}

// What one side's result says, for the right-hand box.
QString resultText(const teach::SideState& side) {
    if (side.answer) {
        Count lost = 0;
        for (const teach::LostHit& h : side.lost) {
            lost += h.count;
        }
        return lost > 0 ? QStringLiteral("answer %1 (%2 lost)").arg(*side.answer).arg(lost)
                        : QStringLiteral("answer %1").arg(*side.answer);
    }
    if (side.dropped) {
        return QStringLiteral("dropped");
    }
    if (side.outOfRange) {
        return QStringLiteral("slot %1: none").arg(*side.slot);
    }
    if (side.slot) {
        const teach::VariantSlot& s = side.slots[*side.slot];
        return QStringLiteral("slot %1 = ×%2").arg(*side.slot).arg(s.count);
    }
    return {};
}

// Whether the hits `side` adds from slot i are added by `other` too: the same second with the
// same count among the other's counted slots (any slot: the index may be renumbered), or, for a
// slot without a second, the other's slot i counted alike.
bool countedAlike(const teach::SideState& side, const teach::SideState& other, std::size_t i) {
    const teach::VariantSlot& s = side.slots[i];
    if (!s.second) {
        const teach::VariantSlot& o = other.slots[i];
        return s.counted == o.counted && (!s.counted || s.count == o.count);
    }
    if (!s.counted) {
        return true;  // what it leaves out shows on the other side, if the other counts it
    }
    return std::any_of(other.slots.begin(), other.slots.end(), [&](const teach::VariantSlot& o) {
        return o.counted && (!o.second || (*o.second == *s.second && o.count == s.count));
    });
}

QComboBox* choiceBox(QWidget* parent, const QStringList& items, const QString& tip) {
    auto* box = new QComboBox(parent);
    box->addItems(items);
    box->setToolTip(tip);
    return box;
}

}  // namespace

// ---- SlotCompareView ------------------------------------------------------------------------

SlotCompareView::SlotCompareView(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void SlotCompareView::setStep(std::optional<teach::VariantStep> step,
                              std::optional<teach::Difference> d, std::size_t focus) {
    m_step = std::move(step);
    m_difference = std::move(d);
    m_focus = focus;
    update();
}

int SlotCompareView::visibleCount() const {
    if (!m_step) {
        return 0;
    }
    const int w = int(m_step->reference.slots.size());
    const qreal room = qreal(width()) - 16 - kLabelWidth - kResultWidth;
    return std::clamp(int(room / (kMinCellWidth + kCellGap)), 1, w);
}

// As wide as the room allows for the slots shown, from kMinCellWidth to kCellWidth.
qreal SlotCompareView::cellWidth() const {
    const qreal room = qreal(width()) - 16 - kLabelWidth - kResultWidth;
    return std::clamp(room / qreal(std::max(1, visibleCount())) - kCellGap, kMinCellWidth,
                      kCellWidth);
}

std::vector<std::size_t> SlotCompareView::shownSlots() const {
    std::vector<std::size_t> out;
    if (!m_step) {
        return out;
    }
    const std::size_t w = m_step->reference.slots.size();
    const std::size_t n = std::size_t(visibleCount());
    if (m_step->op.kind == teach::Operation::Kind::GetHits) {
        // Every slot either ring adds up (issue 24: none of them hidden), in index order.
        for (std::size_t i = 0; i < w && out.size() < n; ++i) {
            if (m_step->mine.slots[i].counted || m_step->reference.slots[i].counted) {
                out.push_back(i);
            }
        }
        if (!out.empty()) {
            return out;
        }
    }
    // Centre the focus slot; with every slot shown, start at slot 0.
    const std::size_t first = n >= w ? 0 : (m_focus + w - n / 2) % w;
    for (std::size_t k = 0; k < n; ++k) {
        out.push_back((first + k) % w);
    }
    return out;
}

QSize SlotCompareView::minimumSizeHint() const {
    return {330, 130};  // two cells beside the labels and the results
}

QSize SlotCompareView::sizeHint() const {
    return {720, 170};
}

void SlotCompareView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), ts::colors().board);
    if (!m_step) {
        p.setPen(ts::colors().softInk);
        p.setFont(ts::font(11));
        p.drawText(rect().adjusted(12, 0, -12, 0), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Run your ring: the step where it first differs from the reference "
                      "appears here, your slots over the reference's."));
        return;
    }
    p.setPen(ts::colors().ink);
    p.setFont(ts::font(10.5, true));
    const QRectF header(8, 4, width() - 16, 20);
    const std::vector<std::size_t> shown = shownSlots();
    const QString range = shown.size() == m_step->reference.slots.size()
                              ? tr("all %1 slots").arg(shown.size())
                              : tr("slots %1 to %2 of %3")
                                    .arg(shown.front())
                                    .arg(shown.back())
                                    .arg(m_step->reference.slots.size());
    p.drawText(header, Qt::AlignLeft | Qt::AlignVCenter,
               tr("Step %1: %2 (%3)").arg(m_step->step).arg(operationText(m_step->op), range));
    const qreal rowHeight = std::min<qreal>(60, (height() - 32) / 2.0);
    paintRow(p, QRectF(8, 28, width() - 16, rowHeight - 4), m_step->mine, true);
    paintRow(p, QRectF(8, 28 + rowHeight, width() - 16, rowHeight - 4), m_step->reference, false);
}

void SlotCompareView::paintRow(QPainter& p, const QRectF& row, const teach::SideState& side,
                               bool mine) const {
    p.setPen(ts::colors().ink);
    p.setFont(ts::font(10.5, true));
    p.drawText(QRectF(row.left(), row.top(), kLabelWidth, row.height()),
               Qt::AlignLeft | Qt::AlignVCenter, mine ? tr("Your ring") : tr("Reference"));
    const teach::SideState& other = mine ? m_step->reference : m_step->mine;
    const bool query = m_step->op.kind == teach::Operation::Kind::GetHits;
    qreal x = row.left() + kLabelWidth;
    for (std::size_t i : shownSlots()) {
        const QRectF cell(x, row.top(), cellWidth(), row.height());
        // Outlined only when the run stopped: a matching ring may hold its slots differently
        // (a sweep clears what the reference keeps stale) without ever answering differently.
        // At a getHits a cell differs when this ring adds what the other does not, compared by
        // second (a renumbered slot is no difference), by index for a count-only slot.
        const bool differs =
            m_difference && i < other.slots.size() &&
            (query ? !countedAlike(side, other, i) : !sameSlot(side.slots[i], other.slots[i]));
        teach::VariantSlot shown = side.slots[i];
        if (query) {
            shown.inWindow = shown.counted;  // green: this ring adds it to its answer
        }
        paintCell(p, cell, shown, differs, side.slot == i && !side.outOfRange);
        p.setPen(ts::colors().softInk);
        p.setFont(ts::font(7.5));
        if (!mine) {
            p.drawText(QRectF(cell.left(), cell.bottom() + 1, cell.width(), 12), Qt::AlignCenter,
                       QString::number(i));
        }
        x += cellWidth() + kCellGap;
    }
    const bool wrong = mine && m_difference.has_value();
    paintResult(p,
                QRectF(row.right() - kResultWidth + 8, row.top(), kResultWidth - 8, row.height()),
                resultText(side), wrong);
}

void SlotCompareView::paintCell(QPainter& p, const QRectF& cell, const teach::VariantSlot& slot,
                                bool differs, bool written) const {
    const QColor fill = !slot.used      ? ts::colors().empty
                        : slot.inWindow ? ts::colors().inWindow
                                        : ts::colors().stale;
    const QColor edge = differs         ? ts::colors().removed
                        : written       ? ts::colors().current
                        : !slot.used    ? ts::colors().emptyEdge
                        : slot.inWindow ? ts::colors().inWindowEdge
                                        : ts::colors().staleInk;
    p.setPen(QPen(edge, differs || written ? 2.5 : 1));
    p.setBrush(fill);
    p.drawRoundedRect(cell.adjusted(1, 1, -1, -1), 6, 6);
    if (!slot.used) {
        return;
    }
    p.setPen(slot.inWindow ? ts::colors().ink : ts::colors().staleInk);
    p.setFont(ts::mono(9.5, true));
    p.drawText(cell.adjusted(2, 2, -2, -cell.height() / 2), Qt::AlignCenter,
               slot.second ? QString::number(*slot.second) : QStringLiteral("?"));
    p.setFont(ts::mono(9.5));
    p.drawText(cell.adjusted(2, cell.height() / 2, -2, -2), Qt::AlignCenter,
               QStringLiteral("×%1").arg(slot.count));
}

void SlotCompareView::paintResult(QPainter& p, const QRectF& box, const QString& text,
                                  bool wrong) const {
    p.setPen(QPen(wrong ? ts::colors().removed : ts::colors().inWindowEdge, 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(box.adjusted(1, 6, -1, -6), 6, 6);
    p.setPen(wrong ? ts::colors().removed : ts::colors().inWindowInk);
    p.setFont(ts::font(11, true));
    p.drawText(box, Qt::AlignCenter, text);
}

// ---- BuildPanel ---------------------------------------------------------------------------

BuildPanel::BuildPanel(QWidget* parent)
    : QWidget(parent),
      m_compareBox(choiceBox(this,
                             {QStringLiteral("head - W < s.second   (>)"),
                              QStringLiteral("head - W <= s.second   (>=)")},
                             tr("When is second s inside the window? Used by hit's late check "
                                "and by getHits."))),
      m_indexBox(choiceBox(this,
                           {QStringLiteral("t mod W"), QStringLiteral("t mod (W + 1)"),
                            QStringLiteral("t mod (W - 1)")},
                           tr("Which of the W slots holds second t?"))),
      m_resetBox(choiceBox(this,
                           {tr("when its second is not t (lazy)"), tr("never"),
                            tr("only when its count is 0"), tr("sweep the slots the head skips")},
                           tr("When does a hit start its slot's count again from 0?"))),
      m_storeBox(
          choiceBox(this, {tr("(second, count)"), tr("count only")}, tr("What does a slot hold?"))),
      m_code(new QLabel(this)),
      m_problem(new QLabel(this)),
      m_runLesson(new QPushButton(tr("Run on this lesson"), this)),
      m_runRandom(new QPushButton(tr("Run on random operations"), this)),
      m_seed(new QSpinBox(this)),
      m_verdict(new QLabel(this)),
      m_narration(new QLabel(this)),
      m_operationsRun(new QLabel(this)),
      m_compare(new SlotCompareView(this)) {
    setObjectName(QStringLiteral("buildPanel"));
    // It shares the panes' stack with the ring and the limiters: its minimum must not raise
    // theirs (the chart lessons fit 1280x720 only just).
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    setAttribute(Qt::WA_StyledBackground);
    auto* root = new QHBoxLayout(this);
    root->setContentsMargins(8, 8, 8, 8);
    root->setSpacing(10);

    auto* left = new QVBoxLayout;
    left->setSpacing(4);
    auto* title = new QLabel(tr("Build your own ring"), this);
    title->setFont(ts::font(13, true));
    left->addWidget(title);
    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setVerticalSpacing(4);
    form->addRow(tr("In the window:"), m_compareBox);
    form->addRow(tr("Slot of second t:"), m_indexBox);
    form->addRow(tr("Reset the slot:"), m_resetBox);
    form->addRow(tr("A slot holds:"), m_storeBox);
    left->addLayout(form);
    m_code->setFont(ts::mono(8.5));
    m_code->setTextFormat(Qt::RichText);
    m_code->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_code->setTextInteractionFlags(Qt::TextSelectableByMouse);
    left->addWidget(m_code, 1);
    m_problem->setWordWrap(true);
    m_problem->hide();
    left->addWidget(m_problem);
    auto* runs = new QHBoxLayout;
    runs->addWidget(m_runLesson);
    runs->addStretch(1);
    left->addLayout(runs);
    auto* random = new QHBoxLayout;
    random->addWidget(m_runRandom);
    m_seed->setRange(1, 999'999'999);
    m_seed->setValue(1);
    m_seed->setPrefix(tr("seed "));
    m_seed->setToolTip(tr("The same seed and W always give the same operations"));
    random->addWidget(m_seed);
    random->addStretch(1);
    left->addLayout(random);
    root->addLayout(left, 2);

    auto* right = new QVBoxLayout;
    right->setSpacing(6);
    m_verdict->setFont(ts::font(13, true));
    m_verdict->setWordWrap(true);
    m_verdict->setText(
        tr("Pick the four choices, then run your ring against the reference "
           "counter (RingCounter)."));
    right->addWidget(m_verdict);
    m_narration->setFont(ts::font(11.5));
    m_narration->setWordWrap(true);
    m_narration->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_narration->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(m_narration);
    // The operations the run used, the differing one marked: a random run shows its own.
    m_operationsRun->setFont(ts::mono(8.5));
    m_operationsRun->setWordWrap(true);
    m_operationsRun->setTextFormat(Qt::RichText);
    m_operationsRun->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(m_operationsRun);
    right->addWidget(m_compare, 1);
    root->addLayout(right, 3);

    for (QComboBox* box : {m_compareBox, m_indexBox, m_resetBox, m_storeBox}) {
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            m_touched = true;
            choicesChanged();
        });
    }
    connect(m_runLesson, &QPushButton::clicked, this, &BuildPanel::runOnLesson);
    connect(m_runRandom, &QPushButton::clicked, this,
            [this] { runRandom(std::uint64_t(m_seed->value())); });
    restyle();
    choicesChanged();
}

void BuildPanel::restyle() {
    const ts::TeachPalette& c = ts::colors();
    setStyleSheet(QStringLiteral("#buildPanel { background: %1; border: 1px solid %2; "
                                 "border-radius: 10px; } #buildPanel QLabel { color: %3; }")
                      .arg(c.board.name(), c.boardBorder.name(), c.ink.name()));
    m_problem->setStyleSheet(QStringLiteral("color: %1;").arg(c.removed.name()));
    styleVerdict();
    m_compare->update();
}

// Green when the learner's ring matched the reference, red when it differed.
void BuildPanel::styleVerdict() {
    if (!m_result) {
        m_verdict->setStyleSheet(QString());
        return;
    }
    const ts::TeachPalette& c = ts::colors();
    m_verdict->setStyleSheet(QStringLiteral("color: %1;")
                                 .arg((m_result->difference ? c.removed : c.inWindowInk).name()));
}

void BuildPanel::setOperations(std::vector<teach::Operation> operations,
                               std::chrono::seconds window) {
    const bool changed = window != m_window || teach::formatOperations(operations) !=
                                                   teach::formatOperations(m_operations);
    m_operations = std::move(operations);
    m_window = window;
    if (changed) {
        makeStale(tr("The lesson changed since the last run (now W = %1): run your ring again.")
                      .arg(window.count()));
    }
}

// A verdict about other choices or other operations is no verdict (issue 24): it goes, and
// says why.
void BuildPanel::makeStale(const QString& why) {
    if (!m_result) {
        return;
    }
    m_result.reset();
    m_verdict->setText(why);
    m_narration->clear();
    m_operationsRun->clear();
    m_compare->setStep(std::nullopt, std::nullopt, 0);
    styleVerdict();
}

RingVariant BuildPanel::variant() const {
    RingVariant v;
    v.compare = RingVariant::Compare(m_compareBox->currentIndex());
    v.index = RingVariant::Index(m_indexBox->currentIndex());
    v.reset = RingVariant::Reset(m_resetBox->currentIndex());
    v.store = RingVariant::Store(m_storeBox->currentIndex());
    return v;
}

void BuildPanel::setVariant(const RingVariant& v) {
    const QSignalBlocker b1(m_compareBox), b2(m_indexBox), b3(m_resetBox), b4(m_storeBox);
    m_compareBox->setCurrentIndex(int(v.compare));
    m_indexBox->setCurrentIndex(int(v.index));
    m_resetBox->setCurrentIndex(int(v.reset));
    m_storeBox->setCurrentIndex(int(v.store));
    m_touched = true;
    choicesChanged();
}

QString BuildPanel::pseudocode() const {
    const RingVariant v = variant();
    const bool ge = v.compare == RingVariant::Compare::GreaterEqual;
    const bool counts = v.store == RingVariant::Store::CountOnly;
    const QString index = v.index == RingVariant::Index::ModW ? QStringLiteral("t mod W")
                          : v.index == RingVariant::Index::ModWPlus1
                              ? QStringLiteral("t mod (W + 1)")
                              : QStringLiteral("t mod (W - 1)");
    QStringList lines;
    lines << QStringLiteral("hit(t):")
          << (ge ? QStringLiteral("    if t < head - W: return")
                 : QStringLiteral("    if t <= head - W: return"));
    if (v.reset == RingVariant::Reset::Sweep) {
        lines << QStringLiteral("    clear the slots of seconds head+1 .. t");
    }
    lines << QStringLiteral("    head = max(head, t)") << QStringLiteral("    i = ") + index;
    switch (v.reset) {
        case RingVariant::Reset::SecondDiffers:
            lines << (counts ? QStringLiteral("    # no reset: a count-only slot has no second")
                             : QStringLiteral("    if slot[i].second != t: slot[i] = (t, 0)"));
            break;
        case RingVariant::Reset::CountZero:
            lines << QStringLiteral("    if slot[i].count == 0: slot[i] = (t, 0)");
            break;
        case RingVariant::Reset::Never:
            lines << QStringLiteral("    # no reset");
            break;
        case RingVariant::Reset::Sweep:
            lines << QStringLiteral("    # the sweep cleared stale slots");
            break;
    }
    lines << (counts ? QStringLiteral("    slot[i] += 1")
                     : QStringLiteral("    slot[i] = (t, slot[i].count + 1)"));
    lines << QString() << QStringLiteral("getHits(t):");
    if (v.reset == RingVariant::Reset::Sweep) {
        lines << QStringLiteral("    clear the slots of seconds head+1 .. t");
    }
    lines << QStringLiteral("    head = max(head, t)");
    lines << (counts
                  ? QStringLiteral("    return sum of all slots")
                  : (ge ? QStringLiteral("    return sum of s.count, head - W <= s.second <= t")
                        : QStringLiteral("    return sum of s.count, head - W < s.second <= t")));
    return lines.join(QLatin1Char('\n'));
}

void BuildPanel::choicesChanged() {
    QString html = pseudocode().toHtmlEscaped();
    html.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
    html.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    m_code->setText(html);
    const bool impossible = !teach::variantProblem(variant()).empty();
    // In the words of the choices on screen, not the command line's (issue 24).
    m_problem->setText(impossible ? tr("“When its second is not t” needs slots that hold "
                                       "(second, count): a slot of counts only has no second to "
                                       "compare with t. Choose (second, count), or another reset "
                                       "rule.")
                                  : QString());
    m_problem->setVisible(impossible);
    m_runLesson->setEnabled(!impossible);
    m_runRandom->setEnabled(!impossible);
    makeStale(tr("Your choices changed since the last run: run your ring again."));
    Q_EMIT variantChanged();
}

void BuildPanel::runOnLesson() {
    m_lessonRun = true;
    runOn(m_operations, tr("this lesson"));
    m_lessonRun = false;
}

void BuildPanel::runRandom(std::uint64_t seed) {
    m_seed->setValue(int(seed));
    const auto parsed = teach::parseOperations(teach::practiceOperations(seed, m_window));
    runOn(std::get<std::vector<teach::Operation>>(parsed),
          tr("random operations (seed %1)").arg(seed));
}

void BuildPanel::runOn(const std::vector<teach::Operation>& ops, const QString& what) {
    if (!teach::variantProblem(variant()).empty()) {
        return;
    }
    m_touched = true;
    m_ran = ops;
    m_result = teach::runVariant(variant(), ops, m_window);
    showResult(what, ops.size());
}

void BuildPanel::showResult(const QString& what, std::size_t total) {
    const teach::VariantRun& run = *m_result;
    QStringList ops;
    for (std::size_t k = 0; k < m_ran.size(); ++k) {
        QString text = operationText(m_ran[k]).toHtmlEscaped();
        if (run.difference && run.difference->step == k + 1) {
            text = QStringLiteral("<b style='color:%1'>%2 ✘</b>")
                       .arg(ts::colors().removed.name(), text);
        }
        ops << text;
    }
    m_operationsRun->setText(
        tr("Ran %1: %2").arg(what.toHtmlEscaped(), ops.join(QStringLiteral("; "))));
    if (!run.difference) {
        styleVerdict();
        m_verdict->setText(tr("Same as the reference on all %1 steps of %2.").arg(total).arg(what));
        m_narration->setText(
            run.divergence
                ? tr("Every getHits gave the same answer, though your ring already holds "
                     "something else at step %1: %2 Only a wrong answer is a failure: try "
                     "random operations with other seeds, or another W.")
                      .arg(run.divergence->step)
                      .arg(QString::fromStdString(run.divergence->narration))
                : tr("Every hit landed in the same slot with the same count, and every getHits "
                     "gave the same answer. Try random operations with other seeds, or another "
                     "W."));
        if (run.steps.empty()) {
            m_compare->setStep(std::nullopt, std::nullopt, 0);
        } else {
            const teach::VariantStep& last = run.steps.back();
            m_compare->setStep(last, std::nullopt, std::size_t(last.op.second % m_window.count()));
        }
        return;
    }
    const teach::Difference& d = *run.difference;
    const teach::VariantStep& last = run.steps.back();
    styleVerdict();
    m_verdict->setText(tr("Differs at step %1 of %2 (%3): %4. Yours: %5, the reference: %6.")
                           .arg(d.step)
                           .arg(total)
                           .arg(what, operationText(last.op), QString::fromStdString(d.mine),
                                QString::fromStdString(d.reference)));
    m_narration->setText(QString::fromStdString(d.narration));
    // Centre on the slot the difference is about: the hit's, else the first slot whose
    // contents differ, else t mod W (getHits's boundary slot).
    std::size_t focus = std::size_t(last.op.second % m_window.count());
    if (last.mine.slot && !last.mine.outOfRange) {
        focus = *last.mine.slot;
    } else {
        for (std::size_t i = 0; i < last.mine.slots.size(); ++i) {
            if (!sameSlot(last.mine.slots[i], last.reference.slots[i])) {
                focus = i;
                break;
            }
        }
    }
    m_compare->setStep(last, d, focus);
    if (m_lessonRun) {
        Q_EMIT lessonDiffersAt(int(d.step));
    }
}

QString BuildPanel::verdict() const {
    return m_verdict->text();
}

QString BuildPanel::narration() const {
    return m_narration->text();
}

QString BuildPanel::operationsRun() const {
    QString text = m_operationsRun->text();
    text.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    return text;
}

}  // namespace hitcounter::ui
