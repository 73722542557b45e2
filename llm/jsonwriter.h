#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringView>
#include <QVarLengthArray>

namespace Llm {

// Compact JSON text written in exactly the order the caller gives. QJsonObject sorts its keys,
// which would move `max_tokens` in front of `messages` and so change the bytes of the static
// prefix that provider prompt caches key on; this writer never reorders, never adds
// whitespace and formats numbers deterministically, so equal inputs give equal bytes.
//
// Commas are placed automatically. Misuse (a value where a key is due, unbalanced ends) is a
// programming error caught by Q_ASSERT. Pure value; use from one thread at a time.
class JsonWriter
{
public:
    JsonWriter() = default;

    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();

    // Keys are ASCII literals in practice, but are escaped like any string.
    JsonWriter &key(QByteArrayView utf8Key);

    JsonWriter &value(QStringView text);
    JsonWriter &value(const QString &text) { return value(QStringView(text)); }
    JsonWriter &value(const char *utf8) { return utf8Value(QByteArrayView(utf8)); }
    JsonWriter &utf8Value(QByteArrayView utf8); // a string given as UTF-8 bytes
    JsonWriter &value(bool b);
    JsonWriter &value(int n) { return value(qint64(n)); }
    JsonWriter &value(qint64 n);
    // Shortest text that reads back as the same double; NaN and infinities (not JSON) as null.
    JsonWriter &value(double d);
    JsonWriter &nullValue();
    // Already-serialised JSON (a tool's parameter schema), inserted byte for byte. The caller
    // vouches that it is one valid JSON value.
    JsonWriter &rawValue(QByteArrayView json);

    template <typename T>
    JsonWriter &field(QByteArrayView utf8Key, const T &v)
    {
        key(utf8Key);
        return value(v);
    }

    const QByteArray &data() const { return m_out; }
    QByteArray take() { return std::move(m_out); }

    // `text` as a JSON string literal, quotes included.
    static void appendEscaped(QByteArray &out, QByteArrayView utf8);

private:
    struct Level {
        bool isObject = false;
        bool hasElement = false; // the next element needs a comma
    };

    void beforeValue();
    JsonWriter &open(char bracket, bool isObject);
    JsonWriter &close(char bracket, bool isObject);

    QByteArray m_out;
    // 16 levels cover every body we write without touching the heap.
    QVarLengthArray<Level, 16> m_levels;
    bool m_afterKey = false;
};

} // namespace Llm
