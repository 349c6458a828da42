# Sourced by the scripts: tgb_generator BUILD_DIR sets the array tgb_gen to
# the CMake generator arguments: Ninja where it is installed, Make otherwise;
# nothing for a build folder already configured with a generator whose tool
# is still there (CMake refuses to change it).
tgb_generator() {
  tgb_gen=()
  if [ -f "$1/CMakeCache.txt" ]; then
    local g
    g=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$1/CMakeCache.txt")
    case "$g" in
      Ninja) command -v ninja >/dev/null 2>&1 && return 0 ;;
      "Unix Makefiles") command -v make >/dev/null 2>&1 && return 0 ;;
      *) return 0 ;;
    esac
    echo "tgb: $1 was configured for $g, which is gone; configuring it afresh" >&2
    rm -rf "$1/CMakeCache.txt" "$1/CMakeFiles"
  fi
  if command -v ninja >/dev/null 2>&1; then
    tgb_gen=(-G Ninja)
  else
    tgb_gen=(-G "Unix Makefiles")
  fi
}
