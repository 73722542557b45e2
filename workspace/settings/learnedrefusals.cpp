#include "workspace/settings/learnedrefusals.h"

#include "llm/providerprofile.h"

#include <QCoreApplication>
#include <QSettings>

namespace Gui {

namespace {

const QString Group = QStringLiteral("learned");
// Bounded: a settings file that grew without end would be read at every start.
constexpr qsizetype MaxEntries = 64;

} // namespace

bool LearnedRefusals::learn(const QUrl &baseUrl, const QString &model, Llm::RefusedFeature feature)
{
    for (Entry &e : m_entries) {
        if (e.baseUrl != baseUrl || e.model != model)
            continue;
        if (e.features.contains(feature))
            return false;
        e.features.append(feature);
        return true;
    }
    if (m_entries.size() >= MaxEntries)
        m_entries.removeFirst(); // the oldest
    m_entries.append({baseUrl, model, {feature}});
    return true;
}

void LearnedRefusals::forget(const QUrl &baseUrl)
{
    m_entries.removeIf([&baseUrl](const Entry &e) { return e.baseUrl == baseUrl; });
}

void LearnedRefusals::applyTo(Llm::ProviderProfile &profile) const
{
    for (const Entry &e : m_entries) {
        if (e.baseUrl != profile.baseUrl)
            continue;
        Llm::EncodeOptions *options = nullptr;
        if (e.model == profile.model)
            options = &profile.encodeOptions;
        else if (profile.hasDistinctFastModel() && e.model == profile.fastModel)
            options = &profile.fastEncodeOptions.emplace(profile.encodeOptionsFor(profile.fastModel));
        if (!options)
            continue;
        for (Llm::RefusedFeature f : e.features)
            Llm::withoutFeature(*options, f);
    }
}

LearnedRefusals LearnedRefusals::load(QSettings &settings, QStringList &problems)
{
    LearnedRefusals out;
    const int size = settings.beginReadArray(Group);
    for (int i = 0; i < std::min<int>(size, MaxEntries); ++i) {
        settings.setArrayIndex(i);
        Entry e;
        e.baseUrl = QUrl(settings.value(QStringLiteral("baseUrl")).toString(), QUrl::StrictMode);
        e.model = settings.value(QStringLiteral("model")).toString();
        bool bad = !e.baseUrl.isValid() || e.baseUrl.isEmpty() || e.model.isEmpty();
        for (const QString &id :
             settings.value(QStringLiteral("features")).toString().split(u' ', Qt::SkipEmptyParts)) {
            if (const auto f = Llm::featureFromId(id))
                e.features.append(*f);
            else
                bad = true;
        }
        if (bad || e.features.isEmpty()) {
            problems << QCoreApplication::translate("Gui::AppSettings",
                                                    "A remembered refusal in the settings file (entry %1) could not be "
                                                    "read and was dropped.")
                            .arg(i + 1);
            continue;
        }
        out.m_entries.append(e);
    }
    settings.endArray();
    return out;
}

void LearnedRefusals::save(QSettings &settings) const
{
    settings.remove(Group);
    if (m_entries.isEmpty())
        return;
    settings.beginWriteArray(Group, int(m_entries.size()));
    for (int i = 0; i < m_entries.size(); ++i) {
        const Entry &e = m_entries.at(i);
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("baseUrl"), e.baseUrl.toString());
        settings.setValue(QStringLiteral("model"), e.model);
        QStringList ids;
        for (Llm::RefusedFeature f : e.features)
            ids << QString::fromLatin1(Llm::featureId(f));
        settings.setValue(QStringLiteral("features"), ids.join(u' '));
    }
    settings.endArray();
}

} // namespace Gui
