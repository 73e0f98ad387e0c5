#include "ui/sources/source_spec.h"

#include <QSettings>
#include <type_traits>

#include "ui/sources/kind_controls.h"
#include "ui/sources/running_source.h"
#include "ui/sources/source_specs.h"

namespace hitcounter::ui {

namespace {

template <class... Kinds>
constexpr bool everyKindIsAModule(const std::variant<Kinds...>*) {
    return (SourceKindSpec<Kinds> && ...);
}
static_assert(everyKindIsAModule(static_cast<const SourceKinds*>(nullptr)),
              "a kind in SourceKinds lacks part of its module (SourceKindSpec)");

template <class... Kinds>
QStringList namesOf(const std::variant<Kinds...>*) {
    QStringList names;
    (names.append(Kinds::kindNames()), ...);
    return names;
}

template <class... Kinds>
std::vector<KindControls*> controlsOf(const std::variant<Kinds...>*) {
    return {Kinds::makeControls()...};
}

}  // namespace

QStringList kindNames() {
    return namesOf(static_cast<const SourceKinds*>(nullptr));
}

QString kindName(const SourceSpec& spec) {
    return std::visit([](const auto& s) { return s.kindName(); }, spec);
}

const FileSourceSpec* fileSourceOf(const SourceSpec& spec) {
    return std::visit(
        [](const auto& s) -> const FileSourceSpec* {
            if constexpr (std::is_base_of_v<FileSourceSpec, std::decay_t<decltype(s)>>) {
                return &s;
            } else {
                return nullptr;
            }
        },
        spec);
}

QString sourceFile(const SourceSpec& spec) {
    const FileSourceSpec* file = fileSourceOf(spec);
    return file != nullptr ? file->file : QString();
}

QStringList sourceFiles(const SourceSpec& spec) {
    const FileSourceSpec* file = fileSourceOf(spec);
    return file != nullptr && !file->file.isEmpty() ? file->files() : QStringList();
}

void saveSpec(const SourceSpec& spec, QSettings& settings) {
    settings.beginGroup(QStringLiteral("source"));
    settings.setValue(QStringLiteral("kind"), kindName(spec));
    std::visit([&](const auto& s) { s.save(settings); }, spec);
    settings.endGroup();
}

SourceSpec loadSpec(SettingsReader& settings) {
    return SourceSpecs::load(settings).current();
}

std::unique_ptr<RunningSource> buildSource(const SourceSpec& spec, const BuildContext& context) {
    return std::visit([&](const auto& s) { return s.build(context); }, spec);
}

QVariantMap specSettingsUsed(const SourceSpec& spec) {
    return std::visit([](const auto& s) { return s.settingsUsed(); }, spec);
}

std::vector<KindControls*> makeKindControls() {
    return controlsOf(static_cast<const SourceKinds*>(nullptr));
}

}  // namespace hitcounter::ui
