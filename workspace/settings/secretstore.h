#pragma once

#include "llm/providerprofile.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <expected>
#include <functional>
#include <iterator>
#include <memory>
#include <utility>

namespace Gui {

// Where API keys live: the system keychain in the app (App::KeychainSecretStore), memory in
// tests. Keys never go into QSettings. Every operation is asynchronous, because a keychain may
// have to ask the user to unlock it, and answers exactly once from the event loop through its
// callback; the callback is dropped when `context` is destroyed first. GUI thread.
class SecretStore : public QObject
{
    Q_OBJECT

public:
    enum class Secret {
        ApiKey,        // the provider's main key
        PrefetchKey,   // optional: prefetches use it so they never eat the main key's rate limit
        ProxyPassword, // the password of the proxy in Settings, Network; stored under NetworkOwner
        MoreApiKeys,   // more main keys, one per line, taken in turn after a 429 (Llm::KeyRing)
    };
    // The "provider id" the proxy password is read and written under, and secretWritten() names.
    static inline const QString NetworkOwner = QStringLiteral("network");
    // The secret, empty when none is stored; or a message for the user.
    using ReadResult = std::expected<QString, QString>;
    using WriteResult = std::expected<void, QString>;
    using ReadCallback = std::function<void(const ReadResult &)>;
    using WriteCallback = std::function<void(const WriteResult &)>;

    using QObject::QObject;

    virtual void read(const QString &providerId, Secret secret, QObject *context, ReadCallback done) = 0;
    // An empty value removes the secret. `done` may be empty (then `context` may be null).
    virtual void write(const QString &providerId, Secret secret, const QString &value, QObject *context,
                       WriteCallback done) = 0;
    void remove(const QString &providerId, Secret secret, QObject *context, WriteCallback done)
    {
        write(providerId, secret, QString(), context, std::move(done));
    }

    // False when keys end up somewhere unencrypted (the fallback file).
    virtual bool isSecure() const = 0;
    // Where keys are kept, for the settings dialog, e.g. "System keychain (Secret Service)".
    virtual QString backendDescription() const = 0;

    // Several keys as the user types or stores them: separated by commas, white space or line
    // breaks; empty ones and repeats dropped, the order kept.
    static QStringList splitKeys(const QString &text)
    {
        QStringList keys;
        for (const QString &key : text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
            if (!keys.contains(key))
                keys << key;
        }
        return keys;
    }

    // Reads the keys of `profile` (main, prefetch, more) into a copy of it. `error` is empty on success; on failure the
    // profile comes back with the keys that could be read.
    using KeysCallback = std::function<void(const Llm::ProviderProfile &profile, const QString &error)>;
    void fillKeys(Llm::ProviderProfile profile, QObject *context, KeysCallback done)
    {
        auto fill = std::make_shared<KeyFill>(KeyFill{std::move(profile), {}, context, std::move(done)});
        readKeysFrom(this, fill, 0);
    }

    // The entry under which a secret is stored: "provider/<id>/api-key", ".../prefetch-key",
    // ".../more-api-keys";
    // the proxy's password is "network/proxy-password".
    static QString entryName(const QString &providerId, Secret secret)
    {
        if (secret == Secret::ProxyPassword)
            return QStringLiteral("network/proxy-password");
        return QStringLiteral("provider/%1/%2")
            .arg(providerId, secret == Secret::ApiKey        ? QStringLiteral("api-key")
                             : secret == Secret::MoreApiKeys ? QStringLiteral("more-api-keys")
                                                             : QStringLiteral("prefetch-key"));
    }

signals:
    // isSecure() or backendDescription() changed, e.g. the keychain turned out to be unusable.
    void backendChanged();
    // A key of `providerId` was stored or removed; whoever holds a profile with keys re-reads
    // them. Emitted by the store, so it arrives even when the writer (a dialog) is gone.
    void secretWritten(const QString &providerId);

private:
    // What fillKeys() is filling: the profile, the first error, and whom to tell.
    struct KeyFill {
        Llm::ProviderProfile profile;
        QString error;
        QObject *context;
        KeysCallback done;
    };
    // The keys of a profile, in the order fillKeys() reads them.
    static constexpr Secret ProfileSecrets[] = {Secret::ApiKey, Secret::PrefetchKey, Secret::MoreApiKeys};

    // Reads ProfileSecrets[next] and then the rest, one after the other. Each callback runs only
    // while `context` lives (see deliver()); the store may not: without it, `done` gets the keys
    // read so far.
    static void readKeysFrom(const QPointer<SecretStore> &self, const std::shared_ptr<KeyFill> &fill, std::size_t next)
    {
        if (!self || next == std::size(ProfileSecrets)) {
            fill->done(fill->profile, fill->error);
            return;
        }
        const Secret secret = ProfileSecrets[next];
        self->read(fill->profile.id, secret, fill->context, [self, fill, secret, next](const ReadResult &result) {
            if (!result) {
                if (fill->error.isEmpty())
                    fill->error = result.error();
            } else if (secret == Secret::ApiKey) {
                fill->profile.apiKey = *result;
            } else if (secret == Secret::PrefetchKey) {
                fill->profile.prefetchApiKey = *result;
            } else {
                fill->profile.moreApiKeys = splitKeys(*result);
            }
            readKeysFrom(self, fill, next + 1);
        });
    }

protected:
    // Calls `done(result)` from the event loop, never from inside read() or write(): callers
    // then see one order of events whichever store they have.
    template <typename Callback, typename Result>
    static void deliver(const QPointer<QObject> &context, Callback done, Result result)
    {
        if (!done || !context)
            return;
        QMetaObject::invokeMethod(
            context.data(), [done = std::move(done), result = std::move(result)] { done(result); },
            Qt::QueuedConnection);
    }
};

// Keeps keys in memory only: tests, screenshots, and a session that must not persist keys.
class MemorySecretStore : public SecretStore
{
    Q_OBJECT

public:
    using SecretStore::SecretStore;

    void read(const QString &providerId, Secret secret, QObject *context, ReadCallback done) override
    {
        if (!m_failure.isEmpty())
            deliver(context, std::move(done), ReadResult(std::unexpected(m_failure)));
        else
            deliver(context, std::move(done), ReadResult(m_entries.value(entryName(providerId, secret))));
    }
    void write(const QString &providerId, Secret secret, const QString &value, QObject *context,
               WriteCallback done) override
    {
        if (!m_failure.isEmpty()) {
            deliver(context, std::move(done), WriteResult(std::unexpected(m_failure)));
            return;
        }
        if (value.isEmpty())
            m_entries.remove(entryName(providerId, secret));
        else
            m_entries.insert(entryName(providerId, secret), value);
        ++m_writes;
        deliver(context, std::move(done), WriteResult());
        emit secretWritten(providerId);
    }
    bool isSecure() const override { return true; }
    QString backendDescription() const override { return tr("Memory only (keys are forgotten when Headstart quits)"); }

    // By entryName().
    QHash<QString, QString> entries() const { return m_entries; }
    int writeCount() const { return m_writes; }
    // Non-empty: every operation fails with this message (for testing error paths).
    void setFailure(const QString &message) { m_failure = message; }

private:
    QHash<QString, QString> m_entries;
    QString m_failure;
    int m_writes = 0;
};

} // namespace Gui
