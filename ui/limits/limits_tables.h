// LimitsTables: the Rate limits tab's tables under its plot. Left: the lab's settings in one
// line and, per algorithm, requests accepted and rejected, the rejected share, the most accepted
// requests of one key in any window (red and bold above L, its key and window end in the
// tooltip), the seconds over L, memory and keys held. Right: the keys rejected most, per
// algorithm. Counts from a million up read in compact units, the exact figure in the tooltip.
//
// Layout: every figure is sized to its content (never cut) and the algorithm's name takes the
// rest; when narrow, keys, memory, s over L and rej. % give way in that order (named in the
// algorithm header's tooltip) rather than cut a name or a number or scroll sideways.
//
// GUI thread only; showFrame() once per drawn frame.
#pragma once

#include <QSplitter>
#include <memory>
#include <string>
#include <vector>

#include "core/engine/limits_frame.h"

class QLabel;
class QTableWidget;

namespace hitcounter::ui {

class ColumnFit;

class LimitsTables : public QSplitter {
    Q_OBJECT
public:
    enum LaneColumn {
        ColAlgorithm,
        ColAccepted,
        ColRejected,
        ColRejectedPct,
        ColMaxWindow,
        ColBursts,
        ColMemory,
        ColKeys,
        LaneColumnCount
    };

    explicit LimitsTables(QWidget* parent = nullptr);
    ~LimitsTables() override;

    // One row (lanes) and one column (keys) per algorithm, in this order.
    void setLimiters(const std::vector<std::string>& names);
    // `frame`'s lanes in the order setLimiters() was given.
    void showFrame(const LimitsFrame& frame);

    QTableWidget* lanesTable() const { return m_lanes; }
    QTableWidget* keysTable() const { return m_keys; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showLanes(const LimitsFrame& frame);
    void showKeys(const LimitsFrame& frame);
    void fitLanesColumns();

    QLabel* m_summary;
    QTableWidget* m_lanes;
    QTableWidget* m_keys;
    std::unique_ptr<ColumnFit> m_lanesFit;
};

}  // namespace hitcounter::ui
