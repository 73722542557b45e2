#pragma once

#include <QPointer>
#include <QWidget>

class QComboBox;
class QCompleter;
class QLabel;
class QLineEdit;
class QNetworkAccessManager;
class QPushButton;

namespace Llm {
class Error;
class ModelListFetch;
struct ProviderProfile;
} // namespace Llm

namespace Gui {

// The model field of the settings dialog's Providers page: free text, as every provider takes,
// plus the provider's own list (GET <base>/models) on request, searched by any part of a name.
// What went wrong with the list is said beside the field, never in a dialog, and the text typed
// stays. Holds no settings: the dialog reads lineEdit() as it reads any text field. GUI thread.
class ModelPicker : public QWidget
{
    Q_OBJECT

public:
    explicit ModelPicker(QWidget *parent = nullptr);
    ~ModelPicker() override;

    // Without a network manager there is no list to load: the button is hidden.
    void setNetwork(QNetworkAccessManager *network);
    // Loads the list of `profile` (its key as the dialog has it); a running load is cancelled.
    void loadList(const Llm::ProviderProfile &profile);
    // Another provider is shown: its list is not this one's.
    void clearList();

    QLineEdit *lineEdit() const;
    QComboBox *comboBox() const { return m_combo; }
    QPushButton *loadButton() const { return m_load; }
    QLabel *statusLabel() const { return m_status; }

signals:
    // The user asked for the list: the dialog answers with loadList(current profile).
    void listRequested();
    // A model was picked from the list or its search (not typed): the dialog applies it.
    void modelPicked(const QString &model);

private:
    void onListLoaded(const QStringList &models);
    void onListFailed(const Llm::Error &error);
    void setLoading(bool loading);

    QComboBox *m_combo = nullptr;
    QCompleter *m_completer = nullptr;
    QPushButton *m_load = nullptr;
    QLabel *m_status = nullptr;
    QPointer<QNetworkAccessManager> m_network;
    Llm::ModelListFetch *m_fetch = nullptr; // owned (child); one at a time
};

} // namespace Gui
