// The behaviour-trace parser (bench/replay/trace.h) over arbitrary JSON Lines. Invariants: a
// rejection names the trace and a line; an accepted trace has events, in time order, meta not
// among them, `end` only last; writing the accepted trace back out parses to the same trace.

#include "fuzzsupport.h"

#include "bench/replay/trace.h"

#include <QJsonDocument>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto trace = Bench::Trace::parse(bytes, QStringLiteral("fuzz"));
    if (!trace) {
        FUZZ_CHECK(trace.error().startsWith(QLatin1StringView("fuzz:")));
        return 0;
    }
    FUZZ_CHECK(!trace->events.isEmpty());
    qint64 lastT = 0;
    int lastLine = 0;
    QByteArray written;
    if (!trace->meta.isEmpty()) {
        QJsonObject meta = trace->meta;
        meta.insert(QStringLiteral("t"), 0);
        meta.insert(QStringLiteral("event"), QStringLiteral("meta"));
        written += QJsonDocument(meta).toJson(QJsonDocument::Compact) + '\n';
    }
    for (qsizetype i = 0; i < trace->events.size(); ++i) {
        const Bench::TraceEvent &e = trace->events.at(i);
        FUZZ_CHECK(e.t >= lastT);
        FUZZ_CHECK(e.line > lastLine);
        FUZZ_CHECK(e.event != QLatin1StringView("meta"));
        FUZZ_CHECK(e.event != QLatin1StringView("end") || i == trace->events.size() - 1);
        lastT = e.t;
        lastLine = e.line;
        QJsonObject object = e.fields;
        object.insert(QStringLiteral("t"), e.t);
        object.insert(QStringLiteral("event"), e.event);
        written += QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
    }
    FUZZ_CHECK(trace->durationMs() == lastT);

    const auto again = Bench::Trace::parse(written, QStringLiteral("fuzz"));
    if (!again)
        std::fprintf(stderr, "rewritten trace rejected: %s\n", qPrintable(again.error()));
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(again->name == trace->name);
    FUZZ_CHECK(again->meta == trace->meta);
    FUZZ_CHECK(again->events.size() == trace->events.size());
    for (qsizetype i = 0; i < trace->events.size(); ++i) {
        FUZZ_CHECK(again->events.at(i).t == trace->events.at(i).t);
        FUZZ_CHECK(again->events.at(i).event == trace->events.at(i).event);
        FUZZ_CHECK(again->events.at(i).fields == trace->events.at(i).fields);
    }
    return 0;
}
