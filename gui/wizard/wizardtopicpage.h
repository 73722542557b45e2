#pragma once

#include <QTimer>
#include <QWizardPage>

class QComboBox;
class QLineEdit;

namespace Gui {

// Page 1: topic, audience, tone and length. It reports `settled` when the user has paused
// typing for 350 ms or moved focus on: the moment the outline can be predicted.
class WizardTopicPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit WizardTopicPage(QWidget *parent = nullptr);

    QLineEdit *topicEdit() const { return m_topic; }
    QLineEdit *audienceEdit() const { return m_audience; }
    QComboBox *toneBox() const { return m_tone; }
    QComboBox *lengthBox() const { return m_length; }

    // The form as the prompts use it: trimmed text, and stable English keys for the choices
    // (the prompt must not change with the UI language).
    QString topic() const;
    QString audience() const;
    QString tone() const;
    QString length() const;

    bool isComplete() const override; // a topic is required
    // Next was pressed: a change still waiting for its pause is no longer worth predicting from.
    void cancelPendingSettle() { m_pause.stop(); }

signals:
    void settled();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onEdited();

    QLineEdit *m_topic;
    QLineEdit *m_audience;
    QComboBox *m_tone;
    QComboBox *m_length;
    QTimer m_pause;
};

} // namespace Gui
