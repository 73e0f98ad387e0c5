#include "ui/sources/source_specs.h"

#include <QSettings>
#include <utility>

#include "ui/common/settings_reader.h"

namespace hitcounter::ui {

namespace {

template <std::size_t... I>
std::vector<SourceSpec> defaults(std::index_sequence<I...>) {
    return {SourceSpec(std::in_place_index<I>)...};
}

template <std::size_t... I>
std::vector<SourceSpec> loaded(SettingsReader& settings, const QString& kind,
                               std::index_sequence<I...>) {
    return {SourceSpec(std::in_place_index<I>,
                       std::variant_alternative_t<I, SourceKinds>::load(settings, kind))...};
}

constexpr auto kKinds = std::make_index_sequence<std::variant_size_v<SourceKinds>>();

}  // namespace

SourceSpecs::SourceSpecs() : m_last(defaults(kKinds)) {}

void SourceSpecs::setCurrent(const SourceSpec& spec) {
    remember(spec);
    m_current = spec.index();
}

void SourceSpecs::remember(const SourceSpec& spec) {
    m_last[spec.index()] = spec;
}

void SourceSpecs::save(QSettings& settings) const {
    settings.beginGroup(QStringLiteral("source"));
    const auto save = [&](const SourceSpec& spec) {
        std::visit([&](const auto& s) { s.save(settings); }, spec);
    };
    for (std::size_t i = 0; i < m_last.size(); ++i) {
        if (i != m_current) {
            save(m_last[i]);
        }
    }
    settings.setValue(QStringLiteral("kind"), kindName(current()));
    save(current());  // last: the keys kinds share hold the current kind's values
    settings.endGroup();
}

SourceSpecs SourceSpecs::load(SettingsReader& settings) {
    SourceSpecs specs;
    settings.settings().beginGroup(QStringLiteral("source"));
    const QString kind =
        settings.oneOf(QStringLiteral("kind"), kindName(specs.current()), kindNames());
    specs.m_last = loaded(settings, kind, kKinds);
    for (std::size_t i = 0; i < specs.m_last.size(); ++i) {
        if (kindName(specs.m_last[i]) == kind) {
            specs.m_current = i;
        }
    }
    settings.settings().endGroup();
    return specs;
}

}  // namespace hitcounter::ui
