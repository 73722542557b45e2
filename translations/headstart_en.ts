<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>Gui::Attachments</name>
    <message numerus="yes">
        <location filename="../workspace/conversations/attachments.cpp" line="119"/>
        <source>None of the %n files was attached.</source>
        <translation>
            <numerusform>The file was not attached.</numerusform>
            <numerusform>None of the %n files was attached.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ChatDock</name>
    <message numerus="yes">
        <location filename="../gui/chat/attachmentchips.cpp" line="62"/>
        <source>%1, %n line(s)</source>
        <translation>
            <numerusform>%1, %n line</numerusform>
            <numerusform>%1, %n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/chat/chatdockactions.cpp" line="111"/>
        <source>Answer copied to the clipboard (%n character(s))</source>
        <translation>
            <numerusform>Answer copied to the clipboard (%n character)</numerusform>
            <numerusform>Answer copied to the clipboard (%n characters)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::DocumentTabs</name>
    <message numerus="yes">
        <location filename="../gui/mainwindow/documenttabs.cpp" line="311"/>
        <source>%n documents have unsaved changes: %1. Save them?</source>
        <translation>
            <numerusform>%n document has unsaved changes: %1. Save it?</numerusform>
            <numerusform>%n documents have unsaved changes: %1. Save them?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/mainwindow/documenttabs.cpp" line="424"/>
        <source>Headstart did not close properly last time. Recover %n unsaved document(s)?</source>
        <translation>
            <numerusform>Headstart did not close properly last time. Recover %n unsaved document?</numerusform>
            <numerusform>Headstart did not close properly last time. Recover %n unsaved documents?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::FindBar</name>
    <message numerus="yes">
        <location filename="../gui/mainwindow/findbar.cpp" line="191"/>
        <source>%n replaced</source>
        <translation>
            <numerusform>%n replaced</numerusform>
            <numerusform>%n replaced</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../gui/mainwindow/mainwindow.cpp" line="388"/>
        <source>Answer copied to the clipboard (%n character(s))</source>
        <translation>
            <numerusform>Answer copied to the clipboard (%n character)</numerusform>
            <numerusform>Answer copied to the clipboard (%n characters)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::MessageUsage</name>
    <message numerus="yes">
        <location filename="../workspace/conversations/messageusage.cpp" line="115"/>
        <source>First words (%n characters) by %1, the rest by %2</source>
        <translation>
            <numerusform>First words (%n character) by %1, the rest by %2</numerusform>
            <numerusform>First words (%n characters) by %1, the rest by %2</numerusform>
        </translation>
    </message>
</context>
</TS>
