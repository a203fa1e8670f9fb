#===- GenerateCollectives.cmake - join the collective library -----------===#
#
# cmake -DSRC=<lib/Collectives> -DOUT=<file> "-DSOURCES=a.bsgp;b.bsgp"
#       -P GenerateCollectives.cmake
#
# The library is plain BSGP with generic functions (lib/Collectives/*.bsgp),
# joined in the order of SOURCES. The radix sorts are still written once
# with @...@ fields (the key width, and integers sizing their local arrays)
# and expanded here per key width (radix-*.bsgp.in), after the plain files.
#
#===----------------------------------------------------------------------===#

# The radix sorts: unsigned type, suffix, bits, pairs per work group's tile
# (the local arrays of a tile of 2048 64-bit keys take 43 KiB of 48).
set(radix_sorts uint:u32:32:4096 uint64:u64:64:2048)

set(main "")
foreach(source IN LISTS SOURCES)
  file(READ "${SRC}/${source}" text)
  string(APPEND main "${text}\n")
endforeach()

file(READ "${SRC}/radix-sort.bsgp.in" radix_sort)
file(READ "${SRC}/radix-sort-cuda.bsgp.in" radix_sort_cuda)
file(READ "${SRC}/radix-helpers.bsgp.in" radix_helpers)

set(sorts "")
# A radix sort template with the key type's fields (utype, usuffix, bits)
# and a tile of `tile` pairs.
function(expand_radix out text tile)
  math(EXPR items "${tile} / 256")
  math(EXPR passes "${bits} / 8")
  math(EXPR hist "${passes} * 256")
  foreach(pair "U;${utype}" "US;${usuffix}" "BITS;${bits}" "TILE;${tile}"
               "ITEMS;${items}" "PASSES;${passes}" "HIST;${hist}")
    list(GET pair 0 key)
    list(GET pair 1 value)
    string(REPLACE "@${key}@" "${value}" text "${text}")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

foreach(entry IN LISTS radix_sorts)
  string(REPLACE ":" ";" fields "${entry}")
  list(GET fields 0 utype)
  list(GET fields 1 usuffix)
  list(GET fields 2 bits)
  list(GET fields 3 tile)
  expand_radix(part "${radix_helpers}" ${tile})
  string(APPEND sorts "${part}")
  # The SPIR-V copy and the CUDA sort first (the main copy calls them), the
  # SPIR-V copy with tiles of 1024 pairs.
  expand_radix(part "${radix_sort_cuda}" ${tile})
  set(cuda_sort "${part}")
  foreach(copy spirv cuda main)
    if(copy STREQUAL "cuda")
      string(APPEND sorts "${cuda_sort}")
      continue()
    endif()
    if(copy STREQUAL "spirv")
      set(rs "${usuffix}_spirv")
      set(copy_tile 1024)
      set(only "target.spirv")
      set(skip "false")
      set(entry "  if (!target.spirv)\n    return 0;\n")
    else()
      set(rs "${usuffix}")
      set(copy_tile "${tile}")
      set(only "target.cpu")
      set(skip "true")
      set(entry "  if (target.spirv)\n    return __bsgp_radix_sort_${usuffix}_spirv(input, keys, values, spareKeys, spareValues, n, mode, identity);\n  if (target.cuda)\n    return __bsgp_radix_sort_${usuffix}_cuda(input, keys, values, spareKeys, spareValues, n, mode, identity);\n")
    endif()
    string(REPLACE "@ENTRY@\n" "${entry}" part "${radix_sort}")
    string(REPLACE "@ONLY@" "${only}" part "${part}")
    string(REPLACE "@SKIP@" "${skip}" part "${part}")
    string(REPLACE "@RS@" "${rs}" part "${part}")
    expand_radix(part "${part}" ${copy_tile})
    string(APPEND sorts "${part}")
  endforeach()
endforeach()
string(APPEND main "${sorts}")
file(WRITE "${OUT}.tmp" "${main}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
