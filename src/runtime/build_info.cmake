# Writes build_info.hpp at build time (so the git commit in every report is the one built, not
# the one configured). configure_file rewrites the header only when its content changes.
execute_process(COMMAND git describe --always --dirty --abbrev=12
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE YEEX_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT YEEX_GIT_COMMIT)
  set(YEEX_GIT_COMMIT "unknown")
endif()
configure_file(${IN} ${OUT} @ONLY)
