// SourceSpecs: the last spec of every source kind and which kind is the current one: what the
// source session remembers and what the settings keep as "the last source".
//
// A kind's last spec is the one last started or edited in its controls, so each kind's
// controls show their own settings again at the next start, and a trace opened while another
// source runs takes the replay's access-log key and loop (SourceSession::traceSpec).
//
// Stored settings (the group "source"; unchanged since specs were one union, so old files load
// the same): "kind" names the current kind (kindNames()); every kind's keys are kept, the
// current kind's written last where kinds share a key ("speed", "file", "key", "logFormat").
// load() reads every kind's keys, each checked (a bad one reset and named once).
//
// Plain value, GUI thread. Example:
//     SourceSpecs specs;                        // every kind's defaults; the simulator current
//     specs.setCurrent(replay);                 // current: the replay
//     specs.remember(simulatorAt500);           // the simulator's last; the replay still current
//     specs.last<SimulatorSpec>().rate == 500
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include "ui/sources/source_spec.h"

class QSettings;

namespace hitcounter::ui {

class SettingsReader;

// The index of `Spec` in SourceKinds.
template <class Spec, class... Kinds>
constexpr std::size_t kindIndexIn(const std::variant<Kinds...>*) {
    constexpr bool same[] = {std::is_same_v<Spec, Kinds>...};
    for (std::size_t i = 0; i < sizeof...(Kinds); ++i) {
        if (same[i]) {
            return i;
        }
    }
    return sizeof...(Kinds);
}
template <class Spec>
inline constexpr std::size_t kKindIndex =
    kindIndexIn<Spec>(static_cast<const SourceKinds*>(nullptr));

class SourceSpecs {
public:
    SourceSpecs();

    const SourceSpec& current() const { return m_last[m_current]; }
    // `spec` becomes its kind's last spec and the current one.
    void setCurrent(const SourceSpec& spec);
    // `spec` becomes its kind's last spec (so the current one if it is of the current kind).
    void remember(const SourceSpec& spec);
    // A kind's last spec.
    template <class Spec>
    const Spec& last() const {
        return std::get<Spec>(m_last[kKindIndex<Spec>]);
    }
    // Every kind's last spec, in the kind list's order.
    const std::vector<SourceSpec>& all() const { return m_last; }

    void save(QSettings& settings) const;
    static SourceSpecs load(SettingsReader& settings);

private:
    std::vector<SourceSpec> m_last;  // one per kind, at its index in SourceKinds
    std::size_t m_current = 0;
};

}  // namespace hitcounter::ui
