#pragma once

// Small pieces the Settings dialog's pages share (ProvidersPage, PrefetchPage, GeneralPage, ProviderKeys).

#include "workspace/settings/prefetchparameters.h"

#include <QString>

class QLabel;
class QScrollArea;
class QWidget;

namespace Gui::SettingsPages {

// A parameter's unit as the suffix of its spin box (" ms", " tokens"); empty for none.
QString suffixOf(PrefetchParameter::Unit unit);

// "&Delay:" → "Delay", "延迟(&D)：" → "延迟": for accessible names.
QString labelName(const QString &label);

// Pages scroll vertically instead of clipping when the window is small or the font large;
// they never scroll sideways, since every long text wraps.
void makeScrollable(QScrollArea *scroll);
void setScrollPage(QScrollArea *scroll, QWidget *page);

QLabel *wrappingLabel(QWidget *parent, const QString &text = {});

} // namespace Gui::SettingsPages
