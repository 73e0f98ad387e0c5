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
          share/icons/hicolor/256x256/apps/hitcounter.png
          lib/systemd/system/hitcounter.service share/doc/hitcounter/examples/listen.toml
          share/doc/hitcounter/metrics.md)
    if(NOT EXISTS "${PREFIX}/${f}")
        message(FATAL_ERROR "missing after install: ${PREFIX}/${f}")
    endif()
endforeach()
file(READ "${PREFIX}/share/applications/hitcounter.desktop" desktop)
if(NOT desktop MATCHES "Exec=hitcounter" OR NOT desktop MATCHES "Icon=hitcounter")
    message(FATAL_ERROR "the .desktop file does not start hitcounter with its icon")
endif()
# The service: Type=notify with a watchdog, starting the installed binary with the config.
file(READ "${PREFIX}/lib/systemd/system/hitcounter.service" unit)
if(NOT unit MATCHES "Type=notify" OR NOT unit MATCHES "WatchdogSec=" OR
   NOT unit MATCHES "ExecStart=[^\n]*/hitcounter-cli listen --config /etc/hitcounter/listen.toml")
    message(FATAL_ERROR "the unit does not run listen --config as a notify service")
endif()
# The example config is one the installed binary reads without an error.
execute_process(COMMAND "${PREFIX}/bin/hitcounter-cli" listen
                        --config "${PREFIX}/share/doc/hitcounter/examples/listen.toml" --print-config
                RESULT_VARIABLE result OUTPUT_VARIABLE printed ERROR_VARIABLE errors)
if(NOT result EQUAL 0 OR NOT printed MATCHES "metrics = \"127.0.0.1:9102\"")
    message(FATAL_ERROR "the example config is refused (${result}): ${errors}")
endif()
file(REMOVE_RECURSE "${PREFIX}")
message(STATUS "install layout ok")
