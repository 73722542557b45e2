#pragma once

#include "workspace/settings/userendpoints.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace Gui {

// Asks for the name of a new endpoint and its wire format, or for a new name of one. The name is
// checked as it is typed (UserEndpoints::checkName) and OK only takes a name the endpoints accept,
// so accepted() always carries a usable one. Opened with open() by EndpointButtons. GUI thread.
class EndpointDialog : public QDialog
{
    Q_OBJECT

public:
    // Adding: `renaming` empty. Renaming: the endpoint's id; its name is filled in.
    EndpointDialog(const UserEndpoints &endpoints, const QString &renaming, QWidget *parent = nullptr);

    QString name() const; // trimmed
    Llm::ApiFormat format() const;

private:
    void check();

    UserEndpoints m_endpoints;
    QString m_renaming;
    QLineEdit *m_name = nullptr;
    QComboBox *m_format = nullptr; // adding only
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace Gui
