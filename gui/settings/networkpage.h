#pragma once

#include "workspace/settings/secretstore.h"

#include "llm/proxy.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace Gui {

// The settings dialog's Network page: the proxy model traffic goes through (the system's, none,
// HTTP or SOCKS5), its host and port, and optional credentials. The password goes straight to
// the SecretStore (Secret::ProxyPassword), like API keys; everything else is reported through
// proxyEdited() for the dialog to apply, text fields after a pause in typing. GUI thread.
class NetworkPage : public QWidget
{
    Q_OBJECT

public:
    NetworkPage(SecretStore *secrets, int textDebounceMs, int passwordDebounceMs, QWidget *parent = nullptr);

    // Shows `proxy` and reads the stored password; emits nothing.
    void showProxy(const Llm::ProxySettings &proxy);
    // Applies the text fields and saves the password still waiting for a pause in typing.
    void commitPendingEdits();

signals:
    // The proxy as the user set it up now, without its password.
    void proxyEdited(const Llm::ProxySettings &proxy);

private:
    void applyFields();
    void savePassword();
    void refreshEnabled();
    Llm::ProxySettings::Mode currentMode() const;

    QPointer<SecretStore> m_secrets;
    Llm::ProxySettings m_proxy;
    QTimer m_textTimer;
    QTimer m_passwordTimer;
    bool m_passwordDirty = false;
    int m_passwordGeneration = 0; // ignores a read that answers after the page was shown again

    QComboBox *m_mode = nullptr;
    QLineEdit *m_host = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace Gui
