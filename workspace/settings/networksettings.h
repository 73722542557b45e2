#pragma once

#include "llm/proxy.h"

#include <QList>
#include <QPair>
#include <QStringList>

class QSettings;

namespace Gui {

// The proxy's part of the settings file, for SettingsFile::load() and save(): keys
// "network/proxy/mode" ("system", "none", "http", "socks5"), ".../host", ".../port" and
// ".../user". The password is never here: it lives in the SecretStore (Secret::ProxyPassword).
// A bad value falls back to the system's proxy settings with one translated problem.
Llm::ProxySettings loadProxySettings(QSettings &settings, QStringList &problems);
void saveProxySettings(QSettings &settings, const Llm::ProxySettings &proxy);

// The modes offered in Settings, Network, with the name shown, in the order listed.
QList<QPair<Llm::ProxySettings::Mode, QString>> proxyModes();

} // namespace Gui
