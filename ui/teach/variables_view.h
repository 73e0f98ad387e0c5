// VariablesView: the learner's counter's own fields after one call, as the engine holds them
// (issue 24: "the student's variables drawn next to the ring").
//
// GUI thread only. setVariables() copies the fields and repaints. A list (an array, a Map, a
// Set) is a row of cells with their index above, as many as fit; a list as long as the ring
// (W items: the learner's own buckets) is centred on the slot of the call, `focus`, and that
// cell is outlined in the current orange, so it lines up with the reference ring beside it.
// Other values are "name = value". Colours follow the teaching palette.
#pragma once

#include <QWidget>
#include <optional>
#include <vector>

#include "core/teach/counter_under_test.h"

namespace hitcounter::ui {

class VariablesView : public QWidget {
    Q_OBJECT

public:
    explicit VariablesView(QWidget* parent = nullptr);

    void setVariables(std::vector<teach::Variable> variables, std::size_t window,
                      std::optional<std::size_t> focus, QString caption);
    const std::vector<teach::Variable>& variables() const { return m_variables; }
    // The list indices the last paint drew per field (empty for a value), for tests.
    const std::vector<std::vector<std::size_t>>& shownIndices() const { return m_shown; }

    QSize minimumSizeHint() const override { return {180, 110}; }
    QSize sizeHint() const override { return {420, 220}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<std::size_t> indicesFor(const teach::Variable& v, int cells) const;

    std::vector<teach::Variable> m_variables;
    std::size_t m_window = 0;
    std::optional<std::size_t> m_focus;
    QString m_caption;
    std::vector<std::vector<std::size_t>> m_shown;
};

}  // namespace hitcounter::ui
