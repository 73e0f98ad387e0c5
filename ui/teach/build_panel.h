// BuildPanel: the teaching view's "Build" tab (issue 16, build 4, constructing). The learner
// builds the ring's logic from four choices (the comparison, the slot index, the reset rule,
// what a slot stores; teach::RingVariant), sees the pseudocode those choices make, and runs it
// against the reference counter (RingCounter) on the lesson's operations or on seeded random
// ones (teach::practiceOperations). The run stops at the first step where the two differ
// (teach::runVariant); the panel then shows both rings side by side (SlotCompareView: the
// learner's slots over the reference's, the differing slot outlined in red, both answers) and a
// narration naming the difference and the choice behind it.
//
// GUI thread only. Holds the operations it was last given (setOperations) and the last run.
#pragma once

#include <QWidget>
#include <optional>
#include <vector>

#include "core/teach/ring_variant.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace hitcounter::ui {

// Two rows of slots, the learner's over the reference's: at a getHits every slot either ring adds
// up (green where that ring adds it), else the slots around the one that matters; the slots
// that differ outlined in red (at a getHits: what one ring adds and the other does not, by
// second), each side's result on the right (with the hits the learner's ring lost).
class SlotCompareView : public QWidget {
    Q_OBJECT

public:
    explicit SlotCompareView(QWidget* parent = nullptr);

    // Shows `step` (empty: nothing run yet). `focus` is the slot to centre on.
    void setStep(std::optional<teach::VariantStep> step, std::optional<teach::Difference> d,
                 std::size_t focus);
    // The slot indices drawn, left to right (a run of consecutive slots, wrapping at W).
    std::vector<std::size_t> shownSlots() const;
    const std::optional<teach::VariantStep>& step() const { return m_step; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int visibleCount() const;
    qreal cellWidth() const;
    void paintRow(QPainter& p, const QRectF& row, const teach::SideState& side, bool mine) const;
    void paintCell(QPainter& p, const QRectF& cell, const teach::VariantSlot& slot, bool differs,
                   bool written) const;
    void paintResult(QPainter& p, const QRectF& box, const QString& text, bool wrong) const;

    std::optional<teach::VariantStep> m_step;
    std::optional<teach::Difference> m_difference;
    std::size_t m_focus = 0;
};

class BuildPanel : public QWidget {
    Q_OBJECT

public:
    explicit BuildPanel(QWidget* parent = nullptr);

    // The operations "Run on this lesson" uses, and W for both runs.
    void setOperations(std::vector<teach::Operation> operations, std::chrono::seconds window);

    teach::RingVariant variant() const;
    void setVariant(const teach::RingVariant& v);
    // True once the learner changed a choice or ran the ring (a lesson file then saves it).
    bool touched() const { return m_touched; }

    void runOnLesson();
    void runRandom(std::uint64_t seed);
    const std::optional<teach::VariantRun>& result() const { return m_result; }
    QString verdict() const;        // "Differs at step 4 of 6: getHits(15)", or "Same ..."
    QString narration() const;      // the difference's narration
    QString operationsRun() const;  // "Ran this lesson: hit 5; hit 6; ...", plain text
    QString pseudocode() const;     // the code the choices make, plain text
    SlotCompareView* compareView() const { return m_compare; }
    // Takes the teaching palette's colours again (TeachView calls it when the application's
    // palette changes); the painted slots look them up when they paint.
    void restyle();

    // Its word-wrapped labels would make the panes' stack ask for a height for its width (the
    // highest of its pages): the panel takes the height it is given instead.
    bool hasHeightForWidth() const override { return false; }

Q_SIGNALS:
    void variantChanged();
    // A run on the lesson's operations first differs at `step` (the view shows that step).
    void lessonDiffersAt(int step);

private:
    void choicesChanged();
    void makeStale(const QString& why);
    void styleVerdict();
    void runOn(const std::vector<teach::Operation>& ops, const QString& what);
    void showResult(const QString& what, std::size_t total);

    QComboBox* m_compareBox;
    QComboBox* m_indexBox;
    QComboBox* m_resetBox;
    QComboBox* m_storeBox;
    QLabel* m_code;
    QLabel* m_problem;
    QPushButton* m_runLesson;
    QPushButton* m_runRandom;
    QSpinBox* m_seed;
    QLabel* m_verdict;
    QLabel* m_narration;
    QLabel* m_operationsRun;  // the operations of the last run, the differing one marked
    SlotCompareView* m_compare;
    std::vector<teach::Operation> m_operations;
    std::vector<teach::Operation> m_ran;  // what the last run ran
    std::chrono::seconds m_window{10};
    std::optional<teach::VariantRun> m_result;
    bool m_touched = false;
    bool m_lessonRun = false;  // runOnLesson() is running
};

}  // namespace hitcounter::ui
