#pragma once

#include "workspace/settings/secretstore.h"

#include <QJsonObject>
#include <QList>
#include <QTimer>

#include <functional>

namespace QKeychain {
class Job;
}

namespace App {

// API keys in the system keychain through QtKeychain: service "Headstart", entries
// "provider/<id>/api-key", "provider/<id>/prefetch-key" and the proxy's "network/proxy-password".
//
// At construction it asks the keychain for an entry that does not exist. When no keychain
// service answers (no Secret Service on a headless or minimal desktop: QtKeychain reports
// NoBackendAvailable or OtherError), or a later write fails the same way, it keeps keys in an
// unencrypted JSON file readable by the user only (0600) and says so in backendDescription().
// Keys left in that file are found again, and removed from it once the keychain has them.
// Never logs keys. GUI thread.
class KeychainSecretStore : public Gui::SecretStore
{
    Q_OBJECT

public:
    enum class Mode {
        Auto,     // the keychain when it answers, else the file
        FileOnly, // the file (tests; machines where the keychain is known to be missing)
    };

    // `fallbackFile` empty: secrets.json in the app's config directory.
    explicit KeychainSecretStore(Mode mode = Mode::Auto, QString fallbackFile = {}, QObject *parent = nullptr);
    ~KeychainSecretStore() override;

    void read(const QString &providerId, Secret secret, QObject *context, ReadCallback done) override;
    void write(const QString &providerId, Secret secret, const QString &value, QObject *context,
               WriteCallback done) override;
    bool isSecure() const override { return m_backend != Backend::File; }
    QString backendDescription() const override;

    QString fallbackFile() const { return m_fallbackFile; }
    // Still finding out whether the keychain answers; operations wait meanwhile.
    bool isProbing() const { return m_backend == Backend::Probing; }

    static constexpr int ProbeTimeoutMs = 10'000;

private:
    enum class Backend { Probing, Keychain, File };

    void onProbeFinished(QKeychain::Job *job);
    void useFile(const char *why);
    void whenReady(std::function<void()> operation);
    void keychainRead(const QString &entry, const QPointer<QObject> &context, ReadCallback done);
    void keychainWrite(const QString &providerId, const QString &entry, const QString &value,
                       const QPointer<QObject> &context, WriteCallback done);
    static bool backendUnusable(QKeychain::Job *job);
    static QString keychainError(QKeychain::Job *job);

    // The fallback file: {"version": 1, "entries": {"provider/<id>/api-key": "...", ...}}.
    std::expected<QJsonObject, QString> readFile() const;
    ReadResult fileRead(const QString &entry) const;
    WriteResult fileWrite(const QString &entry, const QString &value) const;

    Backend m_backend = Backend::Probing;
    QString m_fallbackFile;
    QList<std::function<void()>> m_waiting; // operations that arrived while probing, in order
    QTimer m_probeTimeout;
};

} // namespace App
