#include "secrets.h"

#include <QMutex>
#include <QStringList>

#include <algorithm>

namespace Llm::Secrets {

namespace {

struct Store {
    QMutex mutex;
    QStringList values; // longest first, so a key that contains another goes whole
};

Store &store()
{
    static Store s;
    return s;
}

} // namespace

void remember(const QString &value)
{
    const QString v = value.trimmed();
    if (v.size() < MinimumLength)
        return;
    Store &s = store();
    QMutexLocker lock(&s.mutex);
    if (s.values.contains(v))
        return;
    s.values.append(v);
    std::stable_sort(s.values.begin(), s.values.end(),
                     [](const QString &a, const QString &b) { return a.size() > b.size(); });
}

QString redact(QString text)
{
    Store &s = store();
    QMutexLocker lock(&s.mutex);
    for (const QString &value : std::as_const(s.values))
        text.replace(value, QStringLiteral("[redacted]"));
    return text;
}

} // namespace Llm::Secrets
