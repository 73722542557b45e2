#include "session.h"

#include "layout.h"

namespace Bench::Gen {

namespace {

quint64 kindHash(const char *kind) // FNV-1a: kinds with the same seed differ
{
    quint64 h = 0xcbf29ce484222325ULL;
    for (const char *c = kind; *c; ++c)
        h = (h ^ quint64(uchar(*c))) * 0x100000001b3ULL;
    return h;
}

QByteArray joined(const QList<Field> &fields)
{
    QByteArray json;
    for (const Field &f : fields)
        json += (json.isEmpty() ? "" : ",") + f.json;
    return json;
}

} // namespace

QByteArray jsonString(const QString &text)
{
    QByteArray out = "\"";
    for (const char c : text.toUtf8()) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (uchar(c) < 0x20)
                out += "\\u00" + QByteArray::number(uchar(c), 16).rightJustified(2, '0');
            else
                out += c;
        }
    }
    return out + '"';
}

Field num(const char *key, qint64 value)
{
    return {jsonString(QLatin1String(key)) + ':' + QByteArray::number(value)};
}

Field unsignedNum(const char *key, quint64 value)
{
    return {jsonString(QLatin1String(key)) + ':' + QByteArray::number(value)};
}

Field str(const char *key, const QString &value)
{
    return {jsonString(QLatin1String(key)) + ':' + jsonString(value)};
}

Field object(const char *key, std::initializer_list<Field> fields)
{
    return object(key, QList<Field>(fields));
}

Field object(const char *key, const QList<Field> &fields)
{
    return {jsonString(QLatin1String(key)) + ":{" + joined(fields) + '}'};
}

Field rect(const char *key, const Rect &r)
{
    return {jsonString(QLatin1String(key)) + ":[" + QByteArray::number(r.x) + ',' + QByteArray::number(r.y) + ','
            + QByteArray::number(r.w) + ',' + QByteArray::number(r.h) + ']'};
}

Field strings(const char *key, const QStringList &values)
{
    QByteArray json;
    for (const QString &v : values)
        json += (json.isEmpty() ? "" : ",") + jsonString(v);
    return {jsonString(QLatin1String(key)) + ":[" + json + ']'};
}

Session::Session(const char *kind, quint64 seed, quint64 attempt, const char *description)
    : rng(seed ^ (kindHash(kind) * 0x2545f4914f6cdd1dULL) ^ (attempt * 0xd1b54a32d192ed03ULL))
{
    write("meta",
          {str("name", QLatin1String(kind)), unsignedNum("seed", seed),
           str("generator", QStringLiteral("headstart-cli tracegen")), str("description", QLatin1String(description))});
}

void Session::writeAt(qint64 at, const char *event, std::initializer_list<Field> fields)
{
    Q_ASSERT(at >= m_lastT);
    m_lastT = at;
    if (qstrcmp(event, "click") == 0 || qstrcmp(event, "send") == 0 || qstrcmp(event, "wizard_next") == 0)
        m_lastActivation = at;
    m_text += "{\"t\":" + QByteArray::number(at) + ",\"event\":" + jsonString(QLatin1String(event));
    for (const Field &f : fields)
        m_text += ',' + f.json;
    m_text += "}\n";
}

void Session::focus(const QString &target)
{
    if (target == m_focus)
        return;
    m_focus = target;
    write("focus", {str("target", target)});
}

void Session::modifiers(const QStringList &keys)
{
    if (keys == m_modifiers)
        return;
    m_modifiers = keys;
    write("modifiers", {strings("keys", keys)});
}

QByteArray Session::finish()
{
    t = std::max({t, m_lastT, m_lastActivation + AnswerRoomMs});
    write("end");
    return m_text;
}

} // namespace Bench::Gen
