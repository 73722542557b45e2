#pragma once

#include "workspace/settings/assistants.h"

#include <QStringList>

#include <functional>

class QSettings;

namespace Gui {

// The assistants' part of the settings file, for SettingsFile::load() and save():
//   assistants/builtin/<id>/{name,systemPrompt,temperature,maxTokens}  changes to a built-in
//     (temperature "off": the provider's default; maxTokens "default": the chat's default)
//   assistants/custom/<n>/{id,name,systemPrompt,temperature,maxTokens}  the user's, in order
// Each bad value is reset with one translated problem: a change to an unknown built-in, or a
// user assistant without a valid id, is dropped; a bad name, temperature or length is the
// default one. Nothing else in the file is touched.
AssistantSettings loadAssistantSettings(QSettings &settings, QStringList &problems);
void saveAssistantSettings(QSettings &settings, const AssistantSettings &assistants);

// The assistant chosen last (in the chat dock, or sent with): new conversations start with it.
// Kept apart from AppSettings like the recent files: the chat writes it, the dialog never does.
QString lastAssistant(QSettings &settings);
void setLastAssistant(QSettings &settings, const QString &id);

// Where a chat session remembers the assistant chosen last: in the app's settings file
// (lastAssistant() above), or only in memory for a run that must not write the user's settings
// (the replay benchmark).
struct AssistantMemory {
    std::function<QString()> read;
    std::function<void(const QString &id)> write;

    static AssistantMemory inSettings();
    static AssistantMemory inMemory(); // starts with General
};

} // namespace Gui
