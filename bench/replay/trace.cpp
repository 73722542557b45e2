#include "trace.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace Bench {

namespace {

// A library of this many generated notes is ~57 MB and takes about a minute to index: as large as
// a replay should build.
constexpr int MaxLibraryDocs = 10000;

// Every event the replay understands, with the fields it needs.
const QHash<QString, QStringList> &knownEvents()
{
    static const QHash<QString, QStringList> events{
        {QStringLiteral("meta"), {}},
        {QStringLiteral("open_document"), {QStringLiteral("doc"), QStringLiteral("tokens")}},
        {QStringLiteral("switch_document"), {QStringLiteral("doc")}},
        {QStringLiteral("close_document"), {QStringLiteral("doc")}},
        {QStringLiteral("edit_document"), {QStringLiteral("doc"), QStringLiteral("append_tokens")}},
        {QStringLiteral("select"), {QStringLiteral("paragraph")}},
        {QStringLiteral("hover_enter"), {QStringLiteral("action")}},
        {QStringLiteral("hover_leave"), {QStringLiteral("action")}},
        {QStringLiteral("press"), {QStringLiteral("action")}},
        {QStringLiteral("click"), {QStringLiteral("action")}},
        {QStringLiteral("chat_open"), {QStringLiteral("conversation")}},
        {QStringLiteral("open_library"), {QStringLiteral("docs"), QStringLiteral("seed")}},
        {QStringLiteral("attach"), {QStringLiteral("name"), QStringLiteral("text")}},
        {QStringLiteral("type"), {QStringLiteral("text")}},
        {QStringLiteral("compose"), {QStringLiteral("text")}},
        {QStringLiteral("send"), {}},
        {QStringLiteral("wizard_start"), {}},
        {QStringLiteral("wizard_field"), {QStringLiteral("step"), QStringLiteral("data")}},
        {QStringLiteral("wizard_edit"), {QStringLiteral("step"), QStringLiteral("append")}},
        {QStringLiteral("wizard_next"), {QStringLiteral("step")}},
        {QStringLiteral("wizard_finish"), {}},
        {QStringLiteral("wizard_cancel"), {}},
        {QStringLiteral("stop"), {}},
        {QStringLiteral("end"), {}},
        // The signals that come before an activation (optional; see bench/README.md).
        {QStringLiteral("layout"), {QStringLiteral("buttons")}},
        {QStringLiteral("pointer"), {QStringLiteral("x"), QStringLiteral("y")}},
        {QStringLiteral("focus"), {QStringLiteral("target")}},
        {QStringLiteral("modifiers"), {QStringLiteral("keys")}},
        {QStringLiteral("selecting"), {}},
    };
    return events;
}

const QStringList &actionNames()
{
    static const QStringList actions{QStringLiteral("summarize"), QStringLiteral("continue"), QStringLiteral("rewrite"),
                                     QStringLiteral("translate"), QStringLiteral("explain")};
    return actions;
}

// A JSON number that is a whole number (QJsonValue::isDouble() is true for 1 and for 1.5).
bool isInteger(const QJsonValue &value)
{
    return value.isDouble() && value.toDouble() == double(value.toInteger());
}

// `[x, y, w, h]`: integers, a positive size.
bool isRect(const QJsonValue &value)
{
    const QJsonArray rect = value.toArray();
    if (!value.isArray() || rect.size() != 4)
        return false;
    for (const QJsonValue &v : rect) {
        if (!isInteger(v))
            return false;
    }
    return rect.at(2).toInteger() > 0 && rect.at(3).toInteger() > 0;
}

// The layout, pointer, focus and modifier events; empty when they are fine.
QString checkSignalValues(const TraceEvent &event)
{
    const QJsonObject &f = event.fields;
    if (event.event == QLatin1String("layout")) {
        const QJsonObject buttons = f.value(QStringLiteral("buttons")).toObject();
        if (!f.value(QStringLiteral("buttons")).isObject() || buttons.size() != actionNames().size())
            return QStringLiteral("\"buttons\" must be an object with a rect for each of %1")
                .arg(actionNames().join(QStringLiteral(", ")));
        for (const QString &action : actionNames()) {
            if (!isRect(buttons.value(action)))
                return QStringLiteral("\"buttons\" needs \"%1\": [x, y, w, h] (integers, w and h positive)")
                    .arg(action);
        }
        for (const char *area : {"document", "chat_input"}) {
            const QString key = QLatin1String(area);
            if (f.contains(key) && !isRect(f.value(key)))
                return QStringLiteral("\"%1\" must be [x, y, w, h] (integers, w and h positive)").arg(key);
        }
    } else if (event.event == QLatin1String("pointer")) {
        if (!isInteger(f.value(QStringLiteral("x"))) || !isInteger(f.value(QStringLiteral("y"))))
            return QStringLiteral("\"x\" and \"y\" must be integers (window pixels)");
    } else if (event.event == QLatin1String("focus")) {
        const QString target = f.value(QStringLiteral("target")).toString();
        if (target != QLatin1String("document") && target != QLatin1String("chat_input")
            && target != QLatin1String("other") && !actionNames().contains(target))
            return QStringLiteral("\"target\" must be \"document\", \"chat_input\", \"other\" or an action");
    } else if (event.event == QLatin1String("modifiers")) {
        static const QStringList names{QStringLiteral("ctrl"), QStringLiteral("alt"), QStringLiteral("shift"),
                                       QStringLiteral("meta")};
        if (!f.value(QStringLiteral("keys")).isArray())
            return QStringLiteral("\"keys\" must be an array of the modifiers held (empty: none)");
        QStringList seen;
        for (const QJsonValue &key : f.value(QStringLiteral("keys")).toArray()) {
            if (!names.contains(key.toString()) || seen.contains(key.toString()))
                return QStringLiteral("\"keys\" holds each of %1 at most once").arg(names.join(QStringLiteral(", ")));
            seen.append(key.toString());
        }
    }
    return {};
}

// The values the replay can play; empty when they are fine.
QString checkValues(const TraceEvent &event)
{
    const QJsonObject &f = event.fields;
    const QStringList &actions = actionNames();
    if (const QString why = checkSignalValues(event); !why.isEmpty())
        return why;
    if (f.contains(QStringLiteral("action")) && !actions.contains(f.value(QStringLiteral("action")).toString()))
        return QStringLiteral("\"action\" must be one of %1").arg(actions.join(QStringLiteral(", ")));
    if (event.event == QLatin1String("chat_open") && f.contains(QStringLiteral("mode"))
        && f.value(QStringLiteral("mode")) != QLatin1String("document")
        && f.value(QStringLiteral("mode")) != QLatin1String("free")
        && f.value(QStringLiteral("mode")) != QLatin1String("library"))
        return QStringLiteral("\"mode\" must be \"document\", \"free\" or \"library\"");
    // Which ids there are is the replay's to say (the parser links nothing but QtCore).
    if (event.event == QLatin1String("chat_open") && f.contains(QStringLiteral("assistant"))
        && (!f.value(QStringLiteral("assistant")).isString()
            || f.value(QStringLiteral("assistant")).toString().isEmpty()))
        return QStringLiteral("\"assistant\" must be an assistant's id");
    if (event.event == QLatin1String("attach")) {
        // A file's name as the dock's file dialog gives it: no folder.
        const QString name = f.value(QStringLiteral("name")).toString();
        if (!f.value(QStringLiteral("name")).isString() || name.isEmpty() || name == QLatin1String(".")
            || name == QLatin1String("..") || name.contains(QLatin1Char('/')) || name.contains(QLatin1Char('\\'))
            || name.contains(QChar(0)))
            return QStringLiteral("\"name\" must be a file name without a folder");
        if (!f.value(QStringLiteral("text")).isString())
            return QStringLiteral("\"text\" must be a string (the file's content)");
    }
    if (event.event == QLatin1String("open_library")) {
        const int docs = f.value(QStringLiteral("docs")).toInt();
        if (docs < 2 || docs > MaxLibraryDocs)
            return QStringLiteral("\"docs\" must be an integer from 2 to %1").arg(MaxLibraryDocs);
        if (!f.value(QStringLiteral("seed")).isDouble() || f.value(QStringLiteral("seed")).toDouble() < 0)
            return QStringLiteral("\"seed\" must be a non-negative integer");
    }
    if (event.event == QLatin1String("open_document")) {
        if (f.value(QStringLiteral("tokens")).toInt() <= 0)
            return QStringLiteral("\"tokens\" must be a positive integer");
        const QString language = f.value(QStringLiteral("language")).toString(QStringLiteral("en"));
        if (language != QLatin1String("en") && language != QLatin1String("zh"))
            return QStringLiteral("\"language\" must be \"en\" or \"zh\"");
    }
    if (event.event == QLatin1String("edit_document") && f.value(QStringLiteral("append_tokens")).toInt() <= 0)
        return QStringLiteral("\"append_tokens\" must be a positive integer");
    if (event.event == QLatin1String("select") && !f.value(QStringLiteral("paragraph")).isDouble())
        return QStringLiteral("\"paragraph\" must be an integer (-1 clears the selection)");
    if (f.contains(QStringLiteral("step"))) {
        const int step = f.value(QStringLiteral("step")).toInt();
        const int lowest = event.event == QLatin1String("wizard_field") ? 1 : 2;
        if (step < lowest || step > 4 || (event.event == QLatin1String("wizard_field") && step != 1))
            return QStringLiteral("\"step\" is out of range for \"%1\"").arg(event.event);
    }
    if (event.event == QLatin1String("wizard_field") && !f.value(QStringLiteral("data")).isObject())
        return QStringLiteral("\"data\" must be an object of the topic form's fields");
    if (event.event == QLatin1String("type") && !f.value(QStringLiteral("text")).isString())
        return QStringLiteral("\"text\" must be a string (the whole draft)");
    if (event.event == QLatin1String("compose") && !f.value(QStringLiteral("text")).isString())
        return QStringLiteral("\"text\" must be a string (the input method's pre-edit)");
    return {};
}

} // namespace

std::expected<Trace, QString> Trace::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::unexpected(QStringLiteral("%1: %2").arg(path, file.errorString()));
    return parse(file.readAll(), QFileInfo(path).completeBaseName());
}

std::expected<Trace, QString> Trace::parse(const QByteArray &jsonLines, const QString &name)
{
    Trace trace;
    trace.name = name;
    int lineNumber = 0;
    qint64 lastT = 0;
    for (const QByteArray &raw : jsonLines.split('\n')) {
        ++lineNumber;
        const QByteArray line = raw.trimmed();
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        auto fail = [&](const QString &why) {
            return std::unexpected(QStringLiteral("%1:%2: %3").arg(name).arg(lineNumber).arg(why));
        };
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return fail(QStringLiteral("not a JSON object (%1)").arg(error.errorString()));
        QJsonObject object = doc.object();
        TraceEvent event;
        event.line = lineNumber;
        event.t = object.take(QStringLiteral("t")).toInteger(-1);
        event.event = object.take(QStringLiteral("event")).toString();
        event.fields = object;
        if (event.t < 0)
            return fail(QStringLiteral("\"t\" must be a non-negative integer"));
        if (event.t < lastT)
            return fail(QStringLiteral("\"t\" goes back in time (%1 after %2)").arg(event.t).arg(lastT));
        const auto known = knownEvents().constFind(event.event);
        if (known == knownEvents().constEnd())
            return fail(QStringLiteral("unknown event \"%1\"").arg(event.event));
        for (const QString &field : *known) {
            if (!event.fields.contains(field))
                return fail(QStringLiteral("\"%1\" needs the field \"%2\"").arg(event.event, field));
        }
        if (const QString why = checkValues(event); !why.isEmpty())
            return fail(why);
        if (!trace.events.isEmpty() && trace.events.constLast().event == QLatin1String("end"))
            return fail(QStringLiteral("an event after \"end\""));
        lastT = event.t;
        if (event.event == QLatin1String("meta")) {
            if (!trace.events.isEmpty())
                return fail(QStringLiteral("\"meta\" must come before every other event"));
            // A second would replace the first's fields but keep its name (found by fuzz_trace).
            if (!trace.meta.isEmpty())
                return fail(QStringLiteral("a trace has one \"meta\""));
            trace.meta = event.fields;
            if (const QString n = event.fields.value(QStringLiteral("name")).toString(); !n.isEmpty())
                trace.name = n;
            continue;
        }
        trace.events.append(event);
    }
    if (trace.events.isEmpty())
        return std::unexpected(QStringLiteral("%1: the trace has no events").arg(name));
    return trace;
}

} // namespace Bench
