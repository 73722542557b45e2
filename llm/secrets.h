#pragma once

#include <QString>

namespace Llm {

// The exact values this process sends as credentials (API keys, the values of a profile's extra
// headers such as a gateway token), so that text going out of the process or into a file can be
// cleaned of them whatever their shape: a custom gateway's key need not look like `sk-…`, and a
// server may echo it in an error or an answer. Values are added where they are sent
// (ProviderRequest, ModelList) and kept for the life of the process. Thread-safe.
namespace Secrets {

// Shorter values are not kept: they would cut ordinary words out of messages, and nothing that
// short is a secret worth the name.
constexpr qsizetype MinimumLength = 4;

void remember(const QString &value);
// `text` with every remembered value replaced by "[redacted]".
QString redact(QString text);

} // namespace Secrets

} // namespace Llm
