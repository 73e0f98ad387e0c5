// SourceSpec: which source the monitor runs and with what settings: one kind's spec, a value.
//
// Each source kind is one module in ui/sources/kinds/ (the style guide's "PlotJuggler's
// per-source plugin split done at compile time"): its spec as its own value type (the settings
// the kind has and nothing else), the settings it keeps (save/load under the group "source"),
// build() (a RunningSource: the core Source and what only the kind knows of it), its controls
// in the sources dock (makeControls()) and its part of a snapshot's settings. SourceKinds below
// is the list of kinds; a new kind is its module plus one line there. The functions here visit
// the spec, so nothing outside a kind's module switches on its kind.
//
// Plain values, GUI thread. The spec is what QSettings keeps as "the last source"
// (source_specs.h) and what SourceSession restarts (after a failed open, a new access-log key).
//
// Example: ReplaySpec replay;  replay.file = "t.csv";  const SourceSpec spec = replay;
//          kindName(spec) == "replay", sourceFile(spec) == "t.csv";  session.startSpec(spec);
#pragma once

#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <concepts>
#include <memory>
#include <variant>
#include <vector>

#include "ui/sources/kinds/fleet_kind.h"
#include "ui/sources/kinds/follow_kind.h"
#include "ui/sources/kinds/listener_kind.h"
#include "ui/sources/kinds/replay_kind.h"
#include "ui/sources/kinds/simulator_kind.h"

class QSettings;

namespace hitcounter::ui {

class KindControls;
class RunningSource;
class SettingsReader;
struct BuildContext;

// The kinds, one line each, in the order the sources dock shows their controls; the first is
// the default source (what a new user runs).
using SourceKinds = std::variant<SimulatorSpec,  // kinds/simulator_kind.h
                                 ListenerSpec,   // kinds/listener_kind.h
                                 ReplaySpec,     // kinds/replay_kind.h
                                 FollowSpec,     // kinds/follow_kind.h
                                 FleetSpec>;     // kinds/fleet_kind.h

struct SourceSpec : SourceKinds {
    using SourceKinds::SourceKinds;
    // Specs are equal or not, never ordered (and Qt's meta type must not try to).
    friend bool operator<(const SourceSpec&, const SourceSpec&) = delete;
};

// What a kind's module provides, checked at compile time for every kind in SourceKinds:
//  - kindNames(): the names it is stored and shown as ("simulator"; a listener has three);
//    kindName(): this spec's. They never change: settings, --state-json and snapshots use them.
//  - save(settings): its keys, in the group "source" the caller opened; load(reader, kind):
//    its keys read back, each checked (a bad one reset and named), `kind` the stored name.
//    Kinds share keys with the same meaning ("speed", "file", "key", "logFormat").
//  - build(context): the RunningSource; throws std::invalid_argument with a message for the
//    user for a bad setting (whether a file opens is Source::check()'s to say).
//  - settingsUsed(): its part of a snapshot's settings.json (SourceSession::settingsUsed).
//  - makeControls(): its group in the sources dock (kind_controls.h).
// A kind whose source reads a file derives FileSourceSpec (file_source_spec.h).
template <class Spec>
concept SourceKindSpec = std::regular<Spec> &&
    requires(const Spec spec, QSettings& out, SettingsReader& in, const BuildContext& context,
             const QString& kind) {
    { Spec::kindNames() } -> std::same_as<QStringList>;
    { spec.kindName() } -> std::same_as<QString>;
    spec.save(out);
    { Spec::load(in, kind) } -> std::same_as<Spec>;
    { spec.build(context) } -> std::same_as<std::unique_ptr<RunningSource>>;
    { spec.settingsUsed() } -> std::same_as<QVariantMap>;
    { Spec::makeControls() } -> std::same_as<KindControls*>;
};

// The names every kind is stored as, in the kind list's order.
QStringList kindNames();
QString kindName(const SourceSpec& spec);
// The file the spec's source reads (a replay's first, a followed log's); empty for the others.
QString sourceFile(const SourceSpec& spec);
// Every file it reads (FileSourceSpec::files()); empty for the other kinds.
QStringList sourceFiles(const SourceSpec& spec);
// The file part of a kind that reads a file (replay, follow): its file, key, format and
// filter; null for the other kinds.
const FileSourceSpec* fileSourceOf(const SourceSpec& spec);

// The spec alone under the group "source": its kind and its keys. (SourceSpecs::save keeps
// every kind's.) The file is stored as an absolute path (the next start may be elsewhere).
void saveSpec(const SourceSpec& spec, QSettings& settings);
// The stored spec (SourceSpecs::load(settings).current()).
SourceSpec loadSpec(SettingsReader& settings);

// The spec's kind builds it; throws std::invalid_argument as build() does.
std::unique_ptr<RunningSource> buildSource(const SourceSpec& spec, const BuildContext& context);
QVariantMap specSettingsUsed(const SourceSpec& spec);
// Every kind's controls, new, in the kind list's order (the caller owns them).
std::vector<KindControls*> makeKindControls();

}  // namespace hitcounter::ui
