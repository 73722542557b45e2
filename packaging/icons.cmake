# headstart_render_icon(SIZE OUTPUT): a build-time PNG of the app icon, SIZE x SIZE pixels, drawn
# from the one hand-written SVG (packaging/icons/) by rsvg-convert (Debian librsvg2-bin). The
# PNGs are never committed: the SVG is the source. Used for the icon theme sizes
# (packaging/CMakeLists.txt) and for the window icon compiled into the app (app/CMakeLists.txt),
# so the app needs no SVG support at run time.
find_program(RSVG_CONVERT rsvg-convert REQUIRED)
set(HEADSTART_ICON_SVG ${PROJECT_SOURCE_DIR}/packaging/icons/${HEADSTART_APP_ID}.svg)

function(headstart_render_icon size output)
    get_filename_component(dir ${output} DIRECTORY)
    add_custom_command(OUTPUT ${output}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
        COMMAND ${RSVG_CONVERT} --width ${size} --height ${size} --output ${output} ${HEADSTART_ICON_SVG}
        DEPENDS ${HEADSTART_ICON_SVG}
        COMMENT "Rendering the ${size} px icon"
        VERBATIM)
endfunction()
