# The .deb (`cpack -G DEB` in the build folder; scripts/package). Included from the top
# CMakeLists.txt before include(CPack). docs/packaging.md explains each choice.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME headstart)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Headstart developers")
set(CPACK_PACKAGE_CONTACT "Headstart developers <headstart@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "AI writing and chat assistant that starts the answer before you ask")
# CPack makes the extended description of these lines (a blank line becomes " .").
set(CPACK_PACKAGE_DESCRIPTION [=[
Headstart is a desktop writing and chat assistant for large language models.
It opens Markdown and text documents and summarizes them, continues writing,
rewrites, explains or translates a selection; the answer streams in beside
the document and goes into it only when asked. It also has a chat about the
document, a new-document wizard and a metrics panel.

Answers are started before they are asked for: opening a document fills the
provider's prompt cache, and resting the pointer on an action or pausing in
the chat starts the likeliest answer, which a click then takes over. For cloud
providers, prefetching that sends text early waits for the user's consent.

It talks to OpenAI-compatible providers (DeepSeek, Qwen, OpenAI, Ollama,
llama.cpp, vLLM) and Anthropic, and includes an offline local demo engine
(not a language model) so it runs with no network and no account. The
package also contains headstart-cli and headstart-localprovider.]=])
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # headstart_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION editors)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/headstart/headstart")
# Libraries come from the binaries (dpkg-shlibdeps). What they load at run time and shlibdeps
# cannot see: the Qt SQLite driver (plugins/sqldrivers; the chat's conversations need it, so a
# Depends), a secret service for the keychain (without one keys go to an owner-only file).
# The xcb platform plugin, the ibus input context and the TLS backend ship in libqt6gui6 and
# libqt6network6, which shlibdeps already names. Suggested: CJK fonts for the Chinese interface,
# fcitx5's Qt 6 frontend for typing Chinese through fcitx5, native Wayland.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnome-keyring | kwalletmanager")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "fonts-noto-cjk, fcitx5-frontend-qt6, qt6-wayland")
# Stripped: the package is for users, and lintian flags unstripped binaries. The build tree
# keeps the RelWithDebInfo binaries for debugging.
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR})
