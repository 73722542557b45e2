#pragma once

#include "llm/llmstream.h"
#include "llm/providerprofile.h"

#include <QList>
#include <QObject>
#include <QPointer>

class QNetworkAccessManager;

namespace Prefetch {

// Starts generations on the selected provider and keeps track of the ones still running, so
// Stop can cancel them all. The UI's only way to the network. Lives in the GUI thread; the
// streams it starts are children of the owner the caller names.
class Generator : public QObject
{
    Q_OBJECT

public:
    Generator(QNetworkAccessManager *network, Llm::ProviderProfile profile, QObject *parent = nullptr);

    const Llm::ProviderProfile &profile() const { return m_profile; }
    void setProfile(Llm::ProviderProfile profile);

    // Returns a started stream owned by `owner`; connect to it right away (signals come later).
    Llm::LlmStream *start(const Llm::ChatRequest &request, QObject *owner,
                          Llm::StreamOptions options = {});
    // Cancels every running stream this generator started.
    void cancelAll();
    int runningCount() const;

signals:
    void profileChanged();

private:
    QNetworkAccessManager *m_network;
    Llm::ProviderProfile m_profile;
    QList<QPointer<Llm::LlmStream>> m_running;
};

} // namespace Prefetch
