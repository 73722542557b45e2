#pragma once

#include "llm/refusal.h"

#include <QList>
#include <QString>
#include <QUrl>

class QSettings;

namespace Llm {
struct ProviderProfile;
} // namespace Llm

namespace Gui {

// What providers refused that the model catalogue did not foresee (Llm::RefusedFeature), per
// base URL and model, kept in the settings file ("learned/…") so that a restart does not send
// it again. Forgotten for a provider when the user changes its model (AppSettings::setModel):
// another model may take it. A value; part of AppSettings.
class LearnedRefusals
{
public:
    struct Entry {
        QUrl baseUrl;
        QString model;
        QList<Llm::RefusedFeature> features;
        friend bool operator==(const Entry &, const Entry &) = default;
    };

    // False when it was known already.
    bool learn(const QUrl &baseUrl, const QString &model, Llm::RefusedFeature feature);
    void forget(const QUrl &baseUrl);
    const QList<Entry> &entries() const { return m_entries; }

    // `profile` without what its base URL's main and fast models refused.
    void applyTo(Llm::ProviderProfile &profile) const;

    // A damaged entry is dropped with one translated problem.
    static LearnedRefusals load(QSettings &settings, QStringList &problems);
    void save(QSettings &settings) const;

    friend bool operator==(const LearnedRefusals &, const LearnedRefusals &) = default;

private:
    QList<Entry> m_entries;
};

} // namespace Gui
