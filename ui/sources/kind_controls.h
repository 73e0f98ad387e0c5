// KindControls: one source kind's group in the sources dock: its settings and its Start/Stop.
// Each kind makes its own (Spec::makeControls(), source_spec.h); SourcesPanel hosts them in the
// kind list's order and forwards what they ask for.
//
// GUI thread only. Controls hold no source: they emit requests and show what the session says
// (showSpec on every start and stop, keepSpec on every edit). ControlsFor<Spec> below is the
// base a kind derives: it keeps the kind's last spec, so an edit starts from what runs.
//
// Example (a kind's slider): edit([&](SimulatorSpec& s) { s.rate = rate; });
//     -> edited(the simulator's last spec at the new rate) -> SourceSession::edit
#pragma once

#include <QGroupBox>
#include <variant>

#include "ui/sources/source_spec.h"

namespace hitcounter::ui {

class KindControls : public QGroupBox {
    Q_OBJECT
public:
    explicit KindControls(const QString& title, QWidget* parent = nullptr);

    // Shows `spec` (any kind's) and whether it runs: a spec of this kind fills the controls
    // (without emitting requests) and becomes the one edits start from; any other kind's means
    // this kind does not run.
    virtual void showSpec(const SourceSpec& spec, bool running) = 0;
    // The session changed a spec without a restart (SourceSession::specEdited): one of this
    // kind becomes the one edits start from; the controls show what they showed.
    virtual void keepSpec(const SourceSpec& spec) = 0;
    // The running source's figures (RunningSource::figures), while this kind runs.
    virtual void showFigures(const QString& text);

Q_SIGNALS:
    void startRequested(const hitcounter::ui::SourceSpec& spec);
    void stopRequested();
    // A setting that applies at once was changed: `spec` is the kind's last spec with it.
    void edited(const hitcounter::ui::SourceSpec& spec);
    // The window's File > Open dialog (the replay's "Open trace…").
    void openFileRequested();
};

template <class Spec>
class ControlsFor : public KindControls {
public:
    using KindControls::KindControls;

    void showSpec(const SourceSpec& spec, bool running) final {
        const Spec* mine = std::get_if<Spec>(&spec);
        if (mine != nullptr) {
            m_spec = *mine;
        }
        fill(mine, mine != nullptr && running);
    }
    void keepSpec(const SourceSpec& spec) final {
        if (const Spec* mine = std::get_if<Spec>(&spec)) {
            m_spec = *mine;
        }
    }

protected:
    // Fills the controls with `spec` (null: another kind's spec was shown) and shows whether
    // this kind runs.
    virtual void fill(const Spec* spec, bool running) = 0;
    // The kind's spec the session last showed or changed.
    const Spec& spec() const { return m_spec; }
    // Emits edited() with spec() changed by `change` (a callable taking Spec&).
    template <class Change>
    void edit(Change change) {
        Spec next = m_spec;
        change(next);
        Q_EMIT edited(next);
    }

private:
    Spec m_spec;
};

}  // namespace hitcounter::ui
