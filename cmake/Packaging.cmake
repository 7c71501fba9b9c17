# Install rules for the deployment files and the CPack .deb (amd64 or arm64).
# Included by the top-level CMakeLists.txt. Build the package with
# scripts/build-deb.sh, or: cmake --build B && cpack --config B/CPackConfig.cmake
#
# Layout (prefix /usr in the package):
#   /usr/bin/edpbench                       install(TARGETS) in src/cli
#   /usr/lib/edpbench/edpbench-job          systemd/edpbench-job.sh
#   /usr/lib/edpbench/systemd-pre-244.conf  drop-in copied by postinst on systemd < 244
#   /usr/lib/edpbench/edpbench-clocks.tmpfiles      the clock grant for group edpbench and
#   /usr/lib/edpbench/edpbench-clocks.service.conf  its service drop-in; both inactive until
#                                           an admin copies them (docs/deployment.md §6)
#   /usr/lib/edpbench/edpbench-i2c.service.conf  drop-in opening the INA226's /dev/i2c-N,
#                                           inactive until copied (docs/deployment.md §6)
#   /etc/edpbench/*.yaml                    configs/*.yaml (conffiles)
#   /etc/edpbench/config.yaml               the config the service runs: a copy of
#                                           tx2.yaml in the arm64 package, of
#                                           default.yaml in the others
#   /etc/default/edpbench                   systemd/edpbench.env (conffile)
#   /lib/systemd/system/edpbench.{service,timer}
#   /lib/systemd/system/edpbench-exporter.service  the Prometheus exporter (not enabled)
#   /usr/share/doc/edpbench/deployment.md
#   /usr/share/man/man1/edpbench.1.gz, /usr/share/bash-completion/completions/edpbench
#                                           generated from the CLI (src/cli/CMakeLists.txt)
#   the monitor API (component monitor, src/monitor and python/CMakeLists.txt):
#   /usr/lib/<arch>/libedpbench-monitor.so*, /usr/include/edpbench/monitor.h,
#   /usr/lib/<arch>/cmake/edpbench/, /usr/lib/<arch>/pkgconfig/edpbench-monitor.pc,
#   /usr/lib/python3/dist-packages/edpbench/ (when pybind11 was found)

# A simulator build (EDPBENCH_GPU_SIM) links the fake libcuda.so.1 of
# tests/gpu_sim: never package it.
if(EDPBENCH_GPU_SIM)
  return()
endif()

set(_edp_src "${PROJECT_SOURCE_DIR}")

# Debian architecture: from the toolchain (the cross toolchains set it), else
# from the target processor when cross-compiling, else from dpkg.
if(NOT CPACK_DEBIAN_PACKAGE_ARCHITECTURE)
  if(CMAKE_CROSSCOMPILING)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
      set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
    elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|amd64)$")
      set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
    elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
      set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE armhf)
    endif()
  else()
    find_program(EDPBENCH_DPKG dpkg)
    if(EDPBENCH_DPKG)
      execute_process(COMMAND "${EDPBENCH_DPKG}" --print-architecture
                      OUTPUT_VARIABLE CPACK_DEBIAN_PACKAGE_ARCHITECTURE
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    endif()
  endif()
endif()

if(EDPBENCH_NATIVE)
  message(STATUS "Packaging: EDPBENCH_NATIVE=ON; a .deb built from this tree runs only on CPUs "
                 "like this one (scripts/build-deb.sh configures with -DEDPBENCH_NATIVE=OFF)")
endif()

install(PROGRAMS "${_edp_src}/systemd/edpbench-job.sh"
        DESTINATION lib/edpbench RENAME edpbench-job)
install(FILES "${_edp_src}/packaging/systemd-pre-244.conf" DESTINATION lib/edpbench)
# Operating points (DESIGN §10): the narrow grant to change clocks, shipped
# outside tmpfiles.d and the unit's drop-in directory so that it is disabled
# until an administrator enables it.
install(FILES "${_edp_src}/packaging/edpbench-clocks.tmpfiles"
              "${_edp_src}/packaging/edpbench-clocks.service.conf"
        DESTINATION lib/edpbench)
# The one I2C bus of an INA226, also an inactive drop-in (the unit opens none).
install(FILES "${_edp_src}/packaging/edpbench-i2c.service.conf" DESTINATION lib/edpbench)
# What an operator on the board needs to read: deployment, and reliability
# (the state file, --allow-root, the lock, the drop-ins and exit codes).
foreach(_doc deployment.md reliability.md observability.md)
  if(EXISTS "${_edp_src}/docs/${_doc}")
    install(FILES "${_edp_src}/docs/${_doc}" DESTINATION share/doc/edpbench)
  endif()
endforeach()

# /etc and /lib/systemd are absolute: they do not move with the prefix
# (Debian puts units under /lib/systemd/system, which also works on the
# merged-/usr Debian 12 and on the non-merged Ubuntu 18.04 of JetPack 4).
set(EDPBENCH_SYSCONFDIR "/etc" CACHE PATH "Where /etc/edpbench and /etc/default go")
set(EDPBENCH_SYSTEMD_UNITDIR "/lib/systemd/system" CACHE PATH "systemd system unit directory")

file(GLOB _edp_configs CONFIGURE_DEPENDS "${_edp_src}/configs/*.yaml")
list(FILTER _edp_configs EXCLUDE REGEX "/config\\.yaml$")
list(SORT _edp_configs)
# The config the service runs: an arm64 package is for a Jetson (tx2.yaml:
# INA3221 rails, A57 CPU set, the GPU); any other for a desktop or server
# (default.yaml, power.source auto).
set(_edp_service_config "")
if(CPACK_DEBIAN_PACKAGE_ARCHITECTURE STREQUAL "arm64")
  set(_edp_service_candidates tx2 default)
else()
  set(_edp_service_candidates default tx2)
endif()
foreach(_c IN LISTS _edp_service_candidates)
  if(NOT _edp_service_config AND EXISTS "${_edp_src}/configs/${_c}.yaml")
    set(_edp_service_config "${_edp_src}/configs/${_c}.yaml")
  endif()
endforeach()

set(_edp_conffiles "")
if(_edp_configs)
  install(FILES ${_edp_configs} DESTINATION "${EDPBENCH_SYSCONFDIR}/edpbench")
  foreach(_c IN LISTS _edp_configs)
    get_filename_component(_n "${_c}" NAME)
    string(APPEND _edp_conffiles "${EDPBENCH_SYSCONFDIR}/edpbench/${_n}\n")
  endforeach()
endif()
if(_edp_service_config)
  install(FILES "${_edp_service_config}" DESTINATION "${EDPBENCH_SYSCONFDIR}/edpbench"
          RENAME config.yaml)
  string(APPEND _edp_conffiles "${EDPBENCH_SYSCONFDIR}/edpbench/config.yaml\n")
endif()
install(FILES "${_edp_src}/systemd/edpbench.env" DESTINATION "${EDPBENCH_SYSCONFDIR}/default"
        RENAME edpbench)
string(APPEND _edp_conffiles "${EDPBENCH_SYSCONFDIR}/default/edpbench\n")
install(FILES "${_edp_src}/systemd/edpbench.service" "${_edp_src}/systemd/edpbench.timer"
              "${_edp_src}/systemd/edpbench-exporter.service"
        DESTINATION "${EDPBENCH_SYSTEMD_UNITDIR}")

# ---- CPack: Debian package --------------------------------------------------
set(_edp_ctl "${PROJECT_BINARY_DIR}/packaging/control")
file(MAKE_DIRECTORY "${_edp_ctl}")
file(WRITE "${_edp_ctl}/conffiles" "${_edp_conffiles}")
foreach(_s postinst prerm postrm)
  # file(COPY) keeps the executable bit, which dpkg-deb requires.
  file(COPY "${_edp_src}/packaging/${_s}" DESTINATION "${_edp_ctl}"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                        WORLD_READ WORLD_EXECUTE)
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${_edp_src}/packaging/postinst" "${_edp_src}/packaging/prerm"
             "${_edp_src}/packaging/postrm")

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "edpbench")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "edpbench")
set(CPACK_PACKAGE_CONTACT "edpbench maintainers <edpbench@localhost>" CACHE STRING
    "Maintainer field of the .deb")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY on the first line.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "edpbench runs ML training workloads on the CPU and the integrated GPU of
Jetson-class boards (and any Linux machine), integrates the board's power
monitors into joules and recommends CPU or GPU mode. The package ships a
hardened systemd service and weekly timer, both disabled by default.")
# The maintainer scripts use adduser/addgroup. Library dependencies come from
# dpkg-shlibdeps (for a cross build it finds the arm64 libraries through the
# multiarch tree that scripts/setup-cross-deps.sh installs).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "systemd")
# python3: the monitor's Python module (built for the build machine's Python 3.x).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "i2c-tools, python3")
option(EDPBENCH_DEB_SHLIBDEPS "Compute the .deb's Depends with dpkg-shlibdeps" ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ${EDPBENCH_DEB_SHLIBDEPS})
if(NOT EDPBENCH_DEB_SHLIBDEPS AND EDPBENCH_HAVE_PROMETHEUS)
  # `edpbench exporter`'s libraries (dpkg-shlibdeps finds them otherwise).
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libprometheus-cpp-core1.0, libcpp-httplib0.11")
endif()
if(CMAKE_CROSSCOMPILING AND CMAKE_LIBRARY_ARCHITECTURE)
  # dpkg-shlibdeps must look in the target's library directories.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS
      "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE};/lib/${CMAKE_LIBRARY_ARCHITECTURE}")
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    "${_edp_ctl}/conffiles;${_edp_ctl}/postinst;${_edp_ctl}/prerm;${_edp_ctl}/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/;/build[^/]*/")
include(CPack)
