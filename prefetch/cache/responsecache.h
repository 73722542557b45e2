#pragma once

#include "prefetch/text/minhash.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <functional>

namespace Prefetch {

// Answers already given, to give again: an exact key (the request's fingerprint: the same
// document revision, selection, action, model and parameters) and a near-duplicate key (a chat
// question close to one already answered on the same context, by MinHash). A lookup decides:
// serve the cached answer, show it as a draft while a live request refreshes it, or miss.
//
// Its own SQLite file, not tables in the conversations database: a damaged or full cache can
// then be dropped without any risk to the conversations, the cache's writes never wait on the
// conversation store's transactions, and the two schemas migrate apart. The caller clears it
// when it clears the history. UI-free; one thread (the connection's).
class ResponseCache
{
public:
    // Entries are kept per provider and model: another model's answer is not this one's.
    struct Scope {
        QString provider;
        QString model;
    };
    struct Limits {
        int maxEntries = 2000;
        qint64 maxBytes = 32 * 1024 * 1024; // question and answer text, UTF-8
    };
    // The thresholds: over Serve the answer is given, over Draft shown as a draft.
    static constexpr double Serve = 0.75;
    static constexpr double Draft = 0.5;
    // Freshness halves every week: an answer of last month is still a fair draft, not a sure one.
    static constexpr double FreshnessHalfLifeDays = 7.0;

    enum class Level { Exact, NearDuplicate };
    enum class Decision { Serve, Draft, Miss };
    struct Entry {
        QByteArray fingerprint;
        QByteArray contextKey; // the request without its last user message, hashed
        QString question;      // the last user message
        QString answer;
        qint64 latencyMs = 0; // what the live answer took: the time a hit saves
    };
    struct Neighbour {
        qint64 id = 0;
        double similarity = 0;
        double confidence = 0;
    };
    struct Lookup {
        Decision decision = Decision::Miss;
        Level level = Level::Exact;
        qint64 id = 0; // the chosen entry, 0 on a miss
        QString answer;
        double confidence = 0;
        qint64 savedMs = 0;
        QList<Neighbour> neighbours; // best first
    };
    // What the decision log keeps of each lookup.
    struct LogLine {
        QDateTime at;
        QByteArray fingerprint;
        Level level = Level::Exact;
        Decision decision = Decision::Miss;
        QList<Neighbour> neighbours;
        qint64 savedMs = 0;
    };
    static constexpr int LogSize = 200;

    // Opens (creating) the file at `path`. A file that cannot be opened or is not a cache
    // (damaged, another program's, a newer schema) is left as it is and logged, and the cache
    // works empty in memory for this run: `error()` says why.
    explicit ResponseCache(const QString &path)
        : ResponseCache(path, Limits{})
    {
    }
    ResponseCache(const QString &path, Limits limits);
    ~ResponseCache();
    ResponseCache(const ResponseCache &) = delete;
    ResponseCache &operator=(const ResponseCache &) = delete;

    QString error() const { return m_error; }
    bool isPersistent() const { return m_error.isEmpty(); }

    Lookup lookupExact(const Scope &scope, const QByteArray &fingerprint);
    // Whether lookupExact() would serve: not logged, not touched (a guess about to be sent asks).
    bool contains(const Scope &scope, const QByteArray &fingerprint) const;
    Lookup lookupNear(const Scope &scope, const QByteArray &contextKey, const QString &question);
    // Whether a draft or served answer held (the live answer said the same): the entry's hit rate.
    void recordOutcome(qint64 id, bool held);
    // A served answer the user asked for again (Regenerate): its hit taken back, so that the
    // entry's hit rate counts it as the miss it was.
    void retractHit(qint64 id);
    // Stores (or replaces, by fingerprint) a completed answer; evicts the least recently used
    // past the limits.
    void store(const Scope &scope, const Entry &entry);
    void clear();

    int count() const;
    qint64 bytes() const;
    QList<LogLine> decisionLog() const { return m_log; }
    void clearDecisionLog() { m_log.clear(); }

    // confidence = similarity x 0.5 + hit rate x 0.3 + freshness x 0.2 (the weights).
    static double confidence(double similarity, double hitRate, double freshness);
    static Decision decide(double confidence);
    // The test's clock.
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }

private:
    bool open(const QString &path);
    bool createSchema();
    void evict();
    void touch(qint64 id);
    double freshness(qint64 createdMs) const;
    void logDecision(const QByteArray &fingerprint, const Lookup &lookup);

    QString m_connection;
    QString m_error;
    Limits m_limits;
    QList<LogLine> m_log;
    std::function<QDateTime()> m_clock;
};

const char *cacheDecisionId(ResponseCache::Decision decision);

} // namespace Prefetch
