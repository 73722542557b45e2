#include "responsecache.h"

#include "prefetch/log.h"

#include "base/diskspace.h"
#include "base/privatefiles.h"

#include <QAtomicInt>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <cmath>

#include <spdlog/spdlog.h>

namespace Prefetch {

namespace {

constexpr int SchemaVersion = 1;
// Near-duplicate candidates read per lookup at most: the LSH bands already keep this small;
// the cap only bounds a pathological context with thousands of similar questions.
constexpr int MaxCandidates = 64;

QAtomicInt connectionCounter;

QSqlDatabase db(const QString &connection)
{
    return QSqlDatabase::database(connection, false);
}

bool exec(QSqlQuery &q, QString *error)
{
    if (q.exec())
        return true;
    if (error)
        *error = q.lastError().text();
    return false;
}

} // namespace

const char *cacheDecisionId(ResponseCache::Decision decision)
{
    switch (decision) {
    case ResponseCache::Decision::Serve: return "serve";
    case ResponseCache::Decision::Draft: return "draft";
    case ResponseCache::Decision::Miss: return "miss";
    }
    return "miss";
}

ResponseCache::ResponseCache(const QString &path, Limits limits)
    : m_connection(QStringLiteral("headstart-response-cache-%1").arg(connectionCounter.fetchAndAddRelaxed(1)))
    , m_limits(limits)
    , m_clock([] { return QDateTime::currentDateTimeUtc(); })
{
    if (open(path))
        return;
    // SQLite can fail a write on a full disk with no text at all.
    if (m_error.trimmed().isEmpty())
        m_error = QStringLiteral("no reason given");
    if (const QString full = Base::diskFullNote(path); !full.isEmpty())
        m_error += QStringLiteral(" (") + full + u')';
    log().error("response cache {}: {}; answering without the stored cache this run (the file is left as it is)",
                path.toStdString(), m_error.toStdString());
    QSqlDatabase::removeDatabase(m_connection);
    // Empty, in memory: the cache still works for this run and nothing is written over the file.
    const QString error = m_error;
    if (!open(QStringLiteral(":memory:")))
        log().error("response cache in memory: {}", m_error.toStdString());
    m_error = error;
}

ResponseCache::~ResponseCache()
{
    {
        QSqlDatabase d = db(m_connection);
        if (d.isValid())
            d.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

bool ResponseCache::open(const QString &path)
{
    // Questions and answers: the user's alone from the first byte (SQLite would make the file
    // with the umask's mode, 0644 under the usual 022).
    Base::PrivateFiles::makeDatabaseFile(path);
    QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    d.setDatabaseName(path);
    if (!d.open()) {
        m_error = d.lastError().text();
        return false;
    }
    // A file that is not SQLite opens but fails its first read: ask for the schema version.
    QSqlQuery q(d);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next()) {
        m_error = QStringLiteral("not a response cache (%1)").arg(q.lastError().text());
        d.close();
        return false;
    }
    const int version = q.value(0).toInt();
    q.finish();
    if (version > SchemaVersion) {
        m_error = QStringLiteral("written by a newer Headstart (schema %1)").arg(version);
        d.close();
        return false;
    }
    if (version < SchemaVersion && !createSchema()) {
        d.close();
        return false;
    }
    return true;
}

bool ResponseCache::createSchema()
{
    QSqlDatabase d = db(m_connection);
    QSqlQuery q(d);
    const char *statements[] = {
        "CREATE TABLE IF NOT EXISTS entries (id INTEGER PRIMARY KEY, provider TEXT NOT NULL,"
        " model TEXT NOT NULL, fingerprint BLOB NOT NULL, context BLOB NOT NULL, question TEXT NOT NULL,"
        " answer TEXT NOT NULL, signature BLOB NOT NULL, latency_ms INTEGER NOT NULL,"
        " created_ms INTEGER NOT NULL, used_ms INTEGER NOT NULL, offers INTEGER NOT NULL DEFAULT 0,"
        " hits INTEGER NOT NULL DEFAULT 0, bytes INTEGER NOT NULL, UNIQUE(provider, model, fingerprint))",
        "CREATE INDEX IF NOT EXISTS entries_context ON entries(provider, model, context)",
        "CREATE INDEX IF NOT EXISTS entries_used ON entries(used_ms)",
        "CREATE TABLE IF NOT EXISTS bands (entry INTEGER NOT NULL, band INTEGER NOT NULL, hash INTEGER NOT NULL)",
        "CREATE INDEX IF NOT EXISTS bands_hash ON bands(band, hash)",
        "CREATE INDEX IF NOT EXISTS bands_entry ON bands(entry)",
    };
    d.transaction();
    for (const char *sql : statements) {
        if (!q.exec(QLatin1String(sql))) {
            m_error = q.lastError().text();
            d.rollback();
            return false;
        }
    }
    if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(SchemaVersion))) {
        m_error = q.lastError().text();
        d.rollback();
        return false;
    }
    return d.commit();
}

double ResponseCache::confidence(double similarity, double hitRate, double freshness)
{
    return similarity * 0.5 + hitRate * 0.3 + freshness * 0.2;
}

ResponseCache::Decision ResponseCache::decide(double confidence)
{
    // A rounding hair under a threshold is on it: 0.5 + 0.15 + 0.1 is not "below 0.75".
    constexpr double Epsilon = 1e-9;
    if (confidence > Serve - Epsilon)
        return Decision::Serve;
    if (confidence > Draft - Epsilon)
        return Decision::Draft;
    return Decision::Miss;
}

double ResponseCache::freshness(qint64 createdMs) const
{
    const double ageDays = std::max<qint64>(0, m_clock().toMSecsSinceEpoch() - createdMs) / 86'400'000.0;
    return std::exp2(-ageDays / FreshnessHalfLifeDays);
}

ResponseCache::Lookup ResponseCache::lookupExact(const Scope &scope, const QByteArray &fingerprint)
{
    Lookup out;
    out.level = Level::Exact;
    if (fingerprint.isEmpty()) // nothing identifies an unencodable request
        return out;
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("SELECT id, answer, latency_ms, created_ms, offers, hits FROM entries"
                             " WHERE provider = ? AND model = ? AND fingerprint = ?"));
    q.addBindValue(scope.provider);
    q.addBindValue(scope.model);
    q.addBindValue(fingerprint);
    if (exec(q, nullptr) && q.next()) {
        out.id = q.value(0).toLongLong();
        out.answer = q.value(1).toString();
        out.savedMs = q.value(2).toLongLong();
        const double hitRate = (q.value(5).toDouble() + 1) / (q.value(4).toDouble() + 2);
        out.confidence = confidence(1.0, hitRate, freshness(q.value(3).toLongLong()));
        // The same fingerprint is the same request: served whatever the confidence, which only
        // the log shows. Regenerate, one click away, asks afresh.
        out.decision = Decision::Serve;
        out.neighbours.append({out.id, 1.0, out.confidence});
        q.finish();
        touch(out.id);
    }
    logDecision(fingerprint, out);
    return out;
}

ResponseCache::Lookup ResponseCache::lookupNear(const Scope &scope, const QByteArray &contextKey,
                                                const QString &question)
{
    Lookup out;
    out.level = Level::NearDuplicate;
    const QSet<QString> shingles = MinHash::shingles(question);
    if (contextKey.isEmpty() || shingles.isEmpty()) {
        logDecision(contextKey, out);
        return out;
    }
    const MinHash::Signature sig = MinHash::signature(shingles);
    const auto bands = MinHash::bands(sig);
    QString sql = QStringLiteral(
        "SELECT DISTINCT e.id, e.signature, e.answer, e.latency_ms, e.created_ms, e.offers, e.hits"
        " FROM bands b JOIN entries e ON e.id = b.entry"
        " WHERE e.provider = ? AND e.model = ? AND e.context = ? AND (");
    for (int i = 0; i < MinHash::Bands; ++i)
        sql += QLatin1String(i ? " OR " : "") + QStringLiteral("(b.band = %1 AND b.hash = ?)").arg(i);
    sql += QStringLiteral(") LIMIT %1").arg(MaxCandidates);
    QSqlQuery q(db(m_connection));
    q.prepare(sql);
    q.addBindValue(scope.provider);
    q.addBindValue(scope.model);
    q.addBindValue(contextKey);
    for (std::uint32_t h : bands)
        q.addBindValue(qint64(h));
    struct Candidate {
        Neighbour n;
        QString answer;
        qint64 latencyMs;
    };
    QList<Candidate> candidates;
    if (exec(q, nullptr)) {
        while (q.next()) {
            MinHash::Signature other;
            if (!MinHash::fromBytes(q.value(1).toByteArray(), &other))
                continue; // a damaged row is no neighbour
            Candidate c;
            c.n.id = q.value(0).toLongLong();
            c.n.similarity = MinHash::similarity(sig, other);
            const double hitRate = (q.value(6).toDouble() + 1) / (q.value(5).toDouble() + 2);
            c.n.confidence = confidence(c.n.similarity, hitRate, freshness(q.value(4).toLongLong()));
            c.answer = q.value(2).toString();
            c.latencyMs = q.value(3).toLongLong();
            candidates.append(c);
        }
    }
    q.finish();
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate &a, const Candidate &b) { return a.n.confidence > b.n.confidence; });
    for (const Candidate &c : candidates)
        out.neighbours.append(c.n);
    if (!candidates.isEmpty()) {
        const Candidate &best = candidates.first();
        out.confidence = best.n.confidence;
        out.decision = decide(best.n.confidence);
        if (out.decision != Decision::Miss) {
            out.id = best.n.id;
            out.answer = best.answer;
            out.savedMs = best.latencyMs;
            touch(out.id);
        }
    }
    logDecision(contextKey, out);
    return out;
}

void ResponseCache::recordOutcome(qint64 id, bool held)
{
    if (!held)
        return; // the offer already counted against it
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("UPDATE entries SET hits = hits + 1 WHERE id = ?"));
    q.addBindValue(id);
    exec(q, nullptr);
}

void ResponseCache::retractHit(qint64 id)
{
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("UPDATE entries SET hits = MAX(hits - 1, 0) WHERE id = ?"));
    q.addBindValue(id);
    exec(q, nullptr);
}

// An entry given (served, or shown as a draft), exactly or as a near duplicate: one offer more
// (its hit, recordOutcome, then keeps the hit rate a rate) and the most recently used.
void ResponseCache::touch(qint64 id)
{
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("UPDATE entries SET used_ms = ?, offers = offers + 1 WHERE id = ?"));
    q.addBindValue(m_clock().toMSecsSinceEpoch());
    q.addBindValue(id);
    exec(q, nullptr);
}

void ResponseCache::store(const Scope &scope, const Entry &entry)
{
    if (entry.fingerprint.isEmpty() || entry.answer.isEmpty())
        return;
    QSqlDatabase d = db(m_connection);
    const MinHash::Signature sig = MinHash::signature(entry.question);
    const qint64 now = m_clock().toMSecsSinceEpoch();
    const qint64 size = entry.question.toUtf8().size() + entry.answer.toUtf8().size();
    QString error;
    d.transaction();
    QSqlQuery q(d);
    // A new answer to the same request replaces the old, and starts its own hit rate.
    q.prepare(QStringLiteral("SELECT id FROM entries WHERE provider = ? AND model = ? AND fingerprint = ?"));
    q.addBindValue(scope.provider);
    q.addBindValue(scope.model);
    q.addBindValue(entry.fingerprint);
    if (exec(q, &error) && q.next()) {
        const qint64 old = q.value(0).toLongLong();
        q.finish();
        QSqlQuery del(d);
        del.prepare(QStringLiteral("DELETE FROM bands WHERE entry = ?"));
        del.addBindValue(old);
        exec(del, &error);
        del.prepare(QStringLiteral("DELETE FROM entries WHERE id = ?"));
        del.addBindValue(old);
        exec(del, &error);
    }
    q.finish();
    QSqlQuery ins(d);
    ins.prepare(QStringLiteral("INSERT INTO entries (provider, model, fingerprint, context, question, answer,"
                               " signature, latency_ms, created_ms, used_ms, bytes) VALUES (?,?,?,?,?,?,?,?,?,?,?)"));
    for (const QVariant &v :
         {QVariant(scope.provider), QVariant(scope.model), QVariant(entry.fingerprint), QVariant(entry.contextKey),
          QVariant(entry.question), QVariant(entry.answer), QVariant(MinHash::toBytes(sig)), QVariant(entry.latencyMs),
          QVariant(now), QVariant(now), QVariant(size)})
        ins.addBindValue(v);
    bool ok = exec(ins, &error);
    const qint64 id = ins.lastInsertId().toLongLong();
    if (ok) {
        QSqlQuery band(d);
        band.prepare(QStringLiteral("INSERT INTO bands (entry, band, hash) VALUES (?, ?, ?)"));
        const auto hashes = MinHash::bands(sig);
        for (int b = 0; b < MinHash::Bands && ok; ++b) {
            band.addBindValue(id);
            band.addBindValue(b);
            band.addBindValue(qint64(hashes[size_t(b)]));
            ok = exec(band, &error);
        }
    }
    if (!ok) {
        d.rollback();
        log().warn("response cache: an answer was not stored: {}", error.toStdString());
        return;
    }
    d.commit();
    evict();
}

void ResponseCache::evict()
{
    QSqlDatabase d = db(m_connection);
    // Least recently used first, one at a time: a store adds one entry, so this loops once or twice.
    while (count() > m_limits.maxEntries || bytes() > m_limits.maxBytes) {
        QSqlQuery q(d);
        if (!q.exec(QStringLiteral("SELECT id FROM entries ORDER BY used_ms ASC, id ASC LIMIT 1")) || !q.next())
            return;
        const qint64 id = q.value(0).toLongLong();
        q.finish();
        QSqlQuery del(d);
        del.prepare(QStringLiteral("DELETE FROM bands WHERE entry = ?"));
        del.addBindValue(id);
        del.exec();
        del.prepare(QStringLiteral("DELETE FROM entries WHERE id = ?"));
        del.addBindValue(id);
        if (!del.exec())
            return;
    }
}

void ResponseCache::clear()
{
    QSqlQuery q(db(m_connection));
    q.exec(QStringLiteral("DELETE FROM bands"));
    q.exec(QStringLiteral("DELETE FROM entries"));
    m_log.clear();
}

bool ResponseCache::contains(const Scope &scope, const QByteArray &fingerprint) const
{
    if (fingerprint.isEmpty())
        return false;
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("SELECT 1 FROM entries WHERE provider = ? AND model = ? AND fingerprint = ?"));
    q.addBindValue(scope.provider);
    q.addBindValue(scope.model);
    q.addBindValue(fingerprint);
    return q.exec() && q.next();
}

int ResponseCache::count() const
{
    QSqlQuery q(db(m_connection));
    return q.exec(QStringLiteral("SELECT COUNT(*) FROM entries")) && q.next() ? q.value(0).toInt() : 0;
}

qint64 ResponseCache::bytes() const
{
    QSqlQuery q(db(m_connection));
    return q.exec(QStringLiteral("SELECT COALESCE(SUM(bytes), 0) FROM entries")) && q.next() ? q.value(0).toLongLong()
                                                                                             : 0;
}

void ResponseCache::logDecision(const QByteArray &key, const Lookup &lookup)
{
    LogLine line{m_clock(), key, lookup.level, lookup.decision, lookup.neighbours, lookup.savedMs};
    m_log.append(line);
    if (m_log.size() > LogSize)
        m_log.removeFirst();
    QString neighbours;
    for (const Neighbour &n : lookup.neighbours)
        neighbours +=
            QStringLiteral(" #%1 sim %2 conf %3").arg(n.id).arg(n.similarity, 0, 'f', 2).arg(n.confidence, 0, 'f', 2);
    log().info("response cache {} {}: {}{} saved {} ms", lookup.level == Level::Exact ? "exact" : "near",
               key.toHex().left(16).toStdString(), cacheDecisionId(lookup.decision), neighbours.toStdString(),
               lookup.savedMs);
}

} // namespace Prefetch
