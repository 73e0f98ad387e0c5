# Runs `cmake --install BUILD_DIR --prefix PREFIX` and checks that the desktop program's files
# are where a desktop looks for them. Used by the ctest test install_layout.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "cmake --install failed: ${result}")
endif()
foreach(f bin/hitcounter bin/hitcounter-cli share/applications/hitcounter.desktop
          share/icons/hicolor/scalable/apps/hitcounter.svg
          share/icons/hicolor/256x256/apps/hitcounter.png)
    if(NOT EXISTS "${PREFIX}/${f}")
        message(FATAL_ERROR "missing after install: ${PREFIX}/${f}")
    endif()
endforeach()
file(READ "${PREFIX}/share/applications/hitcounter.desktop" desktop)
if(NOT desktop MATCHES "Exec=hitcounter" OR NOT desktop MATCHES "Icon=hitcounter")
    message(FATAL_ERROR "the .desktop file does not start hitcounter with its icon")
endif()
file(REMOVE_RECURSE "${PREFIX}")
message(STATUS "install layout ok")
