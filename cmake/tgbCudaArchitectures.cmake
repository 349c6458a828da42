# tgb: the CUDA toolkit check and the default CUDA architectures.
#
# Included before enable_language(CUDA), with CMAKE_CUDA_COMPILER set.
#
# tgb_check_cuda_toolkit(): stops at configure time when the nvcc found is
# older than TGB_CUDA_MIN_VERSION, naming the minimum.
#
# tgb_default_cuda_architectures(): where the user named no architectures
# (neither -DCMAKE_CUDA_ARCHITECTURES nor the CUDAARCHS environment variable):
#   - the GPUs of the configuring machine, as nvidia-smi reports them (what
#     CMake's "native" gives, without failing where the driver cannot be
#     reached), when nvcc can generate code for them;
#   - otherwise the portable list: real code (cubin) for the lowest
#     architecture of every major family from sm_75 on that this nvcc
#     supports (a cubin runs on every later minor of its major: sm_80 serves
#     the A100, A10, L4, L40S and RTX 30/40), plus PTX of the newest family's
#     base architecture, which the driver compiles at start-up for GPUs that
#     come after the toolkit. With CUDA 13.0: 75;80;90;100;110;120 real and
#     120 PTX; with CUDA 12.4: 75;80;90 real and 90 PTX.
# Sets TGB_CUDA_ARCHITECTURES_ORIGIN to "user", "native" or "portable".

set(TGB_CUDA_MIN_VERSION 12.4)

function(tgb_nvcc_version out)
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --version OUTPUT_VARIABLE v ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT v MATCHES "release ([0-9]+\\.[0-9]+)")
    set(${out} "" PARENT_SCOPE)
  else()
    set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  endif()
endfunction()

function(tgb_check_cuda_toolkit)
  tgb_nvcc_version(v)
  if(v STREQUAL "")
    message(FATAL_ERROR "tgb: could not run ${CMAKE_CUDA_COMPILER} --version. Point CMAKE_CUDA_COMPILER at the "
                        "nvcc of CUDA ${TGB_CUDA_MIN_VERSION} or newer, or configure with -DTGB_ENABLE_CUDA=OFF.")
  endif()
  if(v VERSION_LESS TGB_CUDA_MIN_VERSION)
    message(FATAL_ERROR "tgb: needs CUDA ${TGB_CUDA_MIN_VERSION} or newer; ${CMAKE_CUDA_COMPILER} is CUDA ${v}. "
                        "Point CMAKE_CUDA_COMPILER at a newer nvcc, or configure with -DTGB_ENABLE_CUDA=OFF "
                        "for the host backend only.")
  endif()
  set(TGB_NVCC_VERSION "${v}" PARENT_SCOPE)
endfunction()

# The real architectures (numbers such as 75, 90, 120) this nvcc generates code for.
function(tgb_nvcc_real_architectures out)
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --list-gpu-code OUTPUT_VARIABLE codes ERROR_QUIET RESULT_VARIABLE rc)
  set(archs "")
  if(rc EQUAL 0)
    string(REGEX MATCHALL "sm_[0-9]+[ \t\r\n]" found "${codes}\n")
    foreach(c IN LISTS found)
      string(REGEX REPLACE "sm_([0-9]+).*" "\\1" n "${c}")
      list(APPEND archs ${n})
    endforeach()
  endif()
  if(NOT archs)  # an nvcc without --list-gpu-code: what CUDA 12.4 supports
    set(archs 75 80 86 87 89 90)
  endif()
  list(REMOVE_DUPLICATES archs)
  list(SORT archs COMPARE NATURAL)
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

function(tgb_portable_cuda_architectures out)
  tgb_nvcc_real_architectures(all)
  set(result "")
  set(seen_majors "")
  set(newest "")
  foreach(a IN LISTS all)
    if(a LESS 75)
      continue()
    endif()
    math(EXPR major "${a} / 10")
    if(NOT major IN_LIST seen_majors)  # ascending order: the family's lowest member
      list(APPEND seen_majors ${major})
      list(APPEND result ${a}-real)
      set(newest ${a})
    endif()
  endforeach()
  list(APPEND result ${newest}-virtual)
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

function(tgb_default_cuda_architectures)
  if(DEFINED CMAKE_CUDA_ARCHITECTURES AND DEFINED TGB_CUDA_ARCHITECTURES_CHOSEN
     AND CMAKE_CUDA_ARCHITECTURES STREQUAL TGB_CUDA_ARCHITECTURES_CHOSEN)
    # Configuring again: the default chosen the first time.
    set(TGB_CUDA_ARCHITECTURES_ORIGIN ${TGB_CUDA_ARCHITECTURES_CHOSEN_ORIGIN} PARENT_SCOPE)
    return()
  endif()
  if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
    set(TGB_CUDA_ARCHITECTURES_ORIGIN user PARENT_SCOPE)
    return()
  endif()
  tgb_nvcc_real_architectures(supported)
  set(native "")
  set(unsupported "")
  find_program(TGB_NVIDIA_SMI nvidia-smi)
  mark_as_advanced(TGB_NVIDIA_SMI)
  if(TGB_NVIDIA_SMI AND NOT TGB_IGNORE_LOCAL_GPU)
    execute_process(COMMAND "${TGB_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE caps ERROR_QUIET RESULT_VARIABLE rc TIMEOUT 30)
    if(rc EQUAL 0)
      string(REGEX MATCHALL "[0-9]+\\.[0-9]+" caps "${caps}")
      foreach(c IN LISTS caps)
        string(REPLACE "." "" a "${c}")
        if(a IN_LIST supported)
          list(APPEND native ${a}-real)
        else()
          list(APPEND unsupported sm_${a})
        endif()
      endforeach()
    endif()
  endif()
  if(native AND NOT unsupported)
    list(REMOVE_DUPLICATES native)
    set(TGB_CUDA_ARCHITECTURES_CHOSEN "${native}" CACHE INTERNAL "")
    set(CMAKE_CUDA_ARCHITECTURES "${native}" CACHE STRING
        "CUDA architectures (tgb default: the GPUs of the configuring machine)")
    set(TGB_CUDA_ARCHITECTURES_ORIGIN native PARENT_SCOPE)
    set(TGB_CUDA_ARCHITECTURES_CHOSEN_ORIGIN native CACHE INTERNAL "")
  else()
    if(unsupported)
      message(WARNING "tgb: this machine's GPU (${unsupported}) is not among the architectures this nvcc "
                      "supports; building the portable list instead")
    endif()
    tgb_portable_cuda_architectures(portable)
    set(TGB_CUDA_ARCHITECTURES_CHOSEN "${portable}" CACHE INTERNAL "")
    set(CMAKE_CUDA_ARCHITECTURES "${portable}" CACHE STRING
        "CUDA architectures (tgb default: every family this nvcc supports, PTX of the newest)")
    set(TGB_CUDA_ARCHITECTURES_ORIGIN portable PARENT_SCOPE)
    set(TGB_CUDA_ARCHITECTURES_CHOSEN_ORIGIN portable CACHE INTERNAL "")
  endif()
endfunction()

# CMAKE_CUDA_ARCHITECTURES as a list of what was built, e.g.
# "sm_80;sm_90;compute_90" ("90" alone is both real code and PTX; "native",
# "all" and "all-major" resolve to what CMake chose).
function(tgb_describe_cuda_architectures out)
  set(archs "${CMAKE_CUDA_ARCHITECTURES}")
  if(archs STREQUAL "native" AND DEFINED CMAKE_CUDA_ARCHITECTURES_NATIVE)
    set(archs "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
  elseif(archs STREQUAL "all" AND DEFINED CMAKE_CUDA_ARCHITECTURES_ALL)
    set(archs "${CMAKE_CUDA_ARCHITECTURES_ALL}")
  elseif(archs STREQUAL "all-major" AND DEFINED CMAKE_CUDA_ARCHITECTURES_ALL_MAJOR)
    set(archs "${CMAKE_CUDA_ARCHITECTURES_ALL_MAJOR}")
  endif()
  set(result "")
  foreach(a IN LISTS archs)
    if(a MATCHES "^([0-9]+[a-z]?)-real$")
      list(APPEND result sm_${CMAKE_MATCH_1})
    elseif(a MATCHES "^([0-9]+[a-z]?)-virtual$")
      list(APPEND result compute_${CMAKE_MATCH_1})
    elseif(a MATCHES "^([0-9]+[a-z]?)$")
      list(APPEND result sm_${CMAKE_MATCH_1} compute_${CMAKE_MATCH_1})
    else()
      list(APPEND result "${a}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES result)
  set(${out} "${result}" PARENT_SCOPE)
endfunction()
